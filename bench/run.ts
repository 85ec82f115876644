// `npm run bench`: each benchmark prints its figures and the ratio its issue
// targets. Figures vary by machine; ratios are what to compare.
import { join } from "node:path";
import { benchCheckValues } from "./check-values.js";
import { benchIndexResolve } from "./index-resolve.js";
import { benchLockConcurrency } from "./lock-concurrency.js";
import { benchOciResolve } from "./oci-resolve.js";
import { benchRenderDiff } from "./render-diff.js";

const cacheRoot = join(import.meta.dirname, "..", ".cache", "bench");
const only = process.argv.slice(2);
const benches: Record<string, () => Promise<Record<string, string | number>>> = {
  "index-resolve": () => benchIndexResolve(cacheRoot),
  "lock-concurrency": () => benchLockConcurrency(),
  "oci-resolve": () => benchOciResolve(),
  "render-diff": () => benchRenderDiff(cacheRoot),
  "check-values": () => benchCheckValues(cacheRoot),
};

for (const [name, bench] of Object.entries(benches)) {
  if (only.length > 0 && !only.includes(name)) continue;
  process.stdout.write(`\n## ${name}\n\n`);
  for (const [label, value] of Object.entries(await bench())) process.stdout.write(`- ${label}: ${value}\n`);
}
