import { readdir, readFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/platform.js";

const SRC = join(ROOT, "src");

/**
 * The ranks of ../shared/DESIGN.md, lowest first, as the README's Layout
 * lists them: a folder imports only from folders ranked before it (and from
 * itself). `index.ts` is the public entry, above them all.
 */
function ranksOfReadme(text: string): string[] {
  const layout = text.slice(text.indexOf("## Layout"));
  return [...[...layout.matchAll(/^src\/([a-z]+)\/ /gm)].map((match) => match[1] ?? ""), "index.ts"];
}

const RANKS = ranksOfReadme(await readFile(join(ROOT, "README.md"), "utf8"));

/** Folders of pure logic: data in, data out; no file system, network or processes. */
const PURE_CORE = JSON.parse(await readFile(join(ROOT, "test/pure-core.json"), "utf8")) as { folders: string[]; files: string[] };
const PURE = PURE_CORE.folders;
const PURE_FILES = PURE_CORE.files;

async function sourceFiles(dir = SRC): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (path.endsWith(".ts")) out.push(path);
  }
  return out;
}

const BUILTIN = new Set(builtinModules.filter((name) => !name.startsWith("_")));

interface Named {
  specifier: string;
  /** Erased at build time (`import type`, `export type`, or every name type-only): no code runs. */
  typeOnly: boolean;
}

/**
 * Every module a file names, as TypeScript parses them: static, type-only,
 * side-effect (`import "./x.js"`), re-exports and dynamic `import("…")`.
 * A Node builtin is named with its `node:` prefix whichever way it was written.
 */
const parsed = new Map<string, Promise<Named[]>>();

/** Each file parsed once for all the checks. */
function namedBy(file: string): Promise<Named[]> {
  let hit = parsed.get(file);
  if (hit === undefined) {
    hit = parse(file);
    parsed.set(file, hit);
  }
  return hit;
}

async function parse(file: string): Promise<Named[]> {
  const source = ts.createSourceFile(file, await readFile(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: Named[] = [];
  const add = (literal: ts.Expression | undefined, typeOnly: boolean) => {
    if (literal === undefined || !ts.isStringLiteralLike(literal)) return;
    const name = literal.text;
    out.push({ specifier: BUILTIN.has(name) ? `node:${name}` : name, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const everyNameTyped =
        clause !== undefined && clause.name === undefined && named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly);
      add(node.moduleSpecifier, clause?.isTypeOnly === true || everyNameTyped);
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause !== undefined && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node.moduleSpecifier, node.isTypeOnly || (named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly)));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "onFirstUse") {
      // A Node module required at its first use (util/on-first-use.ts) is the caller's import all the same.
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

async function importsOf(file: string): Promise<string[]> {
  return (await namedBy(file)).map((item) => item.specifier);
}

/** The modules whose code runs when this file loads. */
async function runtimeImportsOf(file: string): Promise<string[]> {
  return (await namedBy(file)).filter((item) => !item.typeOnly).map((item) => item.specifier);
}

function layerOf(path: string): string {
  const [first = ""] = relative(SRC, path).split("/");
  return first;
}

/** The source file a relative specifier names. */
function resolved(file: string, specifier: string): string {
  return join(file, "..", specifier).replace(/\.js$/, ".ts");
}

/** Every import between two layers, as [from, to, file]. */
async function layerImports(): Promise<[string, string, string][]> {
  const out: [string, string, string][] = [];
  for (const file of await sourceFiles()) {
    for (const specifier of await importsOf(file)) {
      if (!specifier.startsWith(".")) continue;
      const [from, to] = [layerOf(file), layerOf(resolved(file, specifier))];
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

/**
 * What a file reaches through its imports, however deep: each forbidden
 * module with the chain of files that leads to it.
 */
async function reaches(start: string, forbidden: (specifier: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = async (file: string, trail: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of await runtimeImportsOf(file).catch(() => [])) {
      if (forbidden(specifier)) out.push([...trail, relative(SRC, file), specifier].join(" → "));
      else if (specifier.startsWith(".")) await visit(resolved(file, specifier), [...trail, relative(SRC, file)]);
    }
  };
  await visit(start, []);
  return out;
}

const IO_MODULES = /^node:(fs|fs\/promises|http|https|http2|net|child_process|tls|dgram|dns|dns\/promises|worker_threads|cluster)$/;

describe("architecture", () => {
  it("reads import lines the way the checks below rely on", async () => {
    expect(await importsOf(join(SRC, "render", "run.ts"))).toContain("node:child_process");
    expect(await importsOf(join(SRC, "render", "render.ts"))).toContain("../store/records.js");
    const probe = join(ROOT, "test", "unit", "fixtures", "imports-probe.ts.txt");
    expect(await importsOf(probe)).toStrictEqual(["./side-effect.js", "node:fs", "../lazy.js", "node:path", "./types.js"]);
    expect(await runtimeImportsOf(probe)).toStrictEqual(["./side-effect.js", "node:fs", "../lazy.js", "node:path"]);
  });

  it("takes its rank table from the README's Layout, which is DESIGN.md's", () => {
    expect(RANKS).toStrictEqual([
      "errors",
      "model",
      "util",
      // Added after DESIGN.md: container image references and pinning, read by config-free layers above (policy, project, deploy).
      "images",
      "config",
      "store",
      "sources",
      "chart",
      "versions",
      "engine",
      "lockfile",
      "values",
      "render",
      "diff",
      "policy",
      "report",
      "vcs",
      // An edge like sources/ (DESIGN.md: "one folder, one interface, read-only except for dry runs"), used by workflows.
      "cluster",
      "project",
      "workflows",
      "codegen",
      "deploy",
      "cli",
      "index.ts",
    ]);
  });

  it("puts every folder of src/ in the rank table", async () => {
    const layers = new Set((await sourceFiles()).map(layerOf));
    expect([...layers].filter((layer) => !RANKS.includes(layer))).toStrictEqual([]);
  });

  it("imports only from lower layers", async () => {
    const backward = (await layerImports())
      .filter(([from, to]) => RANKS.indexOf(to) >= RANKS.indexOf(from))
      .map(([from, to, file]) => `${file}: ${from} → ${to}`);
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

  it("keeps the pure folders and files free of I/O, through every import", async () => {
    const pure = (path: string) => PURE.includes(path.split("/")[0] ?? "") || PURE_FILES.includes(path);
    const found: string[] = [];
    for (const file of (await sourceFiles()).filter((path) => pure(relative(SRC, path)))) found.push(...(await reaches(file, (s) => IO_MODULES.test(s))));
    expect([...new Set(found)]).toStrictEqual([]);
  });

  it("lets only render/ (helm) and vcs/ (git) spawn processes", async () => {
    expect(
      await violations(
        (path) => !path.startsWith("render/") && !path.startsWith("vcs/"),
        (s) => s === "node:child_process",
      ),
    ).toStrictEqual([]);
  });

  it("lets only sources/ and the cluster client open connections", async () => {
    expect(
      await violations(
        (path) => !path.startsWith("sources/") && path !== "cluster/client.ts",
        (s) => /^node:(http|https|net|tls)$/.test(s),
      ),
    ).toStrictEqual([]);
  });

  it("lets only deploy/ import @pulumi", async () => {
    expect(
      await violations(
        (path) => !path.startsWith("deploy/"),
        (s) => s.startsWith("@pulumi/"),
      ),
    ).toStrictEqual([]);
  });

  it("keeps what differs between engines in src/engine/: no branch on an engine's name elsewhere, the union of names written once", async () => {
    const branches: string[] = [];
    const unions: string[] = [];
    for (const file of await sourceFiles()) {
      const path = relative(SRC, file);
      const text = await readFile(file, "utf8");
      if (!path.startsWith("engine/") && /[!=]==\s*["'](chart|release)["']|["'](chart|release)["']\s*[!=]==|case\s+["'](chart|release)["']\s*:/.test(text))
        branches.push(path);
      if (/["']chart["']\s*\|\s*["']release["']|["']release["']\s*\|\s*["']chart["']/.test(text)) unions.push(path);
    }
    expect(branches).toStrictEqual([]);
    expect(unions).toStrictEqual([]);
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
