// The library does what the CLI does, through the package name only.
import { execFile } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { applyUpgrade, lock, openProject, planUpgrade } from "chartroom";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildChart, fixtureDirs, FIXTURES, loadChartFiles, writeRepository } from "../../scripts/fixtures.js";
import { packChart } from "../helpers/pack.js";
import { helm } from "../helpers/helm.js";
import { cli, copyPlatform, editFile, ROOT } from "../helpers/platform.js";

const run = promisify(execFile);

async function env(dir: string): Promise<NodeJS.ProcessEnv> {
  return { ...process.env, CHARTROOM_CACHE: join(dir, ".cache"), HELM_BIN: await helm(4) };
}

describe("the library", () => {
  it("writes the same charts.lock.json bytes as `chartroom lock`", async () => {
    const [a, b] = [await copyPlatform(), await copyPlatform()];
    for (const dir of [a, b]) await rm(join(dir, "charts.lock.json"));
    expect((await cli(a, ["lock"])).exitCode).toBe(0);
    await lock(await openProject({ dir: b, env: await env(b) }));
    const [fromCli, fromLibrary] = await Promise.all([readFile(join(a, "charts.lock.json"), "utf8"), readFile(join(b, "charts.lock.json"), "utf8")]);
    expect(fromLibrary).toBe(fromCli);
    expect(fromLibrary).toBe(await readFile(join(ROOT, "charts.lock.json"), "utf8"));
  });

  it("applies an upgrade plan as planned, even when a newer version appears in between", async () => {
    const dir = await copyPlatform();
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('version: "1.0.x"', 'version: "1.x"'));
    const project = await openProject({ dir, env: await env(dir) });
    const plan = await planUpgrade(project, { charts: ["widgets-operator"] });
    expect(plan.moves.map(({ chart, from, to }) => [chart, from, to])).toStrictEqual([["widgets-operator", "1.0.0", "1.1.0"]]);
    // The repository publishes 1.2.0 after the review.
    await publishNewer(join(dir, "charts"));
    expect((await planUpgrade(await openProject({ dir, env: await env(dir) }), { charts: ["widgets-operator"] })).moves[0]?.to).toBe("1.2.0");
    const report = await applyUpgrade(project, plan);
    expect(report.written).toBe(true);
    const locked = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")) as { charts: Record<string, { version: string }> };
    expect(locked.charts["widgets-operator"]?.version).toBe("1.1.0");
  });

  it("refuses a plan made against another lock", async () => {
    const dir = await copyPlatform();
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('version: "1.0.x"', 'version: "1.x"'));
    const project = await openProject({ dir, env: await env(dir) });
    const plan = await planUpgrade(project, { charts: ["widgets-operator"] });
    const stale = { ...plan, moves: plan.moves.map((move) => ({ ...move, from: "0.9.0" })) };
    await expect(applyUpgrade(project, stale)).rejects.toMatchObject({ code: "LOCK_STALE" });
  });
});

describe("the CLI on a terminal and off one", () => {
  const main = resolve(ROOT, "dist", "cli", "main.cjs");

  it("prints no colour and no progress when piped", async () => {
    const { stdout, stderr } = await run(process.execPath, [main, "plan", "--no-diff"], {
      cwd: ROOT,
      env: { ...process.env, CHARTROOM_CACHE: join(ROOT, ".cache", "tty-test"), HELM_BIN: await helm(4) },
    });
    expect(stdout).not.toMatch(/\u001b\[/);
    expect(stderr).toBe("");
  });

  it("shows colour and progress on a terminal, and no colour with NO_COLOR", async () => {
    const command = (extra: string) => `${extra} ${JSON.stringify(process.execPath)} ${JSON.stringify(main)} plan --no-diff`;
    const base = { ...process.env, CHARTROOM_CACHE: join(ROOT, ".cache", "tty-test"), HELM_BIN: await helm(4) };
    const onTerminal = (await run("script", ["-qec", command(""), "/dev/null"], { cwd: ROOT, env: base })).stdout;
    expect(onTerminal).toMatch(/\u001b\[3[123]m/);
    expect(onTerminal).toContain("checked webapp");
    const noColour = (await run("script", ["-qec", command("NO_COLOR=1"), "/dev/null"], { cwd: ROOT, env: base })).stdout;
    expect(noColour).not.toMatch(/\u001b\[3[123]m/);
  });
});

/** Every fixture chart again, plus widgets-operator 1.2.0 (1.1.0's files under a new version). */
async function publishNewer(out: string): Promise<void> {
  const mtime = new Date("2026-01-01T00:00:00Z");
  const charts = await Promise.all((await fixtureDirs()).map((dir) => buildChart(dir, mtime)));
  const files = await loadChartFiles(join(FIXTURES, "widgets-operator", "1.1.0"));
  files.set("Chart.yaml", Buffer.from((files.get("Chart.yaml") ?? Buffer.alloc(0)).toString("utf8").replace(/^version: .*$/m, "version: 1.2.0")));
  const chartYaml = parse((files.get("Chart.yaml") as Buffer).toString("utf8")) as Record<string, unknown>;
  charts.push({ name: "widgets-operator", version: "1.2.0", chartYaml, data: await packChart("widgets-operator", files, mtime) });
  await writeRepository(out, charts);
}
