// The published package as a new team gets it: `npm pack`, installed into a
// fresh project next to the Pulumi packages, with no helm on PATH and no
// HELM_BIN. The CLI runs from node_modules/.bin and the library type-checks.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/platform.js";

const run = promisify(execFile);

const CONFIG = `import { defineConfig } from "chartroom";

export default defineConfig({
  repositories: { local: "file://./charts" },
  charts: {
    webapp: { repository: "local", version: "~1.0.0", namespace: "web" },
  },
  stacks: { dev: { kubeVersion: "1.31.0" } },
});
`;

const PROGRAM = `import * as k8s from "@pulumi/kubernetes";
import { openProject, type Project } from "chartroom";
import { deployCharts } from "chartroom/pulumi";
import config from "./chartroom.config.js";

const provider = new k8s.Provider("cluster", { renderYamlToDirectory: "rendered" });
export const charts = deployCharts(config, { stack: "dev", provider, values: { webapp: { replicaCount: 2 } } });
export const project: Promise<Project> = openProject({ dir: "." });
`;

const TSCONFIG = { compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, types: ["node"] }, include: ["*.ts"] };

async function installedVersion(name: string): Promise<string> {
  return (JSON.parse(await readFile(join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

describe("the packed package, installed into a fresh project", () => {
  let dir: string;
  let packed: string;
  // No helm on PATH, no HELM_BIN: the optional dependency's helm is what runs.
  const env = (): NodeJS.ProcessEnv => {
    const { HELM_BIN: _, CHARTROOM_CHART_HELM: __, ...rest } = process.env;
    return { ...rest, PATH: "/usr/bin:/bin", CHARTROOM_CACHE: join(dir, ".cache"), NO_COLOR: "1" };
  };
  const chartroom = async (args: string[]) => {
    try {
      const { stdout, stderr } = await run(join(dir, "node_modules", ".bin", "chartroom"), args, { cwd: dir, env: env() });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "chartroom-consumer-"));
    // dist/ was built by the test set-up (npm's pretest); packing does not build it again under the other tests' feet.
    const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], { cwd: ROOT, maxBuffer: 16 << 20 });
    packed = join(dir, (JSON.parse(stdout) as { filename: string }[])[0]?.filename ?? "");
    await cp(join(ROOT, "charts"), join(dir, "charts"), { recursive: true });
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "my-platform", private: true, type: "module" }));
    await writeFile(join(dir, "chartroom.config.ts"), CONFIG);
    await writeFile(join(dir, "program.ts"), PROGRAM);
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
    const peers = await Promise.all(["@pulumi/pulumi", "@pulumi/kubernetes", "typescript", "@types/node"].map(async (name) => `${name}@${await installedVersion(name)}`));
    // Scripts off: @pulumi/kubernetes's install script fetches a provider plugin from a site this machine cannot reach.
    await run("npm", ["install", packed, ...peers, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: dir, env: { ...process.env, npm_config_loglevel: "error" }, maxBuffer: 16 << 20 });
  }, 300_000);

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("ships what the exports and the bin need, a licence, and no source maps pointing at sources it does not ship", async () => {
    const { stdout } = await run("tar", ["tzf", packed]);
    const files = stdout.split("\n");
    expect(files).toContain("package/LICENSE");
    expect(files).toContain("package/bin/chartroom.js");
    expect(files).toContain("package/dist/policy/data/kubernetes-fields.json");
    const manifest = JSON.parse(await readFile(join(dir, "node_modules", "chartroom", "package.json"), "utf8")) as { exports: Record<string, { default: string; types: string }>; private?: boolean };
    expect(manifest.private).toBeUndefined();
    for (const entry of Object.values(manifest.exports)) {
      expect(files).toContain(`package/${entry.default.replace("./", "")}`);
      expect(files).toContain(`package/${entry.types.replace("./", "")}`);
    }
    expect(files.filter((file) => file.endsWith(".map") || file.startsWith("package/src/"))).toStrictEqual([]);
    const main = await readFile(join(dir, "node_modules", "chartroom", "dist", "cli", "main.js"), "utf8");
    expect(main).not.toContain("sourceMappingURL");
  });

  it("locks, plans and diffs with the pinned helm it brings as an optional dependency", async () => {
    const locked = await chartroom(["lock"]);
    expect([locked.code, locked.stderr]).toStrictEqual([0, ""]);
    expect(locked.stdout).toContain("wrote charts.lock.json");
    const plan = await chartroom(["plan"]);
    expect(plan.stdout).toMatch(/webapp +web +~1\.0\.0 +1\.0\.1 +\w{12} +yes +chart/);
    const diff = await chartroom(["diff", "--to", "latest"]);
    expect(diff.code).toBe(2);
    expect(diff.stdout).toContain("webapp · stack dev · helm.v4.Chart · 1.0.1 → 2.0.0");
    expect(diff.stdout).toContain("helm 4.1.4");
  });

  it("type-checks a program that imports chartroom and chartroom/pulumi, and fails on a wrong argument", async () => {
    const tsc = join(dir, "node_modules", ".bin", "tsc");
    await expect(run(tsc, ["-p", "."], { cwd: dir })).resolves.toBeDefined();
    await writeFile(join(dir, "wrong.ts"), `import { deployCharts } from "chartroom/pulumi";\nimport config from "./chartroom.config.js";\nexport const charts = deployCharts(config, { stack: 1 });\n`);
    const failed = await run(tsc, ["-p", "."], { cwd: dir }).catch((error: { stdout: string }) => error.stdout);
    expect(failed).toContain("wrong.ts");
    await rm(join(dir, "wrong.ts"));
  });
});
