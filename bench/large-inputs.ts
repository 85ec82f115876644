import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseIndex } from "../src/sources/helm-index/file.js";
import { parseValuesFile } from "../src/values/layers.js";
import { helm } from "../test/helpers/helm.js";
import { generateIndex } from "./lib/generate-index.js";
import { measureCli, medianCost } from "./lib/process.js";
import { ms } from "./lib/serve.js";

const ROOT = resolve(import.meta.dirname, "..");

/**
 * Big inputs: a 10 MB values file (85,000 keys, rendered into the chart's
 * pod annotations) as a whole `chartroom check` process, warm (the render and
 * findings cached: chartroom's own work) and cold (helm's own cost of the
 * 10 MB file included in the wall time, not in chartroom's CPU); and a 50 MB
 * index.yaml (45 charts × 780 versions) parsed in process.
 */
export async function benchLargeInputs(): Promise<Record<string, string | number>> {
  const values = Array.from({ length: 85_000 }, (_, i) => `  key${i}: value-${i}-${"x".repeat(90)}`).join("\n");
  let started = performance.now();
  parseValuesFile("values/big/values.yaml", `bulk:\n${values}\n`);
  const valuesTime = performance.now() - started;
  const dir = await mkdtemp(join(tmpdir(), "chartroom-bench-values-"));
  try {
    for (const name of ["chartroom.config.ts", "charts.lock.json", "charts", "values", "policies"])
      await cp(join(ROOT, name), join(dir, name), { recursive: true });
    await writeFile(join(dir, "values", "webapp", "values.yaml"), `image:\n  pullPolicy: Always\npodAnnotations:\n${values}\n`);
    const env = { CHARTROOM_CACHE: join(dir, ".cache"), HELM_BIN: await helm(4), CHARTROOM_TODAY: "2026-11-30" };
    const args = ["check", "webapp", "--stack", "dev"];
    const cold = await measureCli(args, { cwd: dir, env });
    const warm = await medianCost(3, () => measureCli(args, { cwd: dir, env }));
    const index = generateIndex({ charts: 45, versionsPerChart: 780 }).text;
    started = performance.now();
    parseIndex(index, "bench/index.yaml");
    const indexTime = performance.now() - started;
    // A tab sends it to the full YAML parser, as an index the fast reader does not take would.
    started = performance.now();
    parseIndex(`${index}#\tfull parse\n`, "bench/index.yaml");
    const fullTime = performance.now() - started;
    return {
      [`values file of ${((values.length + 30) / 1e6).toFixed(1)} MB, 85,000 keys, parsed in process`]: ms(valuesTime),
      "chartroom check with it, warm, as a process: CPU (target ≤ 1 s)": ms(warm.cpuMs),
      "the same: peak RSS (target ≤ 300 MB)": `${Math.round(warm.rssMb)} MB`,
      "cold (helm renders the 10 MB file): chartroom's CPU / wall / peak RSS": `${ms(cold.cpuMs)} / ${ms(cold.wallMs)} / ${Math.round(cold.rssMb)} MB`,
      [`index.yaml of ${(index.length / 1e6).toFixed(1)} MB, 35,100 entries (target ≤ 5 s)`]: ms(indexTime),
      "the same index through the full YAML parser": ms(fullTime),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
