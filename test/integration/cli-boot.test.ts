// The compiled CLI loads its bundle through V8's code cache (cli/boot.ts):
// the first run writes the cache, the next ones use it, and a cache that does
// not fit (damaged, another build) is refused by V8 and made again. None of
// it can fail a run.
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { codeCacheName } from "../../src/cli/boot.js";
import { RENDER_RECORDS } from "../../src/util/cache-root.js";
import { packChart } from "../helpers/pack.js";
import { helm, runHelm } from "../helpers/helm.js";
import { ROOT } from "../helpers/platform.js";
import { modulesLoaded } from "../helpers/modules.js";
import { compiledCli, runGroup } from "../helpers/process.js";
import { tempDir } from "../helpers/tmp.js";

async function outdated(cache: string, env: NodeJS.ProcessEnv = {}) {
  return runGroup(process.execPath, [compiledCli(), "outdated", "--format", "json"], {
    cwd: ROOT,
    env: { CHARTROOM_CACHE: cache, HELM_BIN: await helm(4), NO_COLOR: "1", ...env },
    timeoutMs: 120_000,
  });
}

// A flag V8 counts in a code cache's check, as CI runners often set: V8 refuses the cache the package ships.
const REFUSING_SHIPPED = { NODE_OPTIONS: "--max-old-space-size=4096" };

describe("the CLI's code cache", () => {
  it("ships with the package for the Node that built it: a cold run compiles through it and writes none of its own", async () => {
    const shipped = await readdir(join(ROOT, "dist", "bundle", "v8"));
    // One for each bundle and a second of the CLI bundle's for warm runs, named for this V8: the build ran
    // its training under this Node (scripts/seed-code-cache.ts).
    const manifest = JSON.parse(await readFile(join(ROOT, "dist", "bundle", "manifest.json"), "utf8")) as Record<string, string>;
    expect(shipped.sort()).toStrictEqual(
      [
        codeCacheName(manifest["chartroom.cjs"] ?? ""),
        codeCacheName(manifest["chartroom.cjs"] ?? "", "warm"),
        codeCacheName(manifest["kinds.cjs"] ?? ""),
      ].sort(),
    );
    for (const name of shipped) expect(name).toContain(`-${process.versions.v8}-${process.arch}`);
    // Compiled code only: nothing the training read (the example's CRD group, its images' registry, the
    // training chart's group and registry, scripts/seed-charts/) is in it.
    for (const name of shipped) {
      const bytes = await readFile(join(ROOT, "dist", "bundle", "v8", name));
      expect(["widgets.example.com", "registry.example.test", "seed.invalid"].filter((read) => bytes.includes(read))).toStrictEqual([]);
    }
    // The kinds bundle's part was trained on a chart shaped like public ones: its validators of kinds the example
    // never renders are compiled code there (a field each checks: HorizontalPodAutoscaler, StatefulSet, CronJob, NetworkPolicy).
    const kinds = await readFile(join(ROOT, "dist", "bundle", "v8", codeCacheName(manifest["kinds.cjs"] ?? "")));
    expect(["scaleTargetRef", "volumeClaimTemplates", "jobTemplate", "podSelector"].filter((field) => !kinds.includes(field))).toStrictEqual([]);
    const cache = await tempDir();
    const cold = await outdated(cache);
    expect([cold.code, cold.stderr]).toStrictEqual([0, ""]);
    expect(JSON.parse(cold.stdout)).toMatchObject({ report: "outdated" });
    await expect(readdir(join(cache, "v8"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("is read from the warm one where the cache folder holds renderings, and from the cold one where it holds none", async () => {
    // A copy of the package whose warm cache V8 refuses: a run that reads it writes its own cache at exit.
    const pkg = await tempDir();
    await cp(join(ROOT, "dist"), join(pkg, "dist"), { recursive: true });
    await cp(join(ROOT, "package.json"), join(pkg, "package.json"));
    await symlink(join(ROOT, "node_modules"), join(pkg, "node_modules"));
    const manifest = JSON.parse(await readFile(join(pkg, "dist", "bundle", "manifest.json"), "utf8")) as Record<string, string>;
    await writeFile(join(pkg, "dist", "bundle", "v8", codeCacheName(manifest["chartroom.cjs"] ?? "", "warm")), Buffer.alloc(4096, 7));
    const run = async (cache: string) => {
      const result = await runGroup(process.execPath, [join(pkg, "dist", "cli", "main.cjs"), "outdated", "--format", "json"], {
        cwd: ROOT,
        env: { CHARTROOM_CACHE: cache, HELM_BIN: await helm(4), NO_COLOR: "1" },
        timeoutMs: 120_000,
      });
      expect([result.code, result.stderr]).toStrictEqual([0, ""]);
      return readdir(join(cache, "v8")).catch(() => []);
    };
    const cold = await tempDir();
    expect(await run(cold)).toStrictEqual([]);
    const warm = await tempDir();
    await mkdir(join(warm, RENDER_RECORDS));
    expect(await run(warm)).toStrictEqual([codeCacheName(manifest["chartroom.cjs"] ?? "")]);
  });

  it("where V8 refuses the shipped one, is written by the first run, owner-only, used by the next, and made again when damaged", async () => {
    const cache = await tempDir();
    const first = await outdated(cache, REFUSING_SHIPPED);
    expect(first.stderr).toBe("");
    const [name, ...more] = await readdir(join(cache, "v8"));
    expect(more).toStrictEqual([]);
    expect(name).toMatch(/^[0-9a-f]{32}-[\d.]+(-node\.\d+)?-[a-z0-9]+\.bin$/);
    const file = join(cache, "v8", name as string);
    expect((await stat(join(cache, "v8"))).mode & 0o777).toBe(0o700);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const written = await stat(file);
    const second = await outdated(cache, REFUSING_SHIPPED);
    expect(second.stdout).toBe(first.stdout);
    expect((await stat(file)).mtimeMs).toBe(written.mtimeMs);
    // Damaged: V8 refuses it, the run is the same, and the cache is written anew.
    await writeFile(file, Buffer.alloc(4096, 7));
    const third = await outdated(cache, REFUSING_SHIPPED);
    expect([third.code, third.stdout, third.stderr]).toStrictEqual([first.code, first.stdout, ""]);
    expect((await readFile(file)).equals(Buffer.alloc(4096, 7))).toBe(false);
  });

  /** The largest size of V8's young generation (both semi-spaces, MB) during `render webapp` in `project`, sampled while the run waits. */
  async function youngSpaceOfRender(project: string): Promise<number> {
    const dir = await tempDir();
    const preload = join(dir, "young-space.cjs");
    await writeFile(
      preload,
      `const v8 = require("node:v8");
      const size = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size;
      let largest = 0;
      setInterval(() => { largest = Math.max(largest, size()); }, 1).unref();
      process.on("exit", () => process.stderr.write("young space " + Math.max(largest, size()) / 1048576));`,
    );
    const render = await runGroup(process.execPath, ["-r", preload, compiledCli(), "render", "webapp", "--stack", "dev"], {
      cwd: project,
      env: { CHARTROOM_CACHE: join(dir, "cache"), HELM_BIN: await helm(4), NO_COLOR: "1" },
      timeoutMs: 120_000,
    });
    expect(render.code).toBe(0);
    return Number(/^young space (\d+)$/.exec(render.stderr)?.[1]);
  }

  it("keeps V8's young generation small through a render, where left alone V8 grows it to 8 MB or more", async () => {
    // Two halves of 1 MB each when the run starts, and so it stays: tuned before the bundles load (cli/boot.ts).
    expect(await youngSpaceOfRender(ROOT)).toBe(2);
  });

  it("lets V8 grow the young generation for a values file of 5 MB", async () => {
    const project = await tempDir();
    for (const name of ["chartroom.config.ts", "charts.lock.json", "charts", "values"]) await cp(join(ROOT, name), join(project, name), { recursive: true });
    const notes = Array.from({ length: 50_000 }, (_, i) => `  note${i}: "${"x".repeat(90)}"`).join("\n");
    await appendFile(join(project, "values", "webapp", "values.yaml"), `\nnotes:\n${notes}\n`);
    expect(await youngSpaceOfRender(project)).toBeGreaterThanOrEqual(16);
  });

  it("collects garbage once at the start of a run whose cache holds no renderings, and not in one that reads them back", async () => {
    const dir = await tempDir();
    const preload = join(dir, "full-collections.cjs");
    // Node's gc entries, observed from before the CLI's code runs: the full collections of the whole run.
    await writeFile(
      preload,
      `const { PerformanceObserver, constants } = require("node:perf_hooks");
      let full = 0;
      new PerformanceObserver((list) => { for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++; }).observe({ entryTypes: ["gc"] });
      process.on("exit", () => process.stderr.write("full collections " + full));`,
    );
    const render = async () => {
      const run = await runGroup(process.execPath, ["-r", preload, compiledCli(), "render", "webapp", "--stack", "dev"], {
        cwd: ROOT,
        env: { CHARTROOM_CACHE: join(dir, "cache"), HELM_BIN: await helm(4), NO_COLOR: "1" },
        timeoutMs: 120_000,
      });
      expect(run.code).toBe(0);
      return Number(/full collections (\d+)$/.exec(run.stderr)?.[1]);
    };
    // The first run renders (util/v8-tuning.ts: V8's first limit of the old generation, set at start); the second reads the rendering.
    expect([await render(), await render()]).toStrictEqual([1, 0]);
  });

  it("costs a run nothing when its folder cannot be made (a file stands there)", async () => {
    const cache = await tempDir();
    await mkdir(cache, { recursive: true });
    await writeFile(join(cache, "v8"), "not a folder");
    const result = await outdated(cache, REFUSING_SHIPPED);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({ report: "outdated" });
    expect(await readFile(join(cache, "v8"), "utf8")).toBe("not a folder");
  });

  it("loads a config that awaits at its top level, as jiti does from its own files", async () => {
    const dir = await tempDir();
    await writeFile(
      join(dir, "chartroom.config.ts"),
      'import { defineConfig } from "chartroom";\nconst stacks: Record<string, object> = await Promise.resolve({});\nexport default defineConfig({ repositories: {}, charts: {}, stacks });\n',
    );
    const result = await runGroup(process.execPath, [compiledCli(), "outdated"], {
      cwd: dir,
      env: { CHARTROOM_CACHE: join(dir, ".cache") },
      timeoutMs: 120_000,
    });
    expect([result.code, result.stderr]).toStrictEqual([0, ""]);
  });

  it("answers the schema rule's kinds from the kinds bundle, and any other kind from node_modules, alike", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "charts"));
    const templates = {
      // Bundled kinds (dist/bundle/kinds.cjs): a count written as text, a CronJob without its job.
      "deployment.yaml":
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: "three"\n  selector: { matchLabels: { app: web } }\n  template:\n    metadata: { labels: { app: web } }\n    spec: { containers: [{ name: web, image: "registry.example.test/web@sha256:' +
        "a".repeat(64) +
        '" }] }\n',
      "cronjob.yaml": 'apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: nightly\nspec:\n  schedule: "0 3 * * *"\n',
      // Not bundled: loaded from node_modules as before.
      "runtimeclass.yaml": "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: sandboxed\nhandler: 5\n",
    };
    const files = new Map([["Chart.yaml", Buffer.from("apiVersion: v2\nname: kinds\nversion: 1.0.0\n")]]);
    for (const [name, text] of Object.entries(templates)) files.set(`templates/${name}`, Buffer.from(text));
    await writeFile(join(dir, "charts", "kinds-1.0.0.tgz"), await packChart("kinds", files, new Date(0)));
    await runHelm(4, ["repo", "index", join(dir, "charts")], dir);
    await writeFile(
      join(dir, "chartroom.config.ts"),
      'import { defineConfig } from "chartroom";\nexport default defineConfig({ repositories: { local: "file://./charts" }, charts: { kinds: { repository: "local", version: "1.0.0", namespace: "kinds" } }, stacks: { dev: { kubeVersion: "1.31.0" } } });\n',
    );
    const env = { CHARTROOM_CACHE: join(dir, ".cache"), HELM_BIN: await helm(4), NO_COLOR: "1", ...REFUSING_SHIPPED };
    expect((await runGroup(process.execPath, [compiledCli(), "lock"], { cwd: dir, env, timeoutMs: 120_000 })).code).toBe(0);
    const result = await runGroup(process.execPath, [compiledCli(), "check", "-o", "json"], { cwd: dir, env, timeoutMs: 120_000 });
    const report = JSON.parse(result.stdout) as { findings: { rule: string; object?: string; path?: string }[] };
    const schema = report.findings.filter((found) => found.rule === "object-schema").map((found) => `${found.object} ${found.path}`);
    expect(schema.sort()).toStrictEqual([
      "CronJob.batch kinds/nightly spec",
      "Deployment.apps kinds/web spec.replicas",
      "RuntimeClass.node.k8s.io sandboxed handler",
    ]);
    // Two bundles compiled through the user's code cache (the shipped one refused): the CLI's and the kinds', and the next run takes both
    // (the kinds' is compiled mid-run, after the CLI has changed a V8 flag that enters V8's check).
    const caches = (await readdir(join(dir, ".cache", "v8"))).map((name) => join(dir, ".cache", "v8", name));
    expect(caches.length).toBe(2);
    const written = await Promise.all(caches.map(async (file) => (await stat(file)).mtimeMs));
    // Without the findings the first run kept, the next runs the schema rule again.
    await rm(join(dir, ".cache", "findings"), { recursive: true });
    const again = await runGroup(process.execPath, [compiledCli(), "check", "-o", "json"], { cwd: dir, env, timeoutMs: 120_000 });
    expect(again.stdout).toBe(result.stdout);
    expect(await Promise.all(caches.map(async (file) => (await stat(file)).mtimeMs))).toStrictEqual(written);
  });

  it("keys cached findings by the bundle it runs and the rules' data: a rebuilt bundle or new data misses, the modules' rule files do not count", async () => {
    // A copy of the package's dist/ inside the checkout, so that the bundle's own requires still find node_modules.
    const scratch = join(ROOT, ".cache", "test");
    await mkdir(scratch, { recursive: true });
    const copy = await mkdtemp(join(scratch, "dist-"));
    onTestFinished(() => rm(copy, { recursive: true, force: true }));
    await cp(join(ROOT, "dist"), join(copy, "dist"), { recursive: true });
    const project = await tempDir();
    for (const name of ["chartroom.config.ts", "charts.lock.json", "charts", "values", "policies"])
      await cp(join(ROOT, name), join(project, name), { recursive: true });
    const cache = join(project, ".cache");
    const records = async () => {
      const result = await runGroup(process.execPath, [join(copy, "dist", "cli", "main.cjs"), "check", "webapp", "--stack", "dev", "-o", "json"], {
        cwd: project,
        env: { CHARTROOM_CACHE: cache, CHARTROOM_TODAY: "2026-11-30", HELM_BIN: await helm(4), NO_COLOR: "1" },
        timeoutMs: 120_000,
      });
      expect(JSON.parse(result.stdout)).toMatchObject({ report: "check" });
      return (await readdir(join(cache, "findings"))).length;
    };
    expect(await records()).toBe(1);
    expect(await records()).toBe(1);
    // tsc's rule modules: the bundle does not run them.
    await appendFile(join(copy, "dist", "policy", "rules", "security.js"), "\n// changed\n");
    expect(await records()).toBe(1);
    // Another bundle (its manifest names other digests).
    await appendFile(join(copy, "dist", "bundle", "manifest.json"), "\n");
    expect(await records()).toBe(2);
    // Other data for the rules.
    await appendFile(join(copy, "dist", "policy", "data", "kubernetes-fields.json"), "\n");
    expect(await records()).toBe(3);
  });

  it("loads no HTTP or TLS module in a run that asks no server (a folder repository), nor punycode for formats no shipped kind checks; warm, no node:zlib or node:child_process; no ES module loaded", async () => {
    const dir = await tempDir();
    // What Node's own modules the process loaded.
    const loaded = async (args: string[]) => {
      const result = await modulesLoaded(dir, args);
      expect(result.stderr).toBe("");
      return result.builtins;
    };
    // punycode comes with the draft-2019 formats' parsers (idn-hostname), loaded when a schema checks one (scripts/build-cli.ts).
    const network = (modules: string[]) => modules.filter((name) => /^(_?https?|_http_\w+|tls|punycode)$/.test(name));
    // The detector sees them where they are loaded.
    expect(network(await loaded(["-e", 'require("node:https")']))).toContain("https");
    // The bin's entry is one CommonJS file, and so is the bundle: no ES module is linked or run (Node's module jobs never load).
    const esModules = (modules: string[]) => modules.filter((name) => /^internal\/modules\/esm\/(module_job|translators)$/.test(name));
    expect(esModules(await loaded(["--input-type=module", "-e", "await 0"]))).toContain("internal/modules/esm/module_job");
    // Cold (archives fetched from the folder, rendered) and warm.
    for (let run = 0; run < 2; run++) {
      const modules = await loaded([compiledCli(), "check", "webapp"]);
      expect([network(modules), esModules(modules)]).toStrictEqual([[], []]);
    }
    // Warm, a diff starts no helm and unpacks nothing: neither node:child_process nor node:zlib loads.
    const unused = (modules: string[]) => modules.filter((name) => /^(zlib|child_process)$/.test(name));
    expect(unused(await loaded([compiledCli(), "diff", "webapp", "--to", "1.1.0"]))).toContain("child_process");
    const warm = await loaded([compiledCli(), "diff", "webapp", "--to", "1.1.0"]);
    expect([unused(warm), esModules(warm)]).toStrictEqual([[], []]);
  });
});
