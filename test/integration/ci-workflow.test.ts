// The CI workflow the README points to (docs/ci/github-actions.yml): every
// chartroom command in it runs here, as its job would, on a pull request
// that edits one values file.
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { parse } from "yaml";
import { cli, copyPlatform, editFile, ROOT } from "../helpers/platform.js";

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
