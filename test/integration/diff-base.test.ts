import { execFile } from "node:child_process";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { helm } from "../helpers/helm.js";
import { cli, copyPlatform, editFile } from "../helpers/platform.js";

const run = promisify(execFile);
const PLANTED = "planted-pr-secret-4b8e";

async function git(dir: string, ...args: string[]): Promise<string> {
  const { stdout } = await run("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.test", ...args]);
  return stdout.trim();
}

/** Two commits: the example platform, then a values edit, a version bump and a new chart. */
async function repository(): Promise<{ dir: string; base: string }> {
  const dir = await copyPlatform();
  await writeFile(join(dir, ".gitignore"), ".cache/\n");
  await git(dir, "init", "-q");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-qm", "platform");
  const base = await git(dir, "rev-parse", "HEAD");
  await editFile(join(dir, "values", "webapp", "values.yaml"), (text) => text.replace("logLevel: info", "logLevel: debug"));
  await appendFile(join(dir, "values", "webapp", "values.yaml"), `auth:\n  password: ${PLANTED}\n`);
  await editFile(join(dir, "chartroom.config.ts"), (text) =>
    text
      .replace('version: "^0.1.0", namespace: "ledger"', 'version: "^0.2.0", namespace: "ledger"')
      .replace("  },\n  stacks:", '    extra: { repository: "local", chart: "webapp", version: "1.0.0", namespace: "extra" },\n  },\n  stacks:'),
  );
  const locked = await cli(dir, ["lock"]);
  expect(locked.errors).toBe("");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-qm", "change");
  return { dir, base };
}

describe("chartroom diff --base", () => {
  it("compares the repository at a ref with the working tree, per chart and stack", async () => {
    const { dir, base } = await repository();
    const result = await cli(dir, ["diff", "--base", base, "--stack", "dev", "--detailed-exitcode"]);
    expect(result.errors).toBe("");
    expect(result.exitCode).toBe(2);
    const text = result.output;
    expect(text).toContain("ledger · stack dev · helm.v3.Release · 0.1.0 → 0.2.0");
    expect(text).toContain('spec.template.spec.containers[name=ledger].image: "registry.example.test/ledger:3.2.0" → "registry.example.test/ledger:3.3.0"');
    expect(text).toContain("webapp · stack dev · helm.v4.Chart · 1.0.1");
    expect(text).toContain('data.LOG_LEVEL: "info" → "debug"');
    expect(text).toContain("data.password: secret changed (24 → 22 bytes)");
    expect(text).toContain("extra · stack dev · helm.v4.Chart · (absent) → 1.0.0");
    expect(text).toContain("+ Deployment.apps extra/extra");
  });

  it("keeps a values secret out of every format", async () => {
    const { dir, base } = await repository();
    const encoded = Buffer.from(PLANTED).toString("base64");
    for (const format of ["text", "json", "markdown"]) {
      const result = await cli(dir, ["diff", "webapp", "--base", base, "--format", format, "--detailed-exitcode"]);
      expect(result.exitCode).toBe(2);
      expect(result.output).not.toContain(PLANTED);
      expect(result.output).not.toContain(encoded);
    }
    const rendered = await cli(dir, ["render", "webapp", "--stack", "dev", "--format", "json"]);
    expect(rendered.output).not.toContain(encoded);
  });

  it("reports no changes against the working tree's own commit", async () => {
    const { dir } = await repository();
    const result = await cli(dir, ["diff"]);
    expect(result.errors).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("0 added, 0 deleted, 0 updated, 0 replaced, 0 renamed");
  });

  it("warns when a chart's key is renamed: the same objects change owner, and the engine deletes them after creating them", async () => {
    const { dir } = await repository();
    await editFile(join(dir, "chartroom.config.ts"), (text) =>
      text.replace(
        '    webapp: { repository: "local", version: "~1.0.0", namespace: "web" },',
        '    "web-app": { repository: "local", chart: "webapp", releaseName: "webapp", version: "~1.0.0", namespace: "web" },',
      ),
    );
    await run("mv", [join(dir, "values", "webapp"), join(dir, "values", "web-app")]);
    expect((await cli(dir, ["lock"])).errors).toBe("");
    const result = await cli(dir, ["diff", "--stack", "dev"]);
    expect(result.errors).toBe("");
    expect(result.output).toContain("- Deployment.apps web/webapp");
    expect(result.output).toContain("+ Deployment.apps web/webapp");
    expect(result.output).toContain("moved to chart web-app: helm.v4.Chart names each child by its chart");
    expect(result.output).toContain("moved here from chart webapp: helm.v4.Chart names each child by its chart");
    const json = JSON.parse((await cli(dir, ["diff", "--stack", "dev", "--format", "json"])).output) as {
      charts: { chart: string; objects: { moved?: { from: string; to: string } }[] }[];
    };
    expect(json.charts.find((chart) => chart.chart === "web-app")?.objects.every((object) => object.moved?.from === "webapp")).toBe(true);
  });

  it("names an unknown ref", async () => {
    const { dir } = await repository();
    const result = await cli(dir, ["diff", "--base", "no-such-branch"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain('unknown git ref "no-such-branch"');
    expect(await readFile(join(dir, "charts.lock.json"), "utf8")).toContain('"extra"');
  });
});

describe("chartroom diff --base on a one-file change", () => {
  it("renders only the pair whose inputs changed, and says how many were skipped", async () => {
    const dir = await copyPlatform();
    await writeFile(join(dir, ".gitignore"), ".cache/\nhelm-calls.log\n");
    await git(dir, "init", "-q");
    await git(dir, "add", "-A");
    await git(dir, "commit", "-qm", "platform");
    await writeFile(join(dir, "values", "webapp", "dev.yaml"), "podAnnotations:\n  team: payments\n");
    // A helm that writes down each `helm template` it is asked for.
    const realHelm = await helm(4);
    const wrapper = join(dir, "counting-helm");
    await writeFile(wrapper, `#!/bin/sh\n[ "$1" = template ] && echo "$2" >> "${join(dir, "helm-calls.log")}"\nexec "${realHelm}" "$@"\n`, { mode: 0o755 });
    const result = await cli(dir, ["diff", "--format", "json", "--detailed-exitcode"], { HELM_BIN: wrapper });
    expect(result.exitCode, result.errors).toBe(2);
    const report = JSON.parse(result.output);
    expect(report.charts.map((chart: { chart: string; stack: string }) => `${chart.chart} ${chart.stack}`)).toStrictEqual(["webapp dev"]);
    expect(report.summary.unchanged).toBe(7);
    // The one pair, nothing else: the changed side rendered twice (to find fields that change on every render), the
    // base side once (the lock recorded those fields for its very inputs: its values are the ones locked).
    expect((await readFile(join(dir, "helm-calls.log"), "utf8")).trim().split("\n")).toStrictEqual(["webapp", "webapp", "webapp"]);
    const text = await cli(dir, ["diff"], { HELM_BIN: wrapper });
    expect(text.output.split("\n").at(-1)).toBe(
      "1 chart/stack pair(s): 0 added, 0 deleted, 1 updated, 0 replaced, 0 renamed; 1 changing on every render only (not counted); 7 more pair(s) unchanged (same archive, values and settings on both sides: not rendered)",
    );
  });

  it("reads the base as committed, byte for byte: export-ignore, export-subst and smudge filters change nothing, and run nothing", async () => {
    const dir = await copyPlatform();
    const marker = join(dir, "filter-ran");
    await writeFile(join(dir, ".gitignore"), ".cache/\nfilter-ran\n");
    // What `git archive` or a checkout would honour: all of it must be ignored.
    await writeFile(join(dir, ".gitattributes"), "values/** export-ignore\nchartroom.config.ts export-subst\ncharts.lock.json filter=evil\n");
    await git(dir, "init", "-q");
    await git(dir, "config", "filter.evil.smudge", `sh -c 'touch ${marker}; cat'`);
    await git(dir, "config", "filter.evil.clean", "cat");
    await appendFile(join(dir, "chartroom.config.ts"), "// $Format:%H$\n");
    await git(dir, "add", "-A");
    await git(dir, "commit", "-qm", "platform");
    const result = await cli(dir, ["diff", "--base", "HEAD"]);
    expect(result.errors).toBe("");
    // Nothing differs from the working tree: values/ was not dropped, the config not rewritten.
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("0 chart/stack pair(s): 0 added, 0 deleted, 0 updated, 0 replaced, 0 renamed; 8 more pair(s) unchanged");
    await expect(readFile(marker)).rejects.toThrow();
  });
});
