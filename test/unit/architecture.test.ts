import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/platform.js";

const SRC = join(ROOT, "src");

/**
 * The layers of ../shared/DESIGN.md, lowest first: a folder imports only from
 * folders ranked before it (and from itself). `index.ts` is the public entry.
 */
const RANKS = [
  "errors", "model", "util", "config", "store", "sources", "chart", "versions", "engine", "lockfile",
  "values", "render", "diff", "policy", "report", "vcs", "workflows", "codegen", "deploy", "cli", "index.ts",
];

/** Folders of pure logic: data in, data out; no file system, network or processes. */
const PURE = ["model", "versions", "engine", "diff", "policy", "report"];
const PURE_FILES = ["lockfile/schema.ts", "lockfile/stale.ts", "sources/helm-index/file.ts", "sources/helm-index/scan.ts", "values/coalesce.ts", "values/contract.ts", "render/manifest.ts", "util/fast-yaml.ts"];

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

function layerOf(path: string): string {
  const [first = ""] = relative(SRC, path).split("/");
  return first;
}

/** Every import between two layers, as [from, to, file]. */
async function layerImports(): Promise<[string, string, string][]> {
  const out: [string, string, string][] = [];
  for (const file of await sourceFiles()) {
    for (const specifier of await importsOf(file)) {
      if (!specifier.startsWith(".")) continue;
      const target = join(file, "..", specifier);
      const [from, to] = [layerOf(file), layerOf(target)];
      if (from !== to) out.push([from, to, relative(SRC, file)]);
    }
  }
  return out;
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
    expect(await importsOf(join(SRC, "render", "run.ts"))).toContain("node:child_process");
    expect(await importsOf(join(SRC, "render", "render.ts"))).toContain("../store/records.js");
  });

  it("puts every folder of src/ in the rank table", async () => {
    const layers = new Set((await sourceFiles()).map(layerOf));
    expect([...layers].filter((layer) => !RANKS.includes(layer))).toStrictEqual([]);
  });

  it("imports only from lower layers", async () => {
    const backward = (await layerImports()).filter(([from, to]) => RANKS.indexOf(to) >= RANKS.indexOf(from)).map(([from, to, file]) => `${file}: ${from} → ${to}`);
    expect(backward).toStrictEqual([]);
  });

  it("has no cycle between folders", async () => {
    const edges = new Map<string, Set<string>>();
    for (const [from, to] of await layerImports()) (edges.get(from) ?? edges.set(from, new Set()).get(from))?.add(to);
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (node: string, trail: string[]) => {
      if (state.get(node) === "done") return;
      if (state.get(node) === "open") return void cycles.push([...trail.slice(trail.indexOf(node)), node].join(" → "));
      state.set(node, "open");
      for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
      state.set(node, "done");
    };
    for (const node of edges.keys()) visit(node, []);
    expect(cycles).toStrictEqual([]);
  });

  it("keeps the pure folders and files free of I/O", async () => {
    const pure = (path: string) => PURE.includes(path.split("/")[0] ?? "") || PURE_FILES.includes(path);
    expect(await violations(pure, (s) => IO_MODULES.test(s))).toStrictEqual([]);
  });

  it("lets only render/ (helm) and vcs/ (git) spawn processes", async () => {
    expect(await violations((path) => !path.startsWith("render/") && !path.startsWith("vcs/"), (s) => s === "node:child_process")).toStrictEqual([]);
  });

  it("lets only sources/ open connections", async () => {
    expect(await violations((path) => !path.startsWith("sources/"), (s) => /^node:(http|https|net|tls)$/.test(s))).toStrictEqual([]);
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
