// Run in its own process (Pulumi's mock state is global): `tsx bench/deploy.ts` prints JSON.
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { normaliseConfig } from "../src/config/normalise.js";
import { deployCharts } from "../src/deploy/pulumi/index.js";
import type { WrittenConfig } from "../src/config/types.js";
import { placePinnedArchives } from "../src/project/archives.js";
import { resolveLock } from "../src/workflows/lock.js";
import { projectOf } from "../src/project/project.js";
import { writeLock } from "../src/lockfile/write.js";
import { median } from "./lib/interval.js";

const CHARTS = 50;
const ROOT = resolve(import.meta.dirname, "..");

async function settle(output: pulumi.Output<unknown>): Promise<void> {
  await new Promise((done) => output.apply(done));
}

async function platform(dir: string): Promise<WrittenConfig> {
  await cp(join(ROOT, "charts"), join(dir, "charts"), { recursive: true });
  const charts: WrittenConfig["charts"] = {};
  for (let i = 0; i < CHARTS; i++) {
    charts[`app-${i}`] = { repository: "local", chart: "webapp", version: "~1.0.0", namespace: `team-${i}` };
    await mkdir(join(dir, "values", `app-${i}`), { recursive: true });
    await writeFile(join(dir, "values", `app-${i}`, "values.yaml"), `replicaCount: ${1 + (i % 3)}\nservice:\n  port: 8080\nconfig:\n  logLevel: info\n`);
  }
  const written: WrittenConfig = { repositories: { local: "file://./charts" }, charts, stacks: { bench: { kubeVersion: "1.31.0" } } };
  const config = normaliseConfig(written, join(dir, "chartroom.config.ts"));
  const cacheRoot = join(dir, ".cache");
  const project = projectOf(config, null, { env: { ...process.env, CHARTROOM_CACHE: cacheRoot } });
  const { lock } = await resolveLock(project);
  await writeLock(join(dir, "charts.lock.json"), lock);
  // The archives where a Pulumi program finds them (.chartroom/charts), as `chartroom lock` leaves them.
  project.lock = lock;
  await placePinnedArchives(project);
  return written;
}

async function time(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const dir = await mkdtemp(join(tmpdir(), "chartroom-bench-deploy-"));
try {
  const written = await platform(dir);
  await pulumi.runtime.setMocks(
    { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
    "bench",
    "bench",
    false,
  );
  const state = (await import("@pulumi/pulumi/runtime/state.js")) as unknown as { getStore(): { supportsTransforms: boolean } };
  state.getStore().supportsTransforms = true;
  const provider = new k8s.Provider("cluster", { kubeconfig: "x" });
  process.chdir(dir);
  const bare: number[] = [];
  const ours: number[] = [];
  for (let round = 0; round < 5; round++) {
    bare.push(
      await time(async () => {
        const charts = Array.from(
          { length: CHARTS },
          (_, i) =>
            new k8s.helm.v4.Chart(
              `bare-${round}-${i}`,
              {
                chart: "charts/webapp-1.0.1.tgz",
                namespace: `team-${i}`,
                values: { replicaCount: 1 + (i % 3), service: { port: 8080 }, config: { logLevel: "info" } },
              },
              { provider },
            ),
        );
        await Promise.all(charts.map((chart) => settle(chart.urn)));
      }),
    );
    ours.push(
      await time(async () => {
        const deployments = await deployCharts(written, { stack: "bench", provider, dir });
        await Promise.all(Object.values(deployments).flatMap((d) => [settle(d.urn), settle(d.resource.urn)]));
      }),
    );
  }
  process.stdout.write(`${JSON.stringify({ bare: median(bare), ours: median(ours) })}\n`);
} finally {
  process.chdir(ROOT);
  await rm(dir, { recursive: true, force: true });
}
