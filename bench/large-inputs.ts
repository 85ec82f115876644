import { parseIndex } from "../src/sources/helm-index/file.js";
import { parseValuesFile } from "../src/values/layers.js";
import { generateIndex } from "./lib/generate-index.js";
import { ms } from "./lib/serve.js";

/**
 * Big inputs, parsed as chartroom reads them: a 10 MB values file (85,000
 * keys; duplicate keys still found) and a 50 MB index.yaml (45 charts × 780
 * versions), with the peak memory of the process.
 */
export async function benchLargeInputs(): Promise<Record<string, string | number>> {
  const values = `bulk:\n${Array.from({ length: 85_000 }, (_, i) => `  key${i}: value-${i}-${"x".repeat(90)}`).join("\n")}\n`;
  let started = performance.now();
  parseValuesFile("values/big/values.yaml", values);
  const valuesTime = performance.now() - started;
  const index = generateIndex({ charts: 45, versionsPerChart: 780 }).text;
  started = performance.now();
  parseIndex(index, "bench/index.yaml");
  const indexTime = performance.now() - started;
  // A tab sends it to the full YAML parser, as an index the fast reader does not take would.
  started = performance.now();
  parseIndex(`${index}#\tfull parse\n`, "bench/index.yaml");
  const fullTime = performance.now() - started;
  return {
    [`values file of ${(values.length / 1e6).toFixed(1)} MB, 85,000 keys (target ≤ 2 s)`]: ms(valuesTime),
    [`index.yaml of ${(index.length / 1e6).toFixed(1)} MB, 35,100 entries (target ≤ 5 s)`]: ms(indexTime),
    "the same index through the full YAML parser": ms(fullTime),
    "peak RSS of the benchmark process": `${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  };
}
