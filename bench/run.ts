// `npm run bench`: each benchmark prints its figures and the ratio its issue
// targets. Figures vary by machine; ratios are what to compare.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { benchCheckValues } from "./check-values.js";
import { benchCliStart } from "./cli-start.js";
import { benchImageLock } from "./image-lock.js";
import { asOnAUsersMachine } from "./lib/environment.js";
import { benchIndexResolve } from "./index-resolve.js";
import { benchLargeInputs } from "./large-inputs.js";
import { benchLiveReview } from "./live-review.js";
import { benchLockConcurrency } from "./lock-concurrency.js";
import { benchOciResolve } from "./oci-resolve.js";
import { benchPeers } from "./peers.js";
import { benchPlatformScale } from "./platform-scale.js";
import { benchPolicies } from "./policies.js";
import { benchPublicApi } from "./public-api.js";
import { benchRenderDiff } from "./render-diff.js";
import { benchReportSizes } from "./report-sizes.js";

const cacheRoot = join(import.meta.dirname, "..", ".cache", "bench");
const only = process.argv.slice(2);
const benches: Record<string, () => Promise<Record<string, string | number>>> = {
  "index-resolve": () => benchIndexResolve(cacheRoot),
  "lock-concurrency": () => benchLockConcurrency(),
  "oci-resolve": () => benchOciResolve(),
  "render-diff": () => benchRenderDiff(cacheRoot),
  "check-values": () => benchCheckValues(cacheRoot),
  policies: () => benchPolicies(cacheRoot),
  "large-inputs": () => benchLargeInputs(),
  "platform-scale": () => benchPlatformScale(cacheRoot),
  deploy: benchDeploy,
  "public-api": () => benchPublicApi(),
  "cli-start": () => benchCliStart(),
  "live-review": () => benchLiveReview(cacheRoot),
  "image-lock": () => benchImageLock(cacheRoot),
  peers: () => benchPeers(cacheRoot),
  "report-sizes": () => benchReportSizes(),
};

/** Pulumi's mock state is global to a process: the deploy benchmark gets its own. */
async function benchDeploy(): Promise<Record<string, string | number>> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", join(import.meta.dirname, "deploy.ts")], {
    cwd: join(import.meta.dirname, ".."),
  });
  const { bare, ours } = JSON.parse(stdout) as { bare: number; ours: number };
  return {
    work: "50 charts for one stack under pulumi.runtime.setMocks",
    "50 bare helm.v4.Chart": `${bare.toFixed(1)} ms`,
    "deployCharts: 50 ChartDeployments, values layered and validated": `${ours.toFixed(1)} ms`,
    "deployCharts / bare (target ≤ 2)": Number((ours / bare).toFixed(2)),
  };
}

asOnAUsersMachine();
for (const [name, bench] of Object.entries(benches)) {
  if (only.length > 0 && !only.includes(name)) continue;
  process.stdout.write(`\n## ${name}\n\n`);
  for (const [label, value] of Object.entries(await bench())) process.stdout.write(`- ${label}: ${value}\n`);
}
