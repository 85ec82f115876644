import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { buildChart, writeRepository } from "../../scripts/fixtures.js";
import { pinnedHelm } from "../../src/render/helm-binary.js";
import { renderChart } from "../../src/render/render.js";
import { runProcess, type Runner } from "../../src/render/run.js";
import { helm, HELM_CACHE } from "../helpers/helm.js";
import { cli, copyPlatform, ROOT } from "../helpers/platform.js";
import { tempDir } from "../helpers/tmp.js";

describe.each([3, 4] as const)("rendering with Helm %i", (major) => {
  const env = async () => ({ HELM_BIN: await helm(major) });

  it("lists the hook chart's hooks, with test hooks apart", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["render", "ledger", "--stack", "dev", "--summary"], await env());
    expect(result.errors).toBe("");
    expect(result.output).toMatch(/Job\.batch ledger\/ledger-migrate\s+batch\/v1\s+ledger\/templates\/migrate-job\.yaml\s+pre-install,pre-upgrade w=-5/);
    expect(result.output).toMatch(/Pod ledger\/ledger-test-connection\s+v1\s+ledger\/templates\/tests\/test-connection\.yaml\s+test \(test\)/);
  });

  it("renders YAML with the stack's values and hides Secret values", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["render", "webapp", "--stack", "prod"], await env());
    expect(result.output).toContain("# Source: webapp/templates/deployment.yaml");
    expect(result.output).toContain("replicas: 3");
    expect(result.output).toContain("password: <24 bytes, hidden>");
  });

  it("shows what the web app's major bump does, object by object", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["diff", "webapp", "--to", "2.0.0", "--stack", "prod", "--detailed-exitcode"], await env());
    expect(result.errors).toBe("");
    expect(result.exitCode).toBe(2);
    expect(result.output).toContain("! Deployment.apps web/webapp REPLACE");
    expect(result.output).toContain('spec.selector.matchLabels["app.kubernetes.io/component"]: + "web"  [immutable]');
    expect(result.output).toContain("→ helm.v4.Chart: Pulumi replaces the object");
    expect(result.output).toContain('(helm.v3.Release: `helm upgrade` fails with "field is immutable"');
    // values set service.port; 2.0.0 renamed it to service.httpPort, so the chart's default comes back.
    expect(result.output).toContain("spec.ports[name=http].port: 8080 → 80");
    expect(result.output).toContain("> ConfigMap web/webapp-settings (renamed from ConfigMap web/webapp-config");
    expect(result.output).toContain("data.password: secret changed (24 → 24 bytes)  [changes on every render]");
  });

  it("turns a template error into HELM_FAILED with the template file and line, and no values in it", async () => {
    const dir = await tempDir();
    const chart = join(dir, "src", "broken", "0.1.0");
    await mkdir(join(chart, "templates"), { recursive: true });
    await writeFile(join(chart, "Chart.yaml"), "apiVersion: v2\nname: broken\nversion: 0.1.0\n");
    await writeFile(join(chart, "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: {{ .Values.missing.deep }}\n");
    await writeRepository(join(dir, "charts"), [await buildChart(chart, new Date(0))]);
    await writeFile(
      join(dir, "chartroom.config.ts"),
      `export default { repositories: { local: "file://./charts" }, charts: { broken: { repository: "local", version: "0.1.0", namespace: "x" } } };\n`,
    );
    await mkdir(join(dir, "values", "broken"), { recursive: true });
    await writeFile(join(dir, "values", "broken", "values.yaml"), "token: planted-values-secret-5d2\n");
    const result = await cli(dir, ["lock"], await env());
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain("HELM_FAILED");
    expect(result.errors).toMatch(/where: broken\/templates\/cm\.yaml:6/);
    expect(result.errors).toContain("--values <values: values/broken/values.yaml>");
    expect(result.errors).not.toContain("planted-values-secret-5d2");
    await expect(readFile(join(dir, "charts.lock.json"))).rejects.toThrow();
  });
});

describe("the render step", () => {
  it("passes values as 0600 temporary files, never on the command line, and removes them", async () => {
    const seen: { args: string[]; modes: number[] }[] = [];
    const recording: Runner = async (file, args, options) => {
      const files = args.filter((_, i) => args[i - 1] === "--values");
      seen.push({ args, modes: await Promise.all(files.map(async (path) => (await stat(path)).mode & 0o777)) });
      return runProcess(file, args, options);
    };
    const cacheRoot = await tempDir();
    const input = {
      helm: await pinnedHelm(4, HELM_CACHE),
      archive: { path: join(ROOT, "charts", "webapp-1.0.1.tgz"), digest: "sha256:test" },
      label: "webapp",
      releaseName: "webapp",
      namespace: "web",
      kubeVersion: "1.31.0",
      apiVersions: ["example.com/v1"],
      values: [{ name: "values.yaml", text: "auth:\n  password: never-on-argv-91\n" }],
    };
    const first = await renderChart(input, { cacheRoot, run: recording });
    expect(seen).toHaveLength(2);
    for (const call of seen) {
      expect(call.modes).toStrictEqual([0o600]);
      expect(call.args.join(" ")).not.toContain("never-on-argv-91");
      expect(call.args).toEqual(expect.arrayContaining(["--kube-version", "1.31.0", "--api-versions", "example.com/v1", "--namespace", "web"]));
    }
    // The probe's second render leaves out crds/ (copied, never rendered: they cannot change).
    expect(seen.map((call) => call.args.includes("--include-crds")).sort()).toStrictEqual([false, true]);
    const leftovers = (await readdir(tmpdir())).filter((name) => name.startsWith("chartroom-values-"));
    for (const call of seen)
      for (const path of call.args.filter((_, i) => call.args[i - 1] === "--values")) expect(leftovers.some((name) => path.includes(name))).toBe(false);
    expect(first.cached).toBe(false);
    expect(first.unstable).toStrictEqual([]);
    const second = await renderChart(input, { cacheRoot, run: recording });
    expect(second.cached).toBe(true);
    expect(seen).toHaveLength(2);
    expect((await renderChart(input, { cacheRoot, run: recording, noCache: true })).cached).toBe(false);
    expect(seen).toHaveLength(4);
  });

  it("finds fields that change on every render", async () => {
    const rendering = await renderChart(
      {
        helm: await pinnedHelm(4, HELM_CACHE),
        archive: { path: join(ROOT, "charts", "webapp-1.0.1.tgz"), digest: "sha256:random" },
        label: "webapp",
        releaseName: "webapp",
        namespace: "web",
        apiVersions: [],
        values: [],
      },
      { cacheRoot: await tempDir() },
    );
    expect(rendering.unstable).toStrictEqual(["/Secret/web/webapp-auth data.password"]);
  });
});

describe("diff reports", () => {
  async function goldenDiff(format: string): Promise<string> {
    const dir = await copyPlatform();
    const result = await cli(dir, ["diff", "webapp", "--to", "2.0.0", "--stack", "prod", "--format", format]);
    expect(result.errors).toBe("");
    return `${result.output}\n`;
  }

  it.each([
    ["text", "diff-webapp-major.txt"],
    ["markdown", "diff-webapp-major.md"],
  ])("match the golden %s report", async (format, file) => {
    const actual = await goldenDiff(format);
    const path = join(ROOT, "test", "golden", file);
    if (process.env.UPDATE_GOLDEN === "1") await writeFile(path, actual);
    expect(actual).toBe(await readFile(path, "utf8"));
  });

  it("emit JSON that validates against docs/diff-report.schema.json", async () => {
    const schema = JSON.parse(await readFile(join(ROOT, "docs", "diff-report.schema.json"), "utf8"));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const report = JSON.parse(await goldenDiff("json"));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.summary).toMatchObject({ replace: 1, rename: 1 });
    expect(report.changed).toBe(true);
  });
});
