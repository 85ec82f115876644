import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { packChart } from "../test/helpers/pack.js";
import { chartSpec } from "../src/config/normalise.js";
import type { ChartSpec, Config, RepositorySpec } from "../src/config/types.js";
import { resolveVersion } from "../src/versions/resolve.js";
import { resolveLock } from "../src/workflows/lock.js";
import { projectOf } from "../src/project/project.js";
import { ociSource } from "../src/sources/oci/index.js";
import { mapLimit } from "../src/util/pool.js";
import { helm } from "../test/helpers/helm.js";
import { helmPush, startRegistry } from "../test/helpers/registry.js";
import { median, ms } from "./lib/serve.js";

const run = promisify(execFile);
const CHARTS = 10;
const VERSIONS = ["1.0.0", "1.1.0", "1.2.0"];

/** Resolve (and lock) 10 charts from a loopback registry vs `helm show chart oci://…` per chart. */
export async function benchOciResolve(): Promise<Record<string, string | number>> {
  const work = await mkdtemp(join(tmpdir(), "chartroom-bench-oci-"));
  const registry = await startRegistry(work);
  try {
    const names = Array.from({ length: CHARTS }, (_, i) => `oci-bench-${i}`);
    for (const name of names) {
      for (const version of VERSIONS) {
        const file = join(work, `${name}-${version}.tgz`);
        const chartYaml = Buffer.from(`apiVersion: v2\nname: ${name}\nversion: ${version}\n`);
        await writeFile(
          file,
          await packChart(
            name,
            new Map([
              ["Chart.yaml", chartYaml],
              ["values.yaml", Buffer.from("a: 1\n")],
            ]),
            new Date(0),
          ),
        );
        await helmPush(4, file, `oci://${registry.host}/bench`, { dir: work, plainHttp: true });
      }
    }
    const repository: RepositorySpec = { name: "bench", kind: "oci", url: `oci://${registry.host}/bench`, plainHttp: true, timeoutMs: 30_000 };
    const resolveAll = async () => {
      const source = ociSource(repository, {});
      await mapLimit(names, 8, async (name) =>
        resolveVersion({ key: name, chart: name, range: "^1.0.0", prerelease: false, repository: repository.url }, await source.listVersions(name)),
      );
    };
    const resolve = await median(5, resolveAll);
    let n = 0;
    const charts: ChartSpec[] = names.map((key) => chartSpec({ key, repository, range: "^1.0.0", namespace: "ns" }));
    const lock = await median(5, async () => {
      const cacheRoot = join(work, `cache-${n++}`);
      const config: Config = { file: "bench", dir: work, repositories: new Map([["bench", repository]]), charts, stacks: [], registries: new Map() };
      await resolveLock(projectOf(config, null, { env: { ...process.env, CHARTROOM_CACHE: cacheRoot } }));
    });
    const helmBin = await helm(4);
    const env = {
      ...process.env,
      HELM_REGISTRY_CONFIG: join(work, "helm-registry.json"),
      HELM_CACHE_HOME: join(work, "hc"),
      HELM_CONFIG_HOME: join(work, "hcfg"),
    };
    const helmSum = await median(3, async () => {
      for (const name of names) await run(helmBin, ["show", "chart", `oci://${registry.host}/bench/${name}`, "--version", "1.2.0", "--plain-http"], { env });
    });
    return {
      registry: `docker-registry (distribution 2.8) on loopback, ${CHARTS} charts × ${VERSIONS.length} versions`,
      "chartroom resolve 10 charts (tags, in parallel)": ms(resolve),
      "chartroom lock 10 charts (resolve + manifest + blob + inspect)": ms(lock),
      "helm 4 show chart, sum of 10 calls": ms(helmSum),
      "resolve / helm sum (target ≤ 0.5)": Number((resolve / helmSum).toFixed(3)),
      "lock / helm sum": Number((lock / helmSum).toFixed(3)),
    };
  } finally {
    await registry.stop();
    await rm(work, { recursive: true, force: true });
  }
}
