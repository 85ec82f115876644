// The command-line conventions Helm and kubectl users expect, through the
// compiled CLI as a shell runs it: -o/--output names the format and
// --output-file the file, --color and FORCE_COLOR/NO_COLOR, exit 2 for
// changes only with --detailed-exitcode (a check's errors always), and
// --set/--set-string/--set-file on render, diff and check.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { copyPlatform } from "../helpers/platform.js";
import { compiledCli, runGroup } from "../helpers/process.js";
import { helm } from "../helpers/helm.js";

let helmBin: string;
beforeAll(async () => {
  helmBin = await helm(4);
});

/** The compiled CLI in `dir`, stdout a pipe (no terminal), with its own cache and a fixed day. */
async function chartroom(dir: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return runGroup(process.execPath, [compiledCli(), ...args], {
    cwd: dir,
    env: { CHARTROOM_CACHE: join(dir, ".cache"), CHARTROOM_TODAY: "2026-11-30", HELM_BIN: helmBin, NO_COLOR: undefined, FORCE_COLOR: undefined, ...env },
    timeoutMs: 120_000,
  });
}

const ESC = "\u001b[";

describe("output", () => {
  it("takes the format from -o/--output (--format still works) and the file from --output-file", async () => {
    const dir = await copyPlatform();
    for (const flag of ["-o", "--output", "--format"]) {
      const result = await chartroom(dir, ["outdated", flag, "json"]);
      expect(JSON.parse(result.stdout).report, flag).toBe("outdated");
    }
    const written = await chartroom(dir, ["outdated", "-o", "markdown", "--output-file", "outdated.md"]);
    expect([written.code, written.stdout]).toStrictEqual([0, "wrote outdated.md\n"]);
    expect(await readFile(join(dir, "outdated.md"), "utf8")).toContain("| webapp |");
  });

  it("says that --output names a format now when it is given a path", async () => {
    const dir = await copyPlatform();
    const result = await chartroom(dir, ["outdated", "--output", "outdated.json"]);
    expect([result.code, result.stderr.split("\n").slice(0, 2)]).toStrictEqual([
      1,
      [
        "error USAGE: outdated does not print as outdated.json",
        "  hint: -o/--output names the format now, as helm's and kubectl's do; to write to a file: --output-file outdated.json",
      ],
    ]);
  });

  it("colours text only on a terminal, unless --color or FORCE_COLOR say otherwise; NO_COLOR turns it off", async () => {
    const dir = await copyPlatform();
    const args = ["diff", "webapp", "--to", "2.0.0", "--stack", "dev"];
    expect((await chartroom(dir, args)).stdout).not.toContain(ESC);
    expect((await chartroom(dir, [...args, "--color", "always"])).stdout).toContain(ESC);
    expect((await chartroom(dir, args, { FORCE_COLOR: "1" })).stdout).toContain(ESC);
    expect((await chartroom(dir, [...args, "--color", "never"], { FORCE_COLOR: "1" })).stdout).not.toContain(ESC);
    expect((await chartroom(dir, [...args, "-o", "json", "--color", "always"])).stdout).not.toContain(ESC);
    const wrong = await chartroom(dir, [...args, "--color", "sometimes"]);
    expect([wrong.code, wrong.stderr.split("\n")[0]]).toStrictEqual([1, 'error USAGE: --color takes auto, always or never, not "sometimes"']);
  });
});

describe("exit codes", () => {
  it("exit 0 with changes, 2 with --detailed-exitcode, for every report command that finds changes", async () => {
    const dir = await copyPlatform();
    // (upgrade --dry-run, whose example has no move in range, in cli.test.ts)
    for (const args of [["diff", "webapp", "--to", "2.0.0", "--stack", "dev"], ["outdated"], ["plan", "--no-diff"]]) {
      expect((await chartroom(dir, args)).code, args.join(" ")).toBe(0);
      expect((await chartroom(dir, [...args, "--detailed-exitcode"])).code, args.join(" ")).toBe(2);
    }
    // Nothing to report: 0 either way.
    expect((await chartroom(dir, ["diff", "webapp", "--to", "1.0.1", "--stack", "dev", "--detailed-exitcode"])).code).toBe(0);
  });

  it("exit 2 on a check's errors with or without the flag: it is a gate", async () => {
    const dir = await copyPlatform();
    await writeFile(join(dir, "values", "webapp", "values.yaml"), "config:\n  logLevel: verbose\n");
    expect((await chartroom(dir, ["check", "webapp"])).code).toBe(2);
    expect((await chartroom(dir, ["check", "webapp", "--detailed-exitcode"])).code).toBe(2);
  });
});

describe("--set, --set-string and --set-file", () => {
  it("render with the values helm would get from the same flags, typed as helm types them", async () => {
    const dir = await copyPlatform();
    await writeFile(join(dir, "level.txt"), "warn");
    const result = await chartroom(dir, [
      "render",
      "webapp",
      "--stack",
      "dev",
      "--set",
      "replicaCount=1000000",
      "--set-string",
      "podAnnotations.build=007",
      "--set-file",
      "config.logLevel=level.txt",
    ]);
    expect(result.stderr).toBe("");
    // An integer --set renders as one (a values file's 1000000 would render as 1e+06).
    expect(result.stdout).toContain("  replicas: 1000000\n");
    expect(result.stdout).toContain('build: "007"');
    expect(result.stdout).toContain("LOG_LEVEL: warn\n");
  });

  it("check them against the chart's schema, naming the flag, in every stack of the chart named", async () => {
    const dir = await copyPlatform();
    const result = await chartroom(dir, ["check", "webapp", "--set", "config.logLevel=verbose", "-o", "json"]);
    expect(result.code).toBe(2);
    const findings = (JSON.parse(result.stdout) as { findings: { rule: string; stack: string; path: string; position?: { file: string } }[] }).findings.filter(
      (found) => found.rule === "enum",
    );
    expect(findings.map((found) => [found.stack, found.path, found.position?.file])).toStrictEqual([
      ["dev", "config.logLevel", "--set"],
      ["prod", "config.logLevel", "--set"],
    ]);
    const all = await chartroom(dir, ["check", "--set", "a=b"]);
    expect([all.code, all.stderr.split("\n")[0]]).toStrictEqual([1, "error USAGE: values on the command line (--values, --set…) are for one chart"]);
  });

  it("diff a version bump with the same flags on both sides", async () => {
    const dir = await copyPlatform();
    const result = await chartroom(dir, ["diff", "webapp", "--to", "1.1.0", "--stack", "dev", "--set", "replicaCount=7", "-o", "json"]);
    expect(result.code).toBe(0);
    const fields = JSON.stringify(JSON.parse(result.stdout));
    // Both sides have 7 replicas: no change to the field.
    expect(fields).not.toContain("spec.replicas");
    const mistake = await chartroom(dir, ["diff", "webapp", "--to", "1.1.0", "--set", "config.logLevel.x=1"]);
    expect([mistake.code, mistake.stderr.split("\n")[0]]).toStrictEqual([
      1,
      "error USAGE: --set: a key with a dot after it is not a map in the values below it (character 16 of the flag)",
    ]);
  });

  it("never print a --set value in an error, or a --set-file path's text", async () => {
    const dir = await copyPlatform();
    const result = await chartroom(dir, ["render", "webapp", "--stack", "dev", "--set", "auth.password=hunter2-secret,hunter2-more"]);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain("hunter2");
  });
});
