import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RepositorySpec } from "../src/config/types.js";
import { resolveVersion } from "../src/versions/resolve.js";
import { pinnedHelm } from "../src/render/helm-binary.js";
import { httpSource } from "../src/sources/http/index.js";
import { generateIndex } from "./lib/generate-index.js";
import { median, ms, serveFiles } from "./lib/serve.js";

const run = promisify(execFile);

/**
 * Resolving 50 ranges against a ≥4 MB index served on loopback, against one
 * `helm search repo <name> --versions` over the same index (helm reads it
 * from its repository cache, as after `helm repo add`).
 */
export async function benchIndexResolve(cacheRoot: string): Promise<Record<string, string | number>> {
  const generated = generateIndex({ charts: 45, versionsPerChart: 70 });
  const server = await serveFiles(new Map([["index.yaml", Buffer.from(generated.text)]]));
  const work = await mkdtemp(join(tmpdir(), "chartroom-bench-"));
  try {
    const repository: RepositorySpec = { name: "bench", kind: "http", url: server.url, plainHttp: false, timeoutMs: 30_000 };
    const ranges = Array.from({ length: 50 }, (_, i) => ({
      chart: generated.names[i % generated.names.length] ?? "",
      range: ["^1.0.0", "~2.1.0", "*", ">=0.3 <3", "^3.1.0"][i % 5] ?? "*",
    }));
    const resolveAll = async (cache: string) => {
      const source = httpSource(repository, { cacheRoot: cache });
      for (const { chart, range } of ranges) {
        resolveVersion({ key: chart, chart, range, prerelease: false, repository: server.url }, await source.listVersions(chart));
      }
    };
    let coldRun = 0;
    const cold = await median(5, () => resolveAll(join(work, `cold-${coldRun++}`)));
    const warmCache = join(work, "warm");
    await resolveAll(warmCache);
    const warm = await median(5, () => resolveAll(warmCache));

    const helmTimes: Record<string, number> = {};
    for (const major of [3, 4] as const) {
      const helm = (await pinnedHelm(major, cacheRoot)).path;
      const env = { ...process.env, HELM_CACHE_HOME: join(work, `h${major}-cache`), HELM_CONFIG_HOME: join(work, `h${major}-config`) };
      await run(helm, ["repo", "add", "bench", server.url], { env });
      helmTimes[`helm${major}`] = await median(5, () => run(helm, ["search", "repo", "bench/chart-007", "--versions"], { env, maxBuffer: 1 << 24 }));
    }
    const helm = Math.min(...Object.values(helmTimes));
    return {
      "index size": `${(generated.text.length / 1e6).toFixed(2)} MB, ${generated.entries} entries, ${generated.names.length} charts`,
      "chartroom cold (fetch + parse + 50 ranges)": ms(cold),
      "chartroom warm (304 + cached parse + 50 ranges)": ms(warm),
      "helm 3 search repo (one name)": ms(helmTimes.helm3 ?? 0),
      "helm 4 search repo (one name)": ms(helmTimes.helm4 ?? 0),
      "cold / helm (target ≤ 0.5)": Number((cold / helm).toFixed(3)),
      "warm / helm (target ≤ 0.1)": Number((warm / helm).toFixed(3)),
    };
  } finally {
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
}
