// The published package as a new team gets it: `npm pack`, installed into a
// fresh project next to the Pulumi packages (the lowest and the newest the
// registry serves in the peer ranges), helm from HELM_BIN as its users have
// one. Programs in each module system TypeScript projects use type-check,
// run under the oldest Node `engines` allows, and pass their unit tests with
// mocks under mocha and vitest.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helm } from "../helpers/helm.js";
import { consumerProject, floorNode, npmInstall, pack, shareLock, tsconfigFile, VARIANTS } from "../helpers/consumer.js";

const run = promisify(execFile);

// The ends of the peer ranges as npm served them on 2026-12-01: @pulumi/kubernetes
// 4.15.0 is the oldest release at or above 4.13 (npm has no 4.13.x or 4.14.x).
const PROVIDERS = [
  { name: "lowest", kubernetes: "4.15.0", pulumi: "3.117.0", engineHelm: "engine: Helm 3.14.3 (@pulumi/kubernetes 4.15.0)" },
  {
    name: "newest",
    kubernetes: "4.34.2",
    pulumi: "3.276.0",
    engineHelm: "engine: an unknown Helm: @pulumi/kubernetes 4.34.2 is newer than chartroom's table of provider releases (it ends at 4.32.0)",
  },
];
/** What installing chartroom alone adds to node_modules: measured 97 MB (2026-12-01); the AWS CDK helm it used to bring was 222 MB more. */
const MAX_INSTALLED_MB = 120;
/** A hang detector, not a budget: an npm install and a type-check of every tsconfig take 2–3 minutes idle, several times that loaded. */
const SLOW = 1_200_000;
// @pulumi/policy 1.21.0's index.d.ts line 2: `export { unknownCheckingProxy, UnknownValueError } from "./proxy"`, which proxy.d.ts does not declare.
const UPSTREAM_POLICY_TYPING =
  /^\.\.\/node_modules\/@pulumi\/policy\/index\.d\.ts\(2,\d+\): error TS2305: Module '"\.\/proxy"' has no exported member '(unknownCheckingProxy|UnknownValueError)'\.$/;

let packed: string;
let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "chartroom-consumer-"));
  packed = await pack(home);
}, SLOW);

afterAll(() => rm(home, { recursive: true, force: true }));

async function outcome(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  try {
    const { stdout, stderr } = await run(file, args, { ...options, maxBuffer: 16 << 20 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("the packed package", () => {
  it("ships what the exports and the bin need for import and require, a licence, no source maps and no install-time scripts", async () => {
    const { stdout } = await run("tar", ["tzf", packed]);
    const files = stdout.split("\n");
    expect(files).toContain("package/LICENSE");
    expect(files).toContain("package/bin/chartroom.cjs");
    expect(files).toContain("package/dist/cli/main.cjs");
    expect(files).toContain("package/dist/policy/data/kubernetes-fields.json");
    // The draft-07 meta-schema's validator, for the ES module and CommonJS builds alike (the bundle reads the first).
    expect(files).toContain("package/dist/values/meta-schema-draft-07.cjs");
    expect(files).toContain("package/dist/cjs/values/meta-schema-draft-07.cjs");
    // The Renovate preset the README tells users to copy.
    expect(files).toContain("package/renovate/chartroom.json");
    const manifest = JSON.parse((await run("tar", ["xzfO", packed, "package/package.json"])).stdout) as {
      exports: Record<string, { import: { types: string; default: string }; require: { types: string; default: string } } | string>;
      scripts: Record<string, string>;
      main: string;
      types: string;
      private?: boolean;
      optionalDependencies?: unknown;
    };
    expect(manifest.private).toBeUndefined();
    expect(manifest.optionalDependencies).toBeUndefined();
    expect(Object.keys(manifest.scripts).filter((name) => ["preinstall", "install", "postinstall", "prepare"].includes(name))).toStrictEqual([]);
    const shipped = (path: string) => files.includes(`package/${path.replace("./", "")}`);
    expect([manifest.main, manifest.types].filter((path) => !shipped(path))).toStrictEqual([]);
    for (const entry of Object.values(manifest.exports)) {
      if (typeof entry === "string") continue;
      const paths = [entry.import.types, entry.import.default, entry.require.types, entry.require.default];
      expect(paths.filter((path) => !shipped(path))).toStrictEqual([]);
    }
    expect(files.filter((file) => file.endsWith(".map") || file.startsWith("package/src/"))).toStrictEqual([]);
    // V8's code cache of both bundles, and the CLI bundle's for warm runs, made under the Node that packed it (scripts/seed-code-cache.ts).
    const seeds = files.filter((file) => file.startsWith("package/dist/bundle/v8/"));
    const suffix = `-${process.versions.v8}-${process.arch}`;
    expect(seeds.map((file) => file.slice(file.indexOf(suffix) + suffix.length)).sort()).toStrictEqual(["-warm.bin", ".bin", ".bin"]);
  });

  it(
    `adds at most ${MAX_INSTALLED_MB} MB to node_modules, and no AWS CDK`,
    async () => {
      const dir = join(home, "alone");
      await run("mkdir", ["-p", dir]);
      await writeFile(join(dir, "package.json"), JSON.stringify({ name: "alone", private: true }));
      await npmInstall(dir, [packed]);
      const { stdout } = await run("du", ["-sm", join(dir, "node_modules")]);
      const megabytes = Number(stdout.split("\t")[0]);
      expect(megabytes).toBeLessThanOrEqual(MAX_INSTALLED_MB);
      const { stdout: listed } = await run("ls", [join(dir, "node_modules")]);
      expect(listed).not.toMatch(/aws-cdk/);
    },
    SLOW,
  );
});

describe.each(PROVIDERS)("a Pulumi project with the $name provider (@pulumi/kubernetes $kubernetes, @pulumi/pulumi $pulumi)", (versions) => {
  let dir: string;
  let installLog: string;
  let locked: Awaited<ReturnType<typeof outcome>>;
  let cli: string;
  let helmEnv: () => NodeJS.ProcessEnv;
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
    const { HELM_BIN: _, CHARTROOM_CHART_HELM: __, ...rest } = process.env;
    return { ...rest, PATH: "/usr/bin:/bin", CHARTROOM_CACHE: join(dir, ".cache"), NO_COLOR: "1", ...extra };
  };

  beforeAll(async () => {
    dir = join(home, versions.name);
    await run("mkdir", ["-p", dir]);
    installLog = await consumerProject(dir, packed, versions);
    cli = join(dir, "node_modules", "chartroom", "bin", "chartroom.cjs");
    const helmBin = await helm(4);
    helmEnv = () => env({ HELM_BIN: helmBin });
    // Locked once, under the oldest Node; every program folder gets the lock and archives.
    locked = await outcome((await floorNode()).bin, [cli, "lock"], { cwd: dir, env: helmEnv() });
    if (locked.code === 0) await shareLock(dir);
  }, SLOW);

  it("installs with no warning about chartroom's scripts", () => {
    expect(installLog).not.toMatch(/chartroom.*(prepare|install)/i);
  });

  it("locks, plans and diffs under the oldest Node engines allows, with the helm on HELM_BIN; names the provider's Helm", async () => {
    const node = await floorNode();
    expect([locked.code, locked.stderr]).toStrictEqual([0, ""]);
    expect(locked.stdout).toContain("wrote charts.lock.json");
    const plan = await outcome(node.bin, [cli, "plan"], { cwd: dir, env: helmEnv() });
    expect(plan.stdout).toMatch(/webapp +web +~1\.0\.0 +1\.0\.1 +\w{12} +yes +chart/);
    const diff = await outcome(node.bin, [cli, "diff", "--to", "latest", "--detailed-exitcode"], { cwd: dir, env: helmEnv() });
    expect(diff.code).toBe(2);
    expect(diff.stdout).toContain("webapp · stack dev · helm.v4.Chart · 1.0.1 → 2.0.0");
    expect(diff.stdout).toContain(versions.engineHelm);
  });

  it("compiles through the code cache it ships under the Node that packed it; another Node writes its own", async () => {
    // The oldest Node's `lock` (beforeAll) found no cache for its V8 in the package.
    expect((await readdir(join(dir, ".cache", "v8"))).length).toBeGreaterThan(0);
    const cache = join(dir, ".cache-packing-node");
    const plan = await outcome(process.execPath, [cli, "plan"], { cwd: dir, env: env({ HELM_BIN: await helm(4), CHARTROOM_CACHE: cache }) });
    expect([plan.code, plan.stderr]).toStrictEqual([0, ""]);
    await expect(readdir(join(cache, "v8"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("says how to install helm when there is none", async () => {
    const missing = await outcome(process.execPath, [cli, "diff", "--to", "latest"], { cwd: dir, env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("HELM_NOT_FOUND");
    expect(missing.stderr).toMatch(/hint: .*(apt|snap|helm\.sh|get-helm)/);
  });

  describe.each(VARIANTS)("tsconfig $name", (variant) => {
    it("type-checks a program importing chartroom, chartroom/pulumi, chartroom/policy and chartroom/codegen, and fails on a wrong argument", async () => {
      const folder = join(dir, variant.folder);
      const tsc = join(dir, "node_modules", ".bin", "tsc");
      const checked = await outcome(tsc, ["-p", tsconfigFile(variant)], { cwd: folder });
      // With skipLibCheck off (as in Pulumi's template), @pulumi/policy 1.21.0's own index.d.ts fails
      // whatever imports it: it re-exports names its proxy.d.ts lacks. Every other line is an error.
      const errors = checked.stdout.split("\n").filter((line) => line !== "" && !UPSTREAM_POLICY_TYPING.test(line));
      expect(errors).toStrictEqual([]);
      const wrong = join(folder, "wrong.ts");
      await writeFile(
        wrong,
        `import { deployCharts } from "chartroom/pulumi";\nimport config from "./chartroom.config${variant.folder === "esm" ? ".js" : ""}";\nexport const charts = deployCharts(config, { stack: 1 });\n`,
      );
      const failed = await outcome(tsc, ["-p", tsconfigFile(variant), "--noEmit"], { cwd: folder });
      await rm(wrong);
      expect(failed.stdout).toContain("wrong.ts");
      expect(failed.stdout).toContain("TS2322");
    });

    it.runIf(variant.output !== undefined)("runs under mocks with the oldest Node engines allows", async () => {
      const node = await floorNode();
      const folder = join(dir, variant.folder);
      const ran = await outcome(node.bin, [join(dir, "harness.cjs"), join(folder, variant.output ?? "")], { cwd: folder, env: env() });
      expect(ran.stderr).toBe("");
      const result = JSON.parse(ran.stdout) as { node: string; engine: string; entries: string; registered: string[] };
      expect(result.node).toBe(`v${node.version}`);
      expect(result.engine).toBe("chart");
      expect(result.entries).toBe("function,function,function");
      expect(result.registered).toContain("kubernetes:helm.sh/v4:Chart::webapp");
      expect(result.registered).toContain("chartroom:index:ChartDeployment::webapp");
    });
  });

  it("passes the README's setMocks unit test of the program under mocha (ts-node, CommonJS)", async () => {
    const mocha = await outcome(join(dir, "node_modules", ".bin", "mocha"), ["--require", "ts-node/register", "--timeout", "120000", "program.spec.ts"], {
      cwd: join(dir, "classic"),
      env: env(),
    });
    expect(mocha.stdout).toContain("1 passing");
    expect(mocha.code).toBe(0);
  });

  it("passes a setMocks unit test of the program under vitest (ES modules)", async () => {
    const vitest = await outcome(join(dir, "node_modules", ".bin", "vitest"), ["run", "--testTimeout", "120000"], { cwd: join(dir, "esm"), env: env() });
    expect(vitest.stdout).toContain("1 passed");
    expect(vitest.code).toBe(0);
  });
});
