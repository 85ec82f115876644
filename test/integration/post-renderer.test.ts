// A chart's post-renderer is a program chartroom cannot see into: editing it,
// or what it reads (a kustomization and its patches), changes what helm
// renders while every input of the render key stays the same. A review must
// then show what the post-renderer now makes, never a cached rendering, and
// the rules must run on it again.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { openProject } from "../../src/project/project.js";
import { deploymentPlans } from "../../src/workflows/deployments.js";
import { helm } from "../helpers/helm.js";
import { copyPlatform, editFile } from "../helpers/platform.js";
import { compiledCli, runGroup } from "../helpers/process.js";

describe("a chart with a post-renderer", () => {
  it("is rendered and checked afresh after its post-renderer changes", async () => {
    const dir = await copyPlatform();
    await editFile(join(dir, "chartroom.config.ts"), (text) =>
      text.replace('namespace: "ledger" }', 'namespace: "ledger", postRenderer: { command: "./post-render.sh", args: [] } }'),
    );
    // Run as users run it, in the platform's folder, where helm finds ./post-render.sh.
    // Helm 4 runs a post-renderer only as a plugin; Helm 3 runs the command.
    const env = { HELM_BIN: await helm(3), CHARTROOM_CACHE: join(dir, ".cache"), CHARTROOM_TODAY: "2026-11-30", NO_COLOR: "1" };
    const cli = async (args: string[], cwd = dir) => {
      const { code, stdout, stderr } = await runGroup(process.execPath, [compiledCli(), ...args], { cwd, env, timeoutMs: 120_000 });
      return { exitCode: code, output: stdout, errors: stderr };
    };
    const postRender = (sed: string) => writeFile(join(dir, "post-render.sh"), `#!/bin/sh\nsed "${sed}"\n`, { mode: 0o755 });

    await postRender("s/- port: 80$/- port: 8081/");
    const first = await cli(["render", "ledger", "--stack", "dev"]);
    expect(first.errors).toBe("");
    expect(first.output).toContain("- port: 8081");

    await postRender("s/- port: 80$/- port: 8082/");
    const second = await cli(["render", "ledger", "--stack", "dev"]);
    expect(second.output).toContain("- port: 8082");
    expect(second.output).not.toContain("- port: 8081");

    // The command is a path from the platform's folder, as every path in the config is:
    // found from another folder too (`--config`), as a Pulumi program in a subfolder finds it.
    const elsewhere = await cli(["render", "ledger", "--stack", "dev", "--config", join(dir, "chartroom.config.ts")], join(dir, "charts"));
    expect(elsewhere.errors).toBe("");
    expect(elsewhere.output).toContain("- port: 8082");

    // A Pulumi program in another folder (here the repository's) gives the engine's helm
    // the same script, by a path from the program's folder: the same on every machine.
    const plans = await deploymentPlans(await openProject({ dir, env }), { stack: "dev" });
    const planned = plans.find((plan) => plan.spec.key === "ledger")?.postRenderer;
    expect(planned?.command.startsWith("../")).toBe(true);
    expect(resolve(process.cwd(), planned?.command ?? "")).toBe(join(dir, "post-render.sh"));

    await postRender("s/^kind: Service$/kind: Service/");
    const clean = await cli(["check", "ledger", "--stack", "dev"]);
    expect(clean.output).not.toContain("unknown-field");
    expect(clean.exitCode).toBe(0);

    await postRender("s/^kind: Service$/kind: Service\\nbogus: 1/");
    const broken = await cli(["check", "ledger", "--stack", "dev"]);
    expect(broken.output).toContain('Service ledger/ledger ledger [dev] bogus: unknown field "bogus"');
    expect(broken.exitCode).toBe(2);

    // Nothing of it was kept: the policies rendered the stack's other charts (and kept
    // those), never ledger; no findings, which depend on every chart of the stack.
    const kept = await readdir(join(dir, ".cache", "render"));
    expect(kept).toHaveLength(3);
    for (const name of kept) expect(await readFile(join(dir, ".cache", "render", name), "utf8")).not.toContain('"namespace":"ledger"');
    await expect(readdir(join(dir, ".cache", "findings"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
