// The Renovate preset the package ships (renovate/chartroom.json), run by
// Renovate itself on the example platform served from a loopback HTTP
// repository: Renovate finds every newer version from charts.lock.json, and
// the commands it runs in a pull request's branch (its own templates filled
// in) make the change: the pin, its digest and, outside the range, the range.
import { execFile } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { serveRepository } from "../helpers/chart-repo.js";
import { cli, copyPlatform, editFile, ROOT } from "../helpers/platform.js";
import { compiledCli, runGroup } from "../helpers/process.js";
import { renovateDir } from "../helpers/renovate.js";
import { tempDir } from "../helpers/tmp.js";

const run = promisify(execFile);
const PRESET = join(ROOT, "renovate", "chartroom.json");

interface Upgrade {
  depName: string;
  packageName?: string;
  currentValue: string;
  newVersion: string;
  datasource: string;
  registryUrls?: string[];
  packageFile: string;
  depType: string;
  replaceString: string;
  postUpgradeTasks?: { commands: string[]; fileFilters: string[] };
}

async function git(dir: string, ...args: string[]): Promise<string> {
  return (await run("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.test", ...args])).stdout.trim();
}

/** The example platform with its charts served over HTTP, locked, in a git repository, with `chartroom` installed as a project has it. */
async function platform(): Promise<{ dir: string; url: string }> {
  const dir = await copyPlatform();
  const server = await serveRepository(join(ROOT, "charts"));
  await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('"file://./charts"', JSON.stringify(server.url)));
  const locked = await cli(dir, ["lock"]);
  expect(locked.errors).toBe("");
  const bin = join(dir, "node_modules", ".bin");
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, "chartroom"), `#!/bin/sh\nexec "${process.execPath}" "${compiledCli()}" "$@"\n`);
  await chmod(join(bin, "chartroom"), 0o755);
  await writeFile(join(dir, ".gitignore"), ".cache/\n.chartroom/\nnode_modules/\n");
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-qm", "platform");
  return { dir, url: server.url };
}

/** Renovate's log lines (JSON) from a run on `dir` with only the preset for config. */
async function renovate(dir: string, mode: "extract" | "lookup"): Promise<Record<string, unknown>[]> {
  const base = await tempDir("renovate-base-");
  const outcome = await runGroup(
    join(renovateDir(), "node_modules", ".bin", "renovate"),
    ["--platform=local", `--dry-run=${mode}`, "--onboarding=false", "--require-config=ignored"],
    {
      cwd: dir,
      env: { RENOVATE_CONFIG_FILE: PRESET, RENOVATE_BASE_DIR: base, LOG_LEVEL: "trace", LOG_FORMAT: "json", RENOVATE_X_IGNORE_RE2: "true" },
      timeoutMs: 240_000,
    },
  );
  const lines = outcome.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const fatal = lines.filter((line) => (line.level as number) >= 50);
  expect(fatal.map((line) => line.msg)).toStrictEqual([]);
  expect(outcome.code).toBe(0);
  return lines;
}

/** The commands of an upgrade's postUpgradeTasks, filled in by Renovate's own template code. */
async function commandsFor(upgrade: Upgrade): Promise<string[]> {
  const template = join(renovateDir(), "node_modules", "renovate", "dist", "util", "template", "index.js");
  const script = `const { compile } = require(${JSON.stringify(template)}); const u = JSON.parse(process.argv[1]); console.log(JSON.stringify(u.postUpgradeTasks.commands.map((c) => compile(c, u))));`;
  const { stdout } = await run(process.execPath, ["-e", script, JSON.stringify(upgrade)]);
  return JSON.parse(stdout) as string[];
}

/** What Renovate does to the package file in the branch before its post-upgrade tasks: the matched text with the new version. */
async function renovateEdits(dir: string, upgrade: Upgrade): Promise<void> {
  await editFile(join(dir, upgrade.packageFile), (text) =>
    text.replace(upgrade.replaceString, upgrade.replaceString.replace(`"version": "${upgrade.currentValue}"`, `"version": "${upgrade.newVersion}"`)),
  );
}

describe("the Renovate preset", () => {
  it("finds every newer chart version from charts.lock.json, and its post-upgrade commands make each pull request's change", async () => {
    const { dir, url } = await platform();
    const lines = await renovate(dir, "lookup");
    const branches = (lines.find((line) => line.msg === "branches")?.branches ?? []) as { branchName: string; upgrades: Upgrade[] }[];
    const upgrades = branches.flatMap((branch) => branch.upgrades.map((upgrade) => ({ branch: branch.branchName, upgrade })));
    expect(upgrades.map(({ branch, upgrade }) => [branch, upgrade.depName, upgrade.currentValue, upgrade.newVersion]).sort()).toStrictEqual([
      ["renovate/ledger-0.x", "ledger", "0.1.0", "0.2.0"],
      ["renovate/webapp-1.x", "webapp", "1.0.1", "1.1.0"],
      ["renovate/webapp-2.x", "webapp", "1.0.1", "2.0.0"],
      ["renovate/widgets-operator-1.x", "widgets-operator", "1.0.0", "1.1.0"],
    ]);
    for (const { upgrade } of upgrades) {
      expect([upgrade.packageFile, upgrade.datasource, upgrade.depType, upgrade.registryUrls]).toStrictEqual([
        "charts.lock.json",
        "helm",
        "chartroom",
        [`${url}/`],
      ]);
    }
    const config = await readFile(join(dir, "chartroom.config.ts"), "utf8");

    // Each branch as Renovate builds it: its edit, then the preset's commands in the repository.
    for (const [branch, range] of [
      ["renovate/webapp-2.x", "~2.0.0"],
      ["renovate/webapp-1.x", "~1.1.0"],
    ] as const) {
      const { upgrade } = upgrades.find((one) => one.branch === branch) as { upgrade: Upgrade };
      await renovateEdits(dir, upgrade);
      const commands = await commandsFor(upgrade);
      expect(commands).toStrictEqual(["git checkout -- charts.lock.json", `npx chartroom upgrade webapp --to ${upgrade.newVersion}`]);
      for (const command of commands) {
        const done = await runGroup("bash", ["-c", command], {
          cwd: dir,
          env: { PATH: `${join(dir, "node_modules", ".bin")}:${process.env.PATH}`, CHARTROOM_CACHE: join(dir, ".cache"), CHARTROOM_TODAY: "2026-11-30" },
          timeoutMs: 180_000,
        });
        expect(done.code, `${command}\n${done.stderr}`).toBe(0);
      }
      // Only the files the preset commits changed, and the lock holds: version, digest and range.
      const changed = (await run("git", ["-C", dir, "status", "--porcelain"])).stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => line.slice(3));
      expect(changed.filter((file) => !upgrade.postUpgradeTasks?.fileFilters.includes(file))).toStrictEqual([]);
      const lock = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")) as { charts: Record<string, { version: string; range: string }> };
      expect([lock.charts.webapp?.version, lock.charts.webapp?.range]).toStrictEqual([upgrade.newVersion, range]);
      expect(await readFile(join(dir, "chartroom.config.ts"), "utf8")).toBe(config.replace('version: "~1.0.0"', `version: "${range}"`));
      const frozen = await cli(dir, ["lock", "--frozen"]);
      expect([frozen.exitCode, frozen.errors]).toStrictEqual([0, ""]);
      await git(dir, "checkout", "-q", "--", ".");
    }
  });

  it("reads charts from OCI registries as the registry's tags", async () => {
    const dir = await tempDir();
    const lock = JSON.parse(await readFile(join(ROOT, "charts.lock.json"), "utf8")) as { charts: Record<string, { repository: string }> };
    for (const pin of Object.values(lock.charts)) pin.repository = "oci://registry.example.test:5000/platform/charts";
    await writeFile(join(dir, "charts.lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
    await git(dir, "init", "-q", "-b", "main");
    await git(dir, "add", "-A");
    await git(dir, "commit", "-qm", "lock");
    const lines = await renovate(dir, "extract");
    const files = (lines.find((line) => line.msg === "Extracted dependencies")?.packageFiles ?? {}) as Record<string, { deps: Upgrade[] }[]>;
    const deps = (files.regex ?? []).flatMap((file) => file.deps);
    expect(deps.map((dep) => [dep.depName, dep.packageName, dep.datasource, dep.currentValue]).sort()).toStrictEqual([
      ["ledger", "registry.example.test:5000/platform/charts/ledger", "docker", "0.1.0"],
      ["storefront", "registry.example.test:5000/platform/charts/storefront", "docker", "0.1.0"],
      ["webapp", "registry.example.test:5000/platform/charts/webapp", "docker", "1.0.1"],
      ["widgets-operator", "registry.example.test:5000/platform/charts/widgets-operator", "docker", "1.0.0"],
    ]);
  });
});
