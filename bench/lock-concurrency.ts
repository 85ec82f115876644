import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { packChart } from "../test/helpers/pack.js";
import { chartSpec } from "../src/config/normalise.js";
import type { ChartSpec, Config, RepositorySpec } from "../src/config/types.js";
import { resolveLock } from "../src/workflows/lock.js";
import { projectOf } from "../src/project/project.js";
import { sha256Hex } from "../src/util/hash.js";
import { median, ms, serveFiles } from "./lib/serve.js";

const LATENCIES = [40, 80, 160];

/** A repository of `names` with one small chart version each. */
async function repositoryFiles(names: string[]): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const entries: Record<string, unknown[]> = {};
  for (const name of names) {
    const chartYaml = Buffer.from(`apiVersion: v2\nname: ${name}\nversion: 1.0.0\nappVersion: "1.0"\n`);
    const archive = await packChart(
      name,
      new Map([
        ["Chart.yaml", chartYaml],
        ["values.yaml", Buffer.from("replicas: 1\n")],
      ]),
      new Date(0),
    );
    files.set(`${name}-1.0.0.tgz`, archive);
    entries[name] = [{ name, version: "1.0.0", digest: sha256Hex(archive), urls: [`${name}-1.0.0.tgz`] }];
  }
  files.set("index.yaml", Buffer.from(stringify({ apiVersion: "v1", entries })));
  return files;
}

/** `lock` of 10 charts from 3 repositories with different latencies: wall time vs the slowest chart and vs one at a time. */
export async function benchLockConcurrency(): Promise<Record<string, string | number>> {
  const groups = [
    ["a1", "a2", "a3", "a4"],
    ["b1", "b2", "b3"],
    ["c1", "c2", "c3"],
  ];
  const servers = await Promise.all(groups.map(async (names, i) => serveFiles(await repositoryFiles(names), LATENCIES[i])));
  const work = await mkdtemp(join(tmpdir(), "chartroom-bench-"));
  try {
    const repositories = new Map<string, RepositorySpec>(
      servers.map((server, i) => [`r${i}`, { name: `r${i}`, kind: "http", url: server.url, plainHttp: false, timeoutMs: 30_000 }]),
    );
    const charts: ChartSpec[] = groups.flatMap((names, i) =>
      names.map((key) => chartSpec({ key, repository: repositories.get(`r${i}`) as RepositorySpec, range: "^1.0.0", namespace: "ns" })),
    );
    let n = 0;
    const lockWith = async (selected: ChartSpec[], concurrency: number) => {
      const cacheRoot = join(work, `run-${n++}`);
      const config: Config = { file: "bench", dir: work, repositories, charts: selected, stacks: [], registries: new Map() };
      await resolveLock(projectOf(config, null, { env: { ...process.env, CHARTROOM_CACHE: cacheRoot } }), { concurrency });
    };
    const parallel = await median(5, () => lockWith(charts, 8));
    const sequential = await median(3, () => lockWith(charts, 1));
    const slowest = await median(5, () =>
      lockWith(
        charts.filter((c) => c.key === "c1"),
        1,
      ),
    );
    return {
      "repositories (latency per response)": LATENCIES.map((l) => `${l} ms`).join(", "),
      "lock 10 charts, concurrency 8": ms(parallel),
      "lock 10 charts, one at a time (the sum)": ms(sequential),
      "lock the slowest chart alone": ms(slowest),
      "parallel / slowest (target close to 1)": Number((parallel / slowest).toFixed(2)),
      "parallel / sum": Number((parallel / sequential).toFixed(2)),
    };
  } finally {
    await Promise.all(servers.map((server) => server.close()));
    await rm(work, { recursive: true, force: true });
  }
}
