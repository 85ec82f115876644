// A Pulumi project as a team sets one up: the packed chartroom installed
// from its tarball next to the Pulumi packages, programs in the module
// systems TypeScript projects use, and a test of each under mocks.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import semver from "semver";
import { ROOT } from "./platform.js";

const run = promisify(execFile);

export const CONFIG = `import { defineConfig } from "chartroom";

export default defineConfig({
  repositories: { local: "file://./charts" },
  charts: {
    webapp: { repository: "local", version: "~1.0.0", namespace: "web" },
  },
  stacks: { dev: { kubeVersion: "1.31.0" } },
});
`;

/** One program importing every entry, as each module system spells the config's import. */
export function program(configImport: string): string {
  return `import * as k8s from "@pulumi/kubernetes";
import { openProject, type Project } from "chartroom";
import { generateTypes } from "chartroom/codegen";
import { chartroomPolicies } from "chartroom/policy";
import { deployCharts } from "chartroom/pulumi";
import config from "${configImport}";

const provider = new k8s.Provider("cluster", { renderYamlToDirectory: "rendered" });
export const charts = deployCharts(config, { stack: "dev", provider, values: { webapp: { replicaCount: 2 } } });
export const project: () => Promise<Project> = () => openProject({ dir: "." });
export const entries = [openProject, generateTypes, chartroomPolicies].map((entry) => typeof entry).join(",");
`;
}

/** A vitest unit test of the program with pulumi.runtime.setMocks, as Pulumi's docs write one. */
export function vitestTest(programImport: string): string {
  return `import * as assert from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll as before, describe, it } from "vitest";

const registered: string[] = [];

describe("the platform program", () => {
  before(async () => {
    await pulumi.runtime.setMocks({
      newResource: (args) => {
        registered.push(\`\${args.type}::\${args.name}\`);
        return { id: \`\${args.name}-id\`, state: args.inputs };
      },
      call: (args) => args.inputs,
    }, "platform", "dev", false);
  });

  it("deploys webapp as helm.v4.Chart with the values given in code", async () => {
    const program = await import("${programImport}");
    const charts = await program.charts;
    // The inner Chart's URN is known once it has registered.
    await new Promise((resolve) => charts.webapp.resource.urn.apply(resolve));
    const engine = await new Promise((resolve) => charts.webapp.engine.apply(resolve));
    const values = await new Promise<any>((resolve) => charts.webapp.values.apply(resolve));
    assert.strictEqual(engine, "chart");
    assert.strictEqual(values.replicaCount, 2);
    assert.ok(registered.includes("kubernetes:helm.sh/v4:Chart::webapp"), registered.join("\\n"));
  });
});
`;
}

/** The first TypeScript block of the README after `marker`: the README's examples are what the consumer runs. */
export async function readmeSnippet(marker: string): Promise<string> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const from = readme.indexOf(marker);
  if (from < 0) throw new Error(`README.md no longer has "${marker}"`);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(from));
  if (block === null) throw new Error(`no \`\`\`ts block after "${marker}" in README.md`);
  return block[1] ?? "";
}

/** Run a compiled program under setMocks and print what registered (plain CommonJS: any Node runs it). */
export const HARNESS = `const pulumi = require("@pulumi/pulumi");
const { pathToFileURL } = require("node:url");
const registered = [];
pulumi.runtime
  .setMocks({ newResource: (a) => (registered.push(a.type + "::" + a.name), { id: a.name + "-id", state: a.inputs }), call: (a) => a.inputs }, "platform", "dev", false)
  .then(async () => {
    const loaded = await import(pathToFileURL(process.argv[2]).href);
    const program = loaded.charts === undefined ? loaded.default : loaded;
    const charts = await program.charts;
    await new Promise((resolve) => charts.webapp.resource.urn.apply(resolve));
    const engine = await new Promise((resolve) => charts.webapp.engine.apply(resolve));
    console.log(JSON.stringify({ node: process.version, engine, entries: program.entries, registered: registered.sort() }));
  });
`;

export interface Variant {
  name: string;
  folder: string;
  tsconfig: Record<string, unknown>;
  /** The compiled program to run, or undefined for type-checking only (a bundler builds it). */
  output?: string;
}

const COMMON = { target: "ES2022", strict: true, skipLibCheck: false, types: ["node", "mocha"], rootDir: "." };

/** The tsconfigs the consumer test runs: the classic Pulumi template, node16, nodenext and bundler. */
export const VARIANTS: Variant[] = [
  {
    name: "commonjs + node (the classic Pulumi template)",
    folder: "classic",
    tsconfig: { compilerOptions: { ...COMMON, module: "commonjs", moduleResolution: "node", esModuleInterop: true, outDir: "out" }, include: ["*.ts"] },
    output: "out/program.js",
  },
  {
    name: "node16 (CommonJS package)",
    folder: "classic",
    tsconfig: {
      compilerOptions: { ...COMMON, types: ["node"], module: "node16", moduleResolution: "node16", outDir: "out16" },
      include: ["*.ts"],
      exclude: ["*.spec.ts"],
    },
    output: "out16/program.js",
  },
  {
    name: "nodenext (ES module package)",
    folder: "esm",
    tsconfig: {
      compilerOptions: { ...COMMON, types: ["node"], module: "nodenext", moduleResolution: "nodenext", outDir: "out" },
      include: ["*.ts"],
      exclude: ["*.test.ts"],
    },
    output: "out/program.js",
  },
  {
    name: "bundler",
    folder: "esm",
    tsconfig: {
      compilerOptions: { ...COMMON, types: ["node"], module: "esnext", moduleResolution: "bundler", noEmit: true },
      include: ["*.ts"],
      exclude: ["*.test.ts"],
    },
  },
];

export function tsconfigFile(variant: Variant): string {
  return variant.name === "node16 (CommonJS package)" ? "tsconfig.node16.json" : variant.name === "bundler" ? "tsconfig.bundler.json" : "tsconfig.json";
}

async function installedVersion(name: string): Promise<string> {
  return (JSON.parse(await readFile(join(ROOT, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

/** Pack chartroom once (dist/ was built by the test set-up; packing does not build it again under the other tests' feet). */
export async function pack(into: string): Promise<string> {
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", into], { cwd: ROOT, maxBuffer: 16 << 20 });
  return join(into, (JSON.parse(stdout) as { filename: string }[])[0]?.filename ?? "");
}

/** npm install, from the npm registry through its cache; install scripts off (the provider's fetches a plugin from a site this machine cannot reach). */
export async function npmInstall(dir: string, specs: string[]): Promise<string> {
  const { stdout, stderr } = await run("npm", ["install", ...specs, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], {
    cwd: dir,
    env: { ...process.env, npm_config_loglevel: "warn" },
    maxBuffer: 16 << 20,
  });
  return stdout + stderr;
}

/** A project with chartroom and these Pulumi versions, its programs and tests in each module system. */
export async function consumerProject(dir: string, packed: string, versions: { kubernetes: string; pulumi: string }): Promise<string> {
  await cp(join(ROOT, "charts"), join(dir, "charts"), { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "my-platform", private: true }));
  await writeFile(join(dir, "chartroom.config.ts"), CONFIG);
  const tools = await Promise.all(
    ["typescript", "@types/node", "vitest", "mocha", "@types/mocha", "ts-node", "@pulumi/policy"].map(
      async (name) => `${name}@${await installedVersion(name)}`,
    ),
  );
  const log = await npmInstall(dir, [packed, `@pulumi/kubernetes@${versions.kubernetes}`, `@pulumi/pulumi@${versions.pulumi}`, ...tools]);
  await mkdir(join(dir, "classic"));
  await mkdir(join(dir, "esm"));
  await writeFile(join(dir, "esm", "package.json"), JSON.stringify({ type: "module" }));
  for (const folder of ["classic", "esm"]) await writeFile(join(dir, folder, "chartroom.config.ts"), CONFIG);
  await writeFile(join(dir, "classic", "program.ts"), program("./chartroom.config"));
  // The README's own examples: its program (type-checked) and its mocha test (run).
  await writeFile(join(dir, "classic", "readme-program.ts"), await readmeSnippet("and deploy it from the Pulumi program:"));
  await writeFile(join(dir, "classic", "program.spec.ts"), await readmeSnippet("**Unit tests with mocks**"));
  await writeFile(join(dir, "esm", "program.ts"), program("./chartroom.config.js"));
  await writeFile(join(dir, "esm", "program.test.ts"), vitestTest("./program.js"));
  await writeFile(join(dir, "harness.cjs"), HARNESS);
  for (const variant of VARIANTS) await writeFile(join(dir, variant.folder, tsconfigFile(variant)), JSON.stringify(variant.tsconfig, null, 2));
  return log;
}

/** Give each program folder the platform's lock and archives (written by `chartroom lock` at the root). */
export async function shareLock(dir: string): Promise<void> {
  for (const folder of ["classic", "esm"]) {
    await cp(join(dir, "charts.lock.json"), join(dir, folder, "charts.lock.json"));
    await cp(join(dir, ".chartroom"), join(dir, folder, ".chartroom"), { recursive: true });
  }
}

/** The oldest Node the package's engines allow, as the test set-up fetched it. */
export async function floorNode(): Promise<{ version: string; bin: string }> {
  const engines = (JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
  const version = semver.minVersion(engines)?.version ?? "";
  const bin = join(ROOT, ".cache", "test", `node-${version}`, "bin", "node");
  if (!existsSync(bin)) throw new Error(`no Node ${version} at ${bin}: run \`npx tsx scripts/ensure-test-tools.ts\` (npm test does it first)`);
  return { version, bin };
}
