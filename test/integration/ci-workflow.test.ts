// The CI workflows the README points to: every chartroom command of
// docs/ci/github-actions.yml runs here, as its job would, on a pull request
// that edits one values file; the step of docs/ci/chartroom-upgrades.yml runs
// in bash against a real git origin, with a stand-in for `gh`.
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { parse } from "yaml";
import { cli, copyPlatform, editFile, ROOT } from "../helpers/platform.js";
import { compiledCli, runGroup } from "../helpers/process.js";
import { tempDir } from "../helpers/tmp.js";

const run = promisify(execFile);

async function git(dir: string, ...args: string[]): Promise<string> {
  const { stdout } = await run("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.test", ...args]);
  return stdout.trim();
}

/** The `npx chartroom …` lines of the workflow's steps, in order. */
async function workflowCommands(): Promise<string[]> {
  const workflow = parse(await readFile(join(ROOT, "docs", "ci", "github-actions.yml"), "utf8")) as { jobs: Record<string, { steps: { run?: string }[] }> };
  return Object.values(workflow.jobs)
    .flatMap((job) => job.steps.map((step) => step.run ?? ""))
    .flatMap((text) => text.split("\n"))
    .map((line) => line.trim())
    .filter((line) => line.startsWith("npx chartroom "));
}

it("runs every chartroom command of the CI workflow on a pull request, with the outputs it keeps", async () => {
  const dir = await copyPlatform();
  await writeFile(join(dir, ".gitignore"), ".cache/\n.chartroom/\n");
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-qm", "platform");
  await git(dir, "update-ref", "refs/remotes/origin/main", "HEAD");
  await git(dir, "checkout", "-q", "-b", "change");
  await editFile(join(dir, "values", "webapp", "values.yaml"), (text) => text.replace("logLevel: info", "logLevel: debug"));
  await git(dir, "commit", "-qam", "more logs");

  const commands = await workflowCommands();
  expect(commands.length).toBeGreaterThanOrEqual(4);
  for (const command of commands) {
    // What the runner's shell does: the base branch expression, and "exit 2 is fine".
    const allowsChanges = command.includes("|| [ $? -eq 2 ]");
    const line = command
      .replace(/\s*\|\|.*$/, "")
      .replaceAll("${{ github.base_ref }}", "main")
      .replaceAll('"', "");
    const argv = line.replace(/^npx chartroom /, "").split(/\s+/);
    const result = await cli(dir, argv);
    expect(result.errors, line).toBe("");
    expect(allowsChanges ? [0, 2] : [0], `${line} exited ${result.exitCode}`).toContain(result.exitCode);
  }
  const markdown = await readFile(join(dir, "chartroom-diff.md"), "utf8");
  expect(markdown).toContain("webapp");
  // The markdown's diff block: lines start with their sign, so GitHub colours them.
  expect(markdown).toContain('-   data.LOG_LEVEL: "info"\n+   data.LOG_LEVEL: "debug"');
  const html = await readFile(join(dir, "chartroom-review.html"), "utf8");
  expect(html.toLowerCase().startsWith("<!doctype html>")).toBe(true);
});

it("opens one pull request per outdated chart with the upgrade's review as its body (docs/ci/chartroom-upgrades.yml), once", async () => {
  const dir = await copyPlatform();
  const work = await tempDir("chartroom-upgrades-");
  // chartroom installed as a project has it, and `gh` as a stand-in that writes down each pull request.
  const bin = join(dir, "node_modules", ".bin");
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, "chartroom"), `#!/bin/sh\nexec "${process.execPath}" "${compiledCli()}" "$@"\n`, { mode: 0o755 });
  const tools = join(work, "tools");
  await mkdir(tools);
  const created = join(work, "pull-requests.jsonl");
  await writeFile(
    join(tools, "gh"),
    `#!/bin/sh\nnode -e 'const a = process.argv.slice(1); const f = a[a.indexOf("--body-file") + 1]; require("fs").appendFileSync(${JSON.stringify(created)}, JSON.stringify({ args: a, body: require("fs").readFileSync(f, "utf8") }) + "\\n")' -- "$@"\n`,
    { mode: 0o755 },
  );
  // A repository with an origin, as actions/checkout leaves it.
  await writeFile(join(dir, ".gitignore"), ".cache/\n.chartroom/\nnode_modules/\n");
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-qm", "platform");
  await run("git", ["init", "-q", "--bare", join(work, "origin.git")]);
  await git(dir, "remote", "add", "origin", join(work, "origin.git"));
  await git(dir, "push", "-q", "origin", "main");
  await git(dir, "fetch", "-q", "origin");

  const workflow = parse(await readFile(join(ROOT, "docs", "ci", "chartroom-upgrades.yml"), "utf8")) as {
    jobs: { upgrade: { steps: { run?: string; env?: Record<string, string> }[] } };
  };
  const step = workflow.jobs.upgrade.steps.find((one) => one.run?.includes("chartroom upgrade")) as { run: string };
  const runStep = () =>
    runGroup("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run], {
      cwd: dir,
      env: {
        PATH: `${tools}:${bin}:${process.env.PATH}`,
        GH_TOKEN: "not-a-token",
        BASE: "main",
        RUNNER_TEMP: work,
        CHARTROOM_CACHE: join(dir, ".cache"),
        CHARTROOM_TODAY: "2026-11-30",
      },
      timeoutMs: 600_000,
    });
  const first = await runStep();
  expect(first.code, first.stderr).toBe(0);
  const branches = (await git(dir, "ls-remote", "--heads", "origin")).split("\n").map((line) => line.split("refs/heads/")[1]);
  expect(branches.sort()).toStrictEqual(["chartroom/ledger-0.2.0", "chartroom/webapp-2.0.0", "chartroom/widgets-operator-1.1.0", "main"]);
  for (const branch of branches.filter((name) => name !== "main")) {
    const files = await git(dir, "diff", "--name-only", "origin/main", `origin/${branch}`);
    expect(files.split("\n").sort(), branch).toStrictEqual(["chartroom.config.ts", "charts.lock.json"]);
  }
  const pulls = (await readFile(created, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { args: string[]; body: string });
  expect(pulls.map((pull) => pull.args.slice(0, 6))).toStrictEqual(
    ["ledger-0.2.0", "webapp-2.0.0", "widgets-operator-1.1.0"].map((name) => ["pr", "create", "--base", "main", "--head", `chartroom/${name}`]),
  );
  for (const pull of pulls) {
    expect(pull.body.startsWith("### chartroom upgrade")).toBe(true);
    expect(pull.body.length).toBeLessThan(65_536);
  }
  expect(pulls[1]?.body).toContain('**upgraded: webapp 1.0.1 → 2.0.0 (range "~1.0.0" → "~2.0.0" in the config)**');
  // A second run proposes nothing again.
  const second = await runStep();
  expect(second.code, second.stderr).toBe(0);
  expect((await readFile(created, "utf8")).trim().split("\n")).toHaveLength(3);
});
