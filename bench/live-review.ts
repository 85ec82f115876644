// `diff --cluster` of a 30-chart platform against a real API server, against
// the same diff offline: time and requests. The platform is deployed first
// as the provider deploys it (each chart's render applied server-side by a
// pulumi-kubernetes-… field manager), so the review finds owned objects.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { pinnedHelm } from "../src/render/helm-binary.js";
import { startCluster } from "../test/helpers/cluster.js";
import { median, ms } from "./lib/serve.js";
import { chartroom, makePlatform } from "./platform-scale.js";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..");
const CHARTS = 30;

export async function benchLiveReview(cacheRoot: string): Promise<Record<string, string | number>> {
  await run("npm", ["run", "build", "--silent"], { cwd: ROOT });
  const dir = await mkdtemp(join(tmpdir(), "chartroom-bench-live-"));
  const cluster = await startCluster();
  try {
    const helm = await pinnedHelm(4, cacheRoot);
    const keys = await makePlatform(dir, helm.path, CHARTS, ["prod"]);
    const cache = join(dir, ".cache");
    await chartroom(dir, ["lock"], cache, helm.path);
    const namespaces = keys.map((key) => ({ apiVersion: "v1", kind: "Namespace", metadata: { name: key } }));
    const made = await cluster.kubectl(["apply", "-f", "-"], { input: namespaces.map((item) => JSON.stringify(item)).join("\n") });
    if (made.code !== 0) throw new Error(made.stderr);
    for (const key of keys) {
      const { stdout } = await run(process.execPath, [join(ROOT, "dist", "cli", "main.cjs"), "render", key, "--stack", "prod"], {
        cwd: dir,
        env: { ...process.env, CHARTROOM_CACHE: cache, HELM_BIN: helm.path, NO_COLOR: "1" },
        maxBuffer: 64 << 20,
      });
      const applied = await cluster.kubectl(["apply", "--server-side", `--field-manager=pulumi-kubernetes-${key}`, "-n", key, "-f", "-"], { input: stdout });
      if (applied.code !== 0) throw new Error(applied.stderr);
    }
    const args = ["diff", "--to", "1.1.0", "--stack", "prod"];
    // Warm render cache on both: the figures compare the review, not helm.
    await chartroom(dir, args, cache, helm.path);
    const offline = await median(3, async () => (await chartroom(dir, args, cache, helm.path)).ms);
    const mine = async () =>
      (await cluster.audit()).filter((event) => event.userAgent === "chartroom-live-review" && event.stage === "ResponseComplete").length;
    const before = await mine();
    const live = await median(3, async () => (await chartroom(dir, [...args, "--cluster", "--kubeconfig", cluster.kubeconfigFile()], cache, helm.path)).ms);
    const requests = ((await mine()) - before) / 3;
    return {
      work: `${CHARTS} charts × 3 objects, each move 1.0.0 → 1.1.0 reviewed against a real API server (kube-apiserver, kwok)`,
      "diff --to, offline (warm)": ms(offline),
      "diff --to --cluster (warm)": ms(live),
      "requests per live diff": requests,
      "live / offline (target ≤ 2)": Number((live / offline).toFixed(3)),
    };
  } finally {
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
