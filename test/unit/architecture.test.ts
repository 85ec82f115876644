import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/platform.js";

const SRC = join(ROOT, "src");

async function sourceFiles(dir = SRC): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (path.endsWith(".ts")) out.push(path);
  }
  return out;
}

async function importsOf(file: string): Promise<string[]> {
  const text = await readFile(file, "utf8");
  return [...text.matchAll(/^\s*(?:import|export)[^"']*?from\s+["']([^"']+)["']|import\(["']([^"']+)["']\)/gm)].map((m) => m[1] ?? m[2] ?? "");
}

async function violations(files: (path: string) => boolean, forbidden: (specifier: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  for (const file of (await sourceFiles()).filter((path) => files(relative(SRC, path)))) {
    for (const specifier of await importsOf(file)) {
      if (forbidden(specifier)) found.push(`${relative(SRC, file)} imports ${specifier}`);
    }
  }
  return found;
}

const IO_MODULES = /^node:(fs|fs\/promises|http|https|net|child_process|tls|dgram)$/;

describe("architecture", () => {
  it("reads import lines the way the checks below rely on", async () => {
    expect(await importsOf(join(SRC, "render", "helm-binary.ts"))).toContain("node:child_process");
    expect(await importsOf(join(SRC, "cli", "run.ts"))).toContain("./commands/lock.js");
  });

  it("keeps the pure core free of I/O", async () => {
    const pure = ["lock/resolve.ts", "lock/stale.ts", "lock/outdated.ts", "lock/schema.ts", "deploy/engine.ts", "config/normalise.ts", "sources/index-file.ts"];
    expect(await violations((path) => pure.includes(path), (s) => IO_MODULES.test(s))).toStrictEqual([]);
  });

  it("lets only render/ (helm) and vcs/ (git) spawn processes", async () => {
    expect(await violations((path) => !path.startsWith("render/") && !path.startsWith("vcs/"), (s) => s === "node:child_process")).toStrictEqual([]);
  });

  it("lets only sources/ open connections", async () => {
    expect(await violations((path) => !path.startsWith("sources/"), (s) => /^node:(http|https|net|tls)$/.test(s))).toStrictEqual([]);
  });

  it("lets nothing outside cli/ import cli/", async () => {
    expect(await violations((path) => !path.startsWith("cli/"), (s) => s.includes("/cli/"))).toStrictEqual([]);
  });

  it("lets only deploy/ import @pulumi", async () => {
    expect(await violations((path) => !path.startsWith("deploy/"), (s) => s.startsWith("@pulumi/"))).toStrictEqual([]);
  });

  it("lets only cli/ print or exit", async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles()) {
      if (relative(SRC, file).startsWith("cli/")) continue;
      if (/process\.(exit|stdout|stderr)|console\.(log|error|warn)/.test(await readFile(file, "utf8"))) offenders.push(relative(SRC, file));
    }
    expect(offenders).toStrictEqual([]);
  });
});
