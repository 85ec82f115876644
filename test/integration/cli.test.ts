import { execFile } from "node:child_process";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildChart, writeRepository, FIXTURES } from "../../scripts/fixtures.js";
import { cli, copyPlatform, editFile, ROOT, snapshot } from "../helpers/platform.js";
import { materialise } from "../helpers/chart-repo.js";
import { helm, runHelm } from "../helpers/helm.js";
import { tempDir } from "../helpers/tmp.js";
import { compiledCli, runGroup } from "../helpers/process.js";

const run = promisify(execFile);

const USER_FILES = ["chartroom.config.ts", "charts.lock.json", "charts/index.yaml"];

describe("chartroom lock", () => {
  it("writes the lock from scratch, and a second run leaves it byte-identical", async () => {
    const dir = await copyPlatform();
    const committed = await readFile(join(dir, "charts.lock.json"), "utf8");
    await rm(join(dir, "charts.lock.json"));
    const first = await cli(dir, ["lock"]);
    expect(first.exitCode).toBe(0);
    expect(first.output).toContain("wrote charts.lock.json");
    const written = await readFile(join(dir, "charts.lock.json"), "utf8");
    expect(written).toBe(committed);
    const second = await cli(dir, ["lock"]);
    expect(second.output).toContain("charts.lock.json is up to date");
    expect(await readFile(join(dir, "charts.lock.json"), "utf8")).toBe(written);
  });

  it("re-resolves only the named chart, plus charts whose declaration changed", async () => {
    const dir = await tempDir();
    const mtime = new Date("2026-01-01T00:00:00Z");
    const build = (name: string, version: string) => buildChart(join(FIXTURES, name, version), mtime);
    await writeRepository(join(dir, "charts"), [await build("webapp", "1.0.0"), await build("widgets-operator", "1.0.0"), await build("ledger", "0.1.0")]);
    const config = (ledgerRange: string) =>
      `export default { repositories: { local: "file://./charts" }, charts: {
        webapp: { repository: "local", version: "~1.0.0", namespace: "web" },
        "widgets-operator": { repository: "local", version: "1.x", namespace: "widgets" },
        ledger: { repository: "local", version: "${ledgerRange}", namespace: "ledger" } } };\n`;
    await writeFile(join(dir, "chartroom.config.ts"), config("0.1.0"));
    expect((await cli(dir, ["lock"])).exitCode).toBe(0);
    // The repository publishes newer versions inside both ranges.
    await writeRepository(join(dir, "charts"), [
      await build("webapp", "1.0.0"),
      await build("webapp", "1.0.1"),
      await build("widgets-operator", "1.0.0"),
      await build("widgets-operator", "1.1.0"),
      await build("ledger", "0.1.0"),
      await build("ledger", "0.2.0"),
    ]);
    await writeFile(join(dir, "chartroom.config.ts"), config("^0.2.0"));
    const result = await cli(dir, ["lock", "webapp"]);
    expect(result.errors).toBe("");
    const lock = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8"));
    expect(lock.charts.webapp.version).toBe("1.0.1");
    expect(lock.charts["widgets-operator"].version).toBe("1.0.0");
    expect(lock.charts.ledger.version).toBe("0.2.0");
    await cli(dir, ["lock"]);
    expect(JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")).charts["widgets-operator"].version).toBe("1.1.0");
  });

  it("drops a chart removed from the config", async () => {
    const dir = await copyPlatform();
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace(/\n\s+ledger: \{[^\n]+\n/, "\n"));
    const result = await cli(dir, ["lock"]);
    expect(result.output).toMatch(/ledger\s+removed\s+0\.1\.0/);
    expect(JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")).charts.ledger).toBeUndefined();
  });

  it("keeps .chartroom/ out of git by itself, without touching the project's .gitignore", async () => {
    const dir = await copyPlatform();
    const git = (args: string[]) => run("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.test", ...args]).then((r) => r.stdout);
    await git(["init", "-q"]);
    await writeFile(join(dir, ".gitignore"), ".cache/\n");
    expect((await cli(dir, ["lock"])).exitCode).toBe(0);
    expect((await readdir(join(dir, ".chartroom", "charts"))).length).toBeGreaterThan(0);
    const status = await git(["status", "--porcelain", "--untracked-files=all"]);
    expect(status).not.toContain(".chartroom");
    expect(status).toContain("charts.lock.json");
    expect(await readFile(join(dir, ".gitignore"), "utf8")).toBe(".cache/\n");
  });

  it("refuses an unknown chart name with a suggestion and writes nothing", async () => {
    const dir = await copyPlatform();
    const before = await snapshot(dir, USER_FILES);
    const result = await cli(dir, ["lock", "webap"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain('UNKNOWN_CHART: "webap" is not a chart declared in the config (did you mean "webapp"?)');
    expect(await snapshot(dir, USER_FILES)).toStrictEqual(before);
  });
});

describe("chartroom lock --frozen", () => {
  it("passes on the committed example platform", async () => {
    const result = await cli(ROOT, ["lock", "--frozen"], { CHARTROOM_CACHE: await tempDir() });
    expect(result.errors).toBe("");
    expect(result.exitCode).toBe(0);
  });

  it("exits 1 listing what is stale, and writes nothing", async () => {
    const dir = await copyPlatform();
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('version: "~1.0.0"', 'version: "^1.0.0"').replace(/\n\s+ledger: \{[^\n]+\n/, "\n"));
    const before = await snapshot(dir, USER_FILES);
    const result = await cli(dir, ["lock", "--frozen"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain("LOCK_STALE");
    expect(result.errors).toContain("ledger: removed from the config, still in the lock");
    expect(result.errors).toContain("webapp: range changed (~1.0.0 → ^1.0.0)");
    expect(await snapshot(dir, USER_FILES)).toStrictEqual(before);
  });

  it("fails when there is no lock at all", async () => {
    const dir = await copyPlatform();
    await rm(join(dir, "charts.lock.json"));
    const result = await cli(dir, ["lock", "--frozen"]);
    expect(result.errors).toContain("LOCK_MISSING");
    await expect(readFile(join(dir, "charts.lock.json"))).rejects.toThrow();
  });

  it("refuses an archive republished under the same version, naming both digests", async () => {
    const dir = await copyPlatform();
    const lock = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8"));
    const swapped = await readFile(join(dir, "charts", "webapp-1.0.0.tgz"));
    await writeFile(join(dir, "charts", "webapp-1.0.1.tgz"), swapped);
    const { createHash } = await import("node:crypto");
    const newHex = createHash("sha256").update(swapped).digest("hex");
    await editFile(join(dir, "charts", "index.yaml"), (text) => text.replace(lock.charts.webapp.digest.slice(7), newHex));
    const before = await snapshot(dir, USER_FILES);
    const result = await cli(dir, ["lock", "--frozen"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain("DIGEST_MISMATCH");
    expect(result.errors).toContain(lock.charts.webapp.digest);
    expect(result.errors).toContain(`sha256:${newHex}`);
    expect(await snapshot(dir, USER_FILES)).toStrictEqual(before);
  });
});

describe("bad input leaves every file as it was", () => {
  it.each([
    [
      "a malformed config",
      (dir: string) => editFile(join(dir, "chartroom.config.ts"), (t) => t.replace('namespace: "web" }', 'namespace: "web" ')),
      "CONFIG_LOAD_FAILED",
    ],
    [
      "an unknown repository",
      (dir: string) =>
        editFile(join(dir, "chartroom.config.ts"), (t) => t.replace('repository: "local", version: "~1.0.0"', 'repository: "lokal", version: "~1.0.0"')),
      "CONFIG_INVALID",
    ],
    ["a malformed index.yaml", (dir: string) => writeFile(join(dir, "charts", "index.yaml"), "entries: [\n"), "INDEX_INVALID"],
    ["a malformed lock", (dir: string) => editFile(join(dir, "charts.lock.json"), (t) => t.replace('"charts": {', '"charts": {{')), "LOCK_INVALID"],
    [
      "a lock from the future",
      (dir: string) => editFile(join(dir, "charts.lock.json"), (t) => t.replace('"lockfileVersion": "1.0"', '"lockfileVersion": "9.0"')),
      "LOCK_TOO_NEW",
    ],
  ])("%s", async (_, breakIt, code) => {
    const dir = await copyPlatform();
    await breakIt(dir);
    const before = await snapshot(dir, USER_FILES);
    const result = await cli(dir, ["lock"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain(code);
    expect(result.errors).toMatch(/hint: /);
    expect(await snapshot(dir, USER_FILES)).toStrictEqual(before);
  });
});

describe("chartroom outdated", () => {
  it("shows current, wanted, latest and update type, exiting 2 with --detailed-exitcode (0 without)", async () => {
    const dir = await copyPlatform();
    expect((await cli(dir, ["outdated"])).exitCode).toBe(0);
    const result = await cli(dir, ["outdated", "--detailed-exitcode"]);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/webapp\s+1\.0\.1\s+1\.0\.1\s+2\.0\.0\s+major\s+file:\/\/\.\/charts/);
    expect(result.output).toMatch(/ledger\s+0\.1\.0\s+0\.1\.0\s+0\.2\.0\s+minor/);
    expect(result.output).not.toContain("storefront");
  });

  it("prints stable JSON", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["outdated", "webapp", "--format", "json"]);
    expect(JSON.parse(result.output)).toStrictEqual({
      report: "outdated",
      format: 1,
      charts: [{ chart: "webapp", repository: "file://./charts", current: "1.0.1", wanted: "1.0.1", latest: "2.0.0", updateType: "major", outdated: true }],
    });
  });

  it("exits 0 when every named chart is current", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["outdated", "storefront"]);
    expect(result).toMatchObject({ exitCode: 0, output: "every chart is on its latest version" });
  });

  it("renders a markdown table", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["outdated", "--format", "markdown"]);
    expect(result.output.split("\n").slice(0, 3)).toStrictEqual([
      "| CHART | CURRENT | WANTED | LATEST | UPDATE | REPOSITORY |",
      "| --- | --- | --- | --- | --- | --- |",
      "| ledger | 0.1.0 | 0.1.0 | 0.2.0 | minor | file://./charts |",
    ]);
  });
});

describe("chartroom plan", () => {
  it("lists every chart with its verified pin and outdated status", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["plan"]);
    expect(result.exitCode).toBe(0);
    expect(result.output).toMatch(/webapp\s+web\s+~1\.0\.0\s+1\.0\.1\s+[0-9a-f]{12}\s+yes\s+chart\s+latest 2\.0\.0 \(major\)/);
    expect(result.output).toMatch(/ledger\s+ledger\s+\^0\.1\.0\s+0\.1\.0\s+[0-9a-f]{12}\s+yes\s+release/);
    expect(result.output).toContain("4 charts, 4 verified against charts.lock.json");
  });

  it("exits 1 and says why when an archive no longer matches its pin", async () => {
    const dir = await copyPlatform();
    await writeFile(join(dir, "charts", "ledger-0.1.0.tgz"), await readFile(join(dir, "charts", "ledger-0.2.0.tgz")));
    const result = await cli(dir, ["plan", "--format", "json"]);
    expect(result.exitCode).toBe(1);
    const ledger = JSON.parse(result.output).charts.find((row: { chart: string }) => row.chart === "ledger");
    expect(ledger.verified).toBe(false);
    expect(ledger.problems[0]).toMatch(/^DIGEST_MISMATCH/);
  });

  it("exits 2 for outdated charts with --detailed-exitcode", async () => {
    const dir = await copyPlatform();
    expect((await cli(dir, ["plan", "--detailed-exitcode"])).exitCode).toBe(2);
  });
});

describe("command line", () => {
  it.each(["lock", "outdated", "plan", "render", "diff", "check", "types", "explain", "upgrade"])(
    "%s --help describes the command and the common options",
    async (name) => {
      const result = await cli(ROOT, [name, "--help"]);
      expect(result.exitCode).toBe(0);
      expect(result.output).toContain(`usage: chartroom ${name}`);
      expect(result.output).toContain("--format");
    },
  );

  it("suggests the nearest command", async () => {
    const result = await cli(ROOT, ["outdate"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain('unknown command "outdate" (did you mean "outdated"?)');
  });

  it("refuses an unknown option with the command's help", async () => {
    const result = await cli(ROOT, ["lock", "--frozne"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain("--frozne");
    expect(result.errors).toContain("usage: chartroom lock");
  });

  it("refuses an unknown format, and a format the report does not have, naming the ones it has", async () => {
    const xml = await cli(ROOT, ["outdated", "--format", "xml"]);
    expect([xml.exitCode, xml.errors.split("\n").slice(0, 2)]).toStrictEqual([
      1,
      ["error USAGE: outdated does not print as xml", "  hint: -o text | json | markdown"],
    ]);
    const html = await cli(ROOT, ["check", "--format", "html"]);
    expect([html.exitCode, html.errors.split("\n")[0]]).toStrictEqual([1, "error USAGE: check does not print as html"]);
  });
});

describe("chartroom explain", () => {
  it("shows the engine, its reasons and the hooks the chart renders per stack", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["explain", "ledger"]);
    expect(result.exitCode).toBe(0);
    expect(result.output.split("\n").slice(0, 2)).toStrictEqual([
      "ledger: helm.v3.Release",
      "  - the chart renders pre-install, pre-upgrade hooks (Job.batch ledger/ledger-migrate); helm.v4.Chart would drop them without a word, helm.v3.Release runs them",
    ]);
    expect(result.output).toContain("    test (helm test only): Pod ledger/ledger-test-connection");
    expect(result.output).toMatch(/digest {6}sha256:[0-9a-f]{64}/);
  });

  it("warns that helm.v4.Chart replaces a Secret with a random value at every pulumi up", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["explain", "webapp"]);
    expect(result.output).toContain("  dev: Secret web/webapp-auth: data.password");
    expect(result.output).toContain("  dev: Secret web/webapp-auth: data.password → helm.v4.Chart replaces it at every run");
  });

  it("lists CRDs and the schema", async () => {
    const dir = await copyPlatform();
    expect((await cli(dir, ["explain", "widgets-operator"])).output).toContain("CRDs        widgets.example.com");
    expect((await cli(dir, ["explain", "webapp"])).output).toMatch(/schema {6}sha256:[0-9a-f]{64} \(http:\/\/json-schema.org\/draft-07\/schema#\)/);
  });
});

describe("hostile archives in a repository", () => {
  it.each([
    ["a ../ entry", [{ name: "evil/../../escaped.txt", content: "x" }], "ARCHIVE_UNSAFE"],
    ["an absolute path", [{ name: "/tmp/chartroom-escaped.txt", content: "x" }], "ARCHIVE_UNSAFE"],
    ["a link escaping the chart", [{ name: "evil/templates/link", type: "symlink" as const, linkname: "../../../etc/passwd" }], "ARCHIVE_UNSAFE"],
    ["an oversized file", [{ name: "evil/big.bin", content: Buffer.alloc(6 * 1024 * 1024) }], "ARCHIVE_TOO_LARGE"],
  ])("refuses %s, naming the chart, and writes nothing", async (_, entries, code) => {
    const dir = await tempDir();
    const { tarball } = await import("../helpers/tarball.js");
    const { createHash } = await import("node:crypto");
    const archive = await tarball([{ name: "evil/Chart.yaml", content: "apiVersion: v2\nname: evil\nversion: 0.1.0\n" }, ...entries]);
    await import("node:fs/promises").then((fs) => fs.mkdir(join(dir, "charts")));
    await writeFile(join(dir, "charts", "evil-0.1.0.tgz"), archive);
    await writeFile(
      join(dir, "charts", "index.yaml"),
      `apiVersion: v1\nentries:\n  evil:\n    - name: evil\n      version: 0.1.0\n      digest: ${createHash("sha256").update(archive).digest("hex")}\n      urls: [evil-0.1.0.tgz]\n`,
    );
    await writeFile(
      join(dir, "chartroom.config.ts"),
      `export default { repositories: { local: "file://./charts" }, charts: { evil: { repository: "local", version: "0.1.0", namespace: "x" } } };\n`,
    );
    const before = await snapshot(dir, ["chartroom.config.ts", "charts/index.yaml", "charts.lock.json"]);
    const result = await cli(dir, ["lock"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain(code);
    expect(result.errors).toContain("chart evil-0.1.0");
    expect(await snapshot(dir, ["chartroom.config.ts", "charts/index.yaml", "charts.lock.json"])).toStrictEqual(before);
    await expect(readFile(join(dir, "escaped.txt"))).rejects.toThrow();
    await expect(readFile("/tmp/chartroom-escaped.txt")).rejects.toThrow();
  });
});

describe("chartroom upgrade", () => {
  async function platformWithNewReleases(): Promise<string> {
    const dir = await tempDir();
    const mtime = new Date("2026-01-01T00:00:00Z");
    const build = (name: string, version: string) => buildChart(join(FIXTURES, name, version), mtime);
    await writeRepository(join(dir, "charts"), [await build("webapp", "1.0.0")]);
    await writeFile(
      join(dir, "chartroom.config.ts"),
      `export default { repositories: { local: "file://./charts" }, charts: { webapp: { repository: "local", version: "~1.0.0", namespace: "web" } } };\n`,
    );
    expect((await cli(dir, ["lock"])).exitCode).toBe(0);
    await writeRepository(join(dir, "charts"), [await build("webapp", "1.0.0"), await build("webapp", "1.0.1"), await build("webapp", "2.0.0")]);
    return dir;
  }

  it("reports what the move to the highest version in range does, and writes nothing with --dry-run", async () => {
    const dir = await platformWithNewReleases();
    const before = await snapshot(dir, ["charts.lock.json"]);
    const result = await cli(dir, ["upgrade", "--dry-run", "--detailed-exitcode"]);
    expect(result.errors).toBe("");
    expect(result.exitCode).toBe(2);
    expect(result.output).toContain("webapp · stack default · helm.v4.Chart · 1.0.0 → 1.0.1");
    expect(result.output).toContain(
      'spec.template.spec.containers[name=web].image: "registry.example.test/webapp:1.4.0" → "registry.example.test/webapp:1.4.1"',
    );
    expect(result.output).toContain("would upgrade: webapp 1.0.0 → 1.0.1");
    expect(result.output).toContain('note: webapp: 2.0.0 is outside "~1.0.0"; `chartroom upgrade webapp --to 2.0.0` moves the range too');
    expect(await snapshot(dir, ["charts.lock.json"])).toStrictEqual(before);
  });

  it("pins the new version", async () => {
    const dir = await platformWithNewReleases();
    const result = await cli(dir, ["upgrade"]);
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("upgraded: webapp 1.0.0 → 1.0.1");
    expect(JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")).charts.webapp.version).toBe("1.0.1");
    expect((await cli(dir, ["upgrade"])).output.split("\n")[0]).toBe("every chart is on the highest version its range allows");
  });
});

describe("the Helm that renders helm.v4.Chart charts", () => {
  it("names the helm in the diff and says when it is not the one the installed provider embeds", async () => {
    const result = await cli(ROOT, ["diff", "webapp", "--to", "2.0.0", "--stack", "dev"], { CHARTROOM_CACHE: await tempDir() });
    expect(result.output).toContain("webapp · stack dev · helm.v4.Chart · 1.0.1 → 2.0.0 · helm 4.1.4 (HELM_BIN)");
    expect(result.output).toContain(
      "webapp · stack dev · helm.v4.Chart · 1.0.1 → 2.0.0 · helm 4.1.4 (HELM_BIN) · engine: Helm 3.18.6 (@pulumi/kubernetes 4.25.0)",
    );
    expect(result.output).toContain(
      "note: rendered with helm 4.1.4; the engine renders with Helm 3.18.6, which @pulumi/kubernetes 4.25.0's provider embeds: set CHARTROOM_CHART_HELM to a helm 3.18 binary to see exactly what it deploys",
    );
  });

  it("renders helm.v4.Chart charts with CHARTROOM_CHART_HELM, and Release charts with the usual helm", async () => {
    const env = { CHARTROOM_CACHE: await tempDir(), CHARTROOM_CHART_HELM: await helm(3) };
    const chart = await cli(ROOT, ["diff", "webapp", "--to", "2.0.0", "--stack", "dev"], env);
    expect(chart.output).toContain("· helm 3.17.2 (CHARTROOM_CHART_HELM)");
    const release = await cli(ROOT, ["diff", "ledger", "--to", "0.2.0", "--stack", "dev"], env);
    expect(release.output).toContain("ledger · stack dev · helm.v3.Release · 0.1.0 → 0.2.0 · helm 4.1.4 (HELM_BIN)");
  });
});

describe("mistakes in files point at the place", () => {
  it("a syntax error in the config names file:line:column", async () => {
    const dir = await copyPlatform();
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('namespace: "ledger" },', 'namespace: "ledger" }'));
    const result = await cli(dir, ["plan"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toMatch(/^error CONFIG_LOAD_FAILED: could not load the config: .*$/m);
    expect(result.errors).toContain(`where: ${join(dir, "chartroom.config.ts")}:12:4`);
  });

  it("a syntax error the fast transpiler lets through (a doubled comma) still names file:line:column, in process and compiled", async () => {
    const dir = await copyPlatform();
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('dependsOn: ["widgets-operator"] },', 'dependsOn: ["widgets-operator"] },,'));
    const inProcess = await cli(dir, ["plan"]);
    expect(inProcess.errors).toContain(`where: ${join(dir, "chartroom.config.ts")}:13:132`);
    const compiled = await runGroup(process.execPath, [compiledCli(), "plan"], { cwd: dir, env: { CHARTROOM_CACHE: join(dir, ".cache") }, timeoutMs: 120_000 });
    expect(compiled.code).toBe(1);
    expect(compiled.stderr).toContain(`where: ${join(dir, "chartroom.config.ts")}:13:132`);
  });

  it("a lower version after plain lock is reported as downgraded, and only when asked", async () => {
    const dir = await copyPlatform();
    await editFile(join(dir, "charts", "index.yaml"), (text) => text.replace(/\n {4}- apiVersion: v2\n(?: {6}.*\n)*? {6}version: 1\.0\.1\n/, "\n"));
    const refused = await cli(dir, ["lock"]);
    expect(refused.errors).toContain(
      "error VERSION_NOT_FOUND: webapp 1.0.1 is pinned, but file://./charts no longer lists it (or lists it broken); chartroom will not move the pin down to 1.0.0 on its own",
    );
    const allowed = await cli(dir, ["lock", "webapp", "--allow-downgrade"]);
    expect(allowed.exitCode, allowed.errors).toBe(0);
    expect(allowed.output.split("\n")).toContain("webapp            downgraded  1.0.1  1.0.0");
  });
});

describe("a version republished with other bytes", () => {
  it("is refused by lock, and accepted with --accept-republished, reported as republished", async () => {
    const dir = await copyPlatform();
    const lock = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8"));
    const chart = await materialise("webapp", "1.0.1", join(dir, ".work"));
    await writeFile(join(chart, "templates", "NOTES.txt"), "republished\n");
    await runHelm(4, ["package", chart, "--destination", join(dir, "charts")], dir);
    const { createHash } = await import("node:crypto");
    const newHex = createHash("sha256")
      .update(await readFile(join(dir, "charts", "webapp-1.0.1.tgz")))
      .digest("hex");
    await editFile(join(dir, "charts", "index.yaml"), (text) => text.replace(lock.charts.webapp.digest.slice(7), newHex));
    const before = await snapshot(dir, USER_FILES);
    const refused = await cli(dir, ["lock", "webapp"]);
    expect(refused.errors).toContain(
      `error DIGEST_MISMATCH: webapp 1.0.1 was republished: charts.lock.json pins ${lock.charts.webapp.digest}, the repository now serves sha256:${newHex}`,
    );
    expect(await snapshot(dir, USER_FILES)).toStrictEqual(before);
    const accepted = await cli(dir, ["lock", "webapp", "--accept-republished"]);
    expect(accepted.exitCode, accepted.errors).toBe(0);
    expect(accepted.output.split("\n")).toContain(
      `webapp            republished  1.0.1  1.0.1 (${lock.charts.webapp.digest.slice(7, 19)} → ${newHex.slice(0, 12)})`,
    );
  });
});
