import { execFile } from "node:child_process";
import { cpus } from "node:os";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { packChart } from "../test/helpers/pack.js";
import { pinnedHelm } from "../src/render/helm-binary.js";
import { generateChart } from "./lib/generate-chart.js";
import { median, ms } from "./lib/serve.js";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..");
const CHARTS = 200;
const STACKS = ["dev", "staging", "prod"];

/** A small service chart, the kind a platform has hundreds of (no random values: one render each). */
function serviceChart(version: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const put = (path: string, text: string) => files.set(path, Buffer.from(text));
  put("Chart.yaml", `apiVersion: v2\nname: service\nversion: ${version}\nappVersion: "${version}"\n`);
  put("values.yaml", "replicas: 2\nimage: registry.example.test/service\nport: 8080\nlogLevel: info\n");
  const labels = "app.kubernetes.io/name: {{ .Release.Name }}\n    app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}";
  put(
    "templates/deployment.yaml",
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n  labels:\n    ${labels}\nspec:\n  replicas: {{ .Values.replicas }}\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: {{ .Release.Name }}\n  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: {{ .Release.Name }}\n    spec:\n      containers:\n        - name: app\n          image: "{{ .Values.image }}:{{ .Chart.AppVersion }}"\n          ports:\n            - { name: http, containerPort: {{ .Values.port }} }\n          readinessProbe: { httpGet: { path: /ready, port: http } }\n          resources: { requests: { cpu: 50m, memory: 64Mi } }\n          securityContext: { allowPrivilegeEscalation: false, runAsNonRoot: true }\n`,
  );
  put(
    "templates/service.yaml",
    `apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  selector:\n    app.kubernetes.io/name: {{ .Release.Name }}\n  ports:\n    - { name: http, port: 80, targetPort: http }\n`,
  );
  put(
    "templates/configmap.yaml",
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-config\ndata:\n  LOG_LEVEL: {{ .Values.logLevel | quote }}\n`,
  );
  return files;
}

/** The platform's files in `dir`: a file repository with the service chart at two versions, the config, values. */
export async function makePlatform(dir: string, helm: string, count = CHARTS, stacks: readonly string[] = STACKS): Promise<string[]> {
  await mkdir(join(dir, "charts"));
  for (const version of ["1.0.0", "1.1.0"])
    await writeFile(join(dir, "charts", `service-${version}.tgz`), await packChart("service", serviceChart(version), new Date(0)));
  await run(helm, ["repo", "index", join(dir, "charts")], {
    env: { ...process.env, HELM_CACHE_HOME: join(dir, ".helm"), HELM_CONFIG_HOME: join(dir, ".helm") },
  });
  const keys = Array.from({ length: count }, (_, i) => `svc-${String(i).padStart(3, "0")}`);
  const charts = keys.map((key) => `    "${key}": { repository: "local", chart: "service", version: "~1.0.0", namespace: "${key}" },`).join("\n");
  const declared = stacks.map((stack) => `    ${stack}: { kubeVersion: "1.31.0" },`).join("\n");
  await writeFile(
    join(dir, "chartroom.config.ts"),
    `import { defineConfig } from "chartroom";\nexport default defineConfig({\n  repositories: { local: "file://./charts" },\n  charts: {\n${charts}\n  },\n  stacks: {\n${declared}\n  },\n});\n`,
  );
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "platform", private: true, type: "module" }));
  await mkdir(join(dir, "node_modules"));
  await run("ln", ["-s", ROOT, join(dir, "node_modules", "chartroom")]);
  for (const key of keys) {
    await mkdir(join(dir, "values", key), { recursive: true });
    await writeFile(join(dir, "values", key, "values.yaml"), `replicas: ${2 + (key.length % 3)}\n`);
  }
  // The bench's cache folders sit in the project (.cache-lock, .cache-diff-warm…) and a
  // platform repository does not commit chartroom's cache: committed, the 200 render
  // records were most of what `diff --base` read back from git (≈230 of 430 ms of CPU).
  await writeFile(join(dir, ".gitignore"), "node_modules/\n.chartroom/\n.cache-*/\n");

  return keys;
}

/** A project of one chart with real-shaped CRDs, pinned at 1.0.0 with 2.0.0 published, locked. */
async function bigProject(dir: string, helm: string): Promise<string> {
  const big = join(dir, "big");
  await mkdir(join(big, "charts"), { recursive: true });
  for (const version of ["1.0.0", "2.0.0"] as const) {
    await writeFile(
      join(big, "charts", `big-${version}.tgz`),
      await packChart("big", generateChart(version, { count: 110, crds: 6, upgrade: "typical" }), new Date(0)),
    );
  }
  await writeFile(
    join(big, "chartroom.config.ts"),
    `import { defineConfig } from "chartroom";\nexport default defineConfig({\n  repositories: { local: "file://./charts" },\n  charts: { big: { repository: "local", chart: "big", version: "1.0.0", namespace: "apps" } },\n  stacks: { prod: { kubeVersion: "1.31.0" } },\n});\n`,
  );
  await writeFile(join(big, "package.json"), JSON.stringify({ name: "big", private: true, type: "module" }));
  await mkdir(join(big, "node_modules"));
  await run("ln", ["-s", ROOT, join(big, "node_modules", "chartroom")]);
  await run(helm, ["repo", "index", join(big, "charts")], {
    env: { ...process.env, HELM_CACHE_HOME: join(big, ".helm"), HELM_CONFIG_HOME: join(big, ".helm") },
  });
  await chartroom(big, ["lock"], join(big, ".cache-lock"), helm);
  return big;
}

interface Timed {
  ms: number;
  code: number;
}

/** A whole chartroom process, compiled, as a user runs it. */
export async function chartroom(dir: string, args: string[], cache: string, helm: string): Promise<Timed> {
  const started = performance.now();
  try {
    // helm installed, as on a user's machine: the run does not extract one.
    await run(process.execPath, [join(ROOT, "dist", "cli", "main.cjs"), ...args], {
      cwd: dir,
      env: { ...process.env, CHARTROOM_CACHE: cache, HELM_BIN: helm, NO_COLOR: "1" },
      maxBuffer: 64 << 20,
    });
    return { ms: performance.now() - started, code: 0 };
  } catch (error) {
    const code = (error as { code?: number }).code ?? 1;
    if (code !== 2) throw new Error(`chartroom ${args.join(" ")} failed: ${(error as { stderr?: string }).stderr ?? String(error)}`);
    return { ms: performance.now() - started, code };
  }
}

async function git(dir: string, ...args: string[]): Promise<void> {
  await run("git", ["-C", dir, "-c", "user.name=bench", "-c", "user.email=bench@example.test", ...args]);
}

/**
 * A platform of 200 charts × 3 stacks as whole processes with the compiled
 * CLI: a one-file pull request reviewed with `diff --base HEAD` (cold and
 * warm) against one chart's `chartroom render`; a warm `diff --to latest`
 * against a cold one; a cold `lock` of the platform against the renders it
 * needs, one after the other.
 */
export async function benchPlatformScale(cacheRoot: string): Promise<Record<string, string | number>> {
  await run("npm", ["run", "build", "--silent"], { cwd: ROOT });
  const dir = await mkdtemp(join(tmpdir(), "chartroom-bench-platform-"));
  try {
    const helm = await pinnedHelm(4, cacheRoot);
    const keys = await makePlatform(dir, helm.path);
    // The renders a lock needs, one after the other: one helm template per chart and stack.
    const sequentialStarted = performance.now();
    for (const key of keys.slice(0, 30)) {
      for (const _ of STACKS) await run(helm.path, ["template", key, join(dir, "charts", "service-1.0.0.tgz"), "--namespace", key, "--kube-version", "1.31.0"]);
    }
    const sequential = ((performance.now() - sequentialStarted) / 30) * CHARTS;
    const lockCache = join(dir, ".cache-lock");
    const lock = await chartroom(dir, ["lock"], lockCache, helm.path);
    await git(dir, "init", "-q");
    await git(dir, "add", "-A");
    await git(dir, "commit", "-qm", "platform");

    // Each figure is the median of three processes; a cold one gets a cache folder of its own.
    let fresh = 0;
    const timed = (project: string, args: string[], warm: boolean) =>
      median(3, async () => (await chartroom(project, args, join(project, `.cache-${args[0]}-${warm ? "warm" : fresh++}`), helm.path)).ms);
    const coldAndWarm = async (project: string, args: string[]) => {
      const cold = await timed(project, args, false);
      await chartroom(project, args, join(project, `.cache-${args[0]}-warm`), helm.path);
      return { cold, warm: await timed(project, args, true) };
    };

    // One chart's render, as a process, cold and warm.
    const render = await coldAndWarm(dir, ["render", "svc-000", "--stack", "dev"]);
    // The pull request: one values file of one chart.
    await writeFile(join(dir, "values", "svc-007", "dev.yaml"), "logLevel: debug\n");
    const base = await coldAndWarm(dir, ["diff", "--base", "HEAD"]);
    const to = await coldAndWarm(dir, ["diff", "svc-000", "--to", "latest"]);
    // The same move on a chart with real-shaped CRDs (≈5 MB rendered): the warm run's saving is visible past process start.
    const big = await bigProject(dir, helm.path);
    const bigTo = await coldAndWarm(big, ["diff", "big", "--to", "latest"]);
    return {
      machine: `${cpus().length} cores`,
      platform: `${CHARTS} charts × ${STACKS.length} stacks (${CHARTS * STACKS.length} chart/stack pairs), one small chart each`,
      "chartroom render of one chart, as a process: cold / warm": `${ms(render.cold)} / ${ms(render.warm)}`,
      "diff --base HEAD, one values file changed: cold / warm": `${ms(base.cold)} / ${ms(base.warm)}`,
      "diff --base / one chart's render, cold (target ≤ 2)": Number((base.cold / render.cold).toFixed(2)),
      "diff --base / one chart's render, warm (target ≤ 2)": Number((base.warm / render.warm).toFixed(2)),
      "diff svc-000 --to latest (small chart), as a process: cold / warm": `${ms(to.cold)} / ${ms(to.warm)}`,
      "small chart warm / cold": Number((to.warm / to.cold).toFixed(3)),
      "diff big --to latest (550 objects, 6 CRDs, ≈5 MB), as a process: cold / warm": `${ms(bigTo.cold)} / ${ms(bigTo.warm)}`,
      "big chart warm / cold (target ≤ 0.25)": Number((bigTo.warm / bigTo.cold).toFixed(3)),
      "the renders a lock needs, one after the other (helm template × 600, from 90 timed)": ms(sequential),
      "lock of the platform, cold": ms(lock.ms),
      "lock / sequential renders (target ≤ 0.6)": Number((lock.ms / sequential).toFixed(3)),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
