import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { Script } from "node:vm";
import { cacheDir, RENDER_RECORDS } from "../util/cache-root.js";
import { installedFile } from "../util/installed.js";
import { tuneForShortRun, withV8Defaults } from "../util/v8-tuning.js";

/** What cli/start.ts exports: the CLI past `--help`. */
export interface Start {
  start(argv: string[]): Promise<void>;
}

/** dist/bundle/manifest.json: each bundle file's sha256 (scripts/build-cli.ts). */
type Manifest = Record<string, string>;

/**
 * cli/start.ts as the CLI bundle holds it (dist/bundle/chartroom.cjs,
 * scripts/build-cli.ts), compiled through V8's code cache: a run then
 * compiles almost nothing, a cold one included: the package ships a cache
 * made for the Node it was built with, and a run whose V8 refuses it writes
 * its own to chartroom's cache folder (v8/, owner-only). Both are keyed by
 * the bundle's digest and the V8 that made them; V8 refuses a cache that does
 * not fit (another flag, damaged), and it is made again. Where there is
 * no bundle (sources through tsx, a build without it), the module itself.
 *
 * The bundle's `require` of a kubernetes-models kind (the schema rule's
 * validators) is answered from dist/bundle/kinds.cjs when it holds the kind:
 * one file through the code cache, where node_modules costs a run ≈90 ms of
 * CPU to find and compile the 200 small files behind two kinds.
 *
 * V8 is tuned for a short run (util/v8-tuning.ts) before the bundle's
 * modules run: tuned from start(), their set-up had already grown the young
 * generation to two halves of 2 MB (1.5 MB more of a tiny diff's peak
 * memory; a warm operator diff pays 13–20 ms of CPU for it).
 */
export async function loadStart(env: NodeJS.ProcessEnv = process.env): Promise<Start> {
  // A cache without renderings (a fresh CI runner's) means helm runs and its output is parsed: a long enough run.
  const coldCache = !existsSync(join(cacheDir(env), RENDER_RECORDS));
  tuneForShortRun(process.versions.v8, { coldCache });
  // What every command loads from Node's own modules outside the bundle's require (bundleRequire):
  // its standard streams (a file's, a pipe's or a terminal's) and the argument parser util loads on first use.
  withV8Defaults(() => [process.stdout, process.stderr, parseArgs]);
  const folder = installedFile("bundle");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as Manifest;
  } catch {
    return import("./start.js");
  }
  const file = join(folder, "chartroom.cjs");
  const require = createRequire(file);
  let kinds: Record<string, () => unknown> | undefined;
  const kind = (id: string): (() => unknown) | undefined => {
    if (!id.startsWith("kubernetes-models/") || manifest["kinds.cjs"] === undefined) return undefined;
    kinds ??= compiled<Record<string, () => unknown>>(join(folder, "kinds.cjs"), manifest["kinds.cjs"], env);
    return kinds[id];
  };
  return compiled<Start>(
    file,
    manifest["chartroom.cjs"] ?? "",
    env,
    Object.assign(bundleRequire(require, kind), { resolve: require.resolve, cache: require.cache }),
    coldCache ? undefined : "warm",
  );
}

/**
 * The bundle's `require`: a kind kinds.cjs holds from there, anything else
 * from Node. Node compiles its own modules (node:crypto and the fifteen
 * behind it, streams, child_process…) through the code cache it embeds, and
 * V8 refuses that cache under the CLI's tuned flags as it refuses any: each
 * compiled from source cost a warm diff 5 % of its instructions, a cold check
 * 4 %. So each is loaded the first time with V8's defaults.
 */
export function bundleRequire(require: (id: string) => unknown, kind: (id: string) => (() => unknown) | undefined): (id: string) => unknown {
  const loaded = new Set<string>();
  return (id) => {
    const bundled = kind(id);
    if (bundled !== undefined) return bundled();
    if (!isBuiltin(id) || loaded.has(id)) return require(id);
    loaded.add(id);
    return withV8Defaults(() => require(id));
  };
}

/**
 * One CommonJS bundle file's exports, compiled through the code cache: the
 * user's (written at exit when no cache fitted), else the one the package
 * ships beside the bundle (bundle/v8/, made by scripts/build-cli.ts for the
 * Node it was built with): its `variant` where there is one (the CLI
 * bundle's for a warm run, whose functions are a quarter fewer to read). The
 * user's is read first: it exists only where the shipped one was missing or
 * refused, and reading the shipped one first would compile every run where
 * V8 refuses it (another Node, a V8 flag).
 */
function compiled<T>(
  file: string,
  digest: string,
  env: NodeJS.ProcessEnv,
  require: NodeJS.Require | ((id: string) => unknown) = createRequire(file),
  variant?: "warm",
): T {
  const name = codeCacheName(digest);
  const cacheFile = join(cacheDir(env), "v8", name);
  const shipped = (which?: "warm") => readIfThere(join(dirname(file), "v8", codeCacheName(digest, which)));
  const cachedData = readIfThere(cacheFile) ?? (variant === undefined ? undefined : shipped(variant)) ?? shipped();
  // The file is the module already wrapped (scripts/build-cli.ts): compiled as read, no copy.
  // It is ASCII (the build checks), so latin1 reads it as UTF-8 would: a 2 MB bundle
  // in ≈1 ms where decoding UTF-8 took 10–40 ms of every run.
  const source = readFileSync(file, "latin1");
  // kinds.cjs is compiled mid-run, when the CLI has changed a V8 flag that would make V8 refuse the cache.
  const script = withV8Defaults(() => new Script(source, { filename: file, cachedData }));
  if (cachedData === undefined || script.cachedDataRejected === true) process.once("exit", () => keepCache(cacheFile, script));
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, file, dirname(file));
  return module.exports;
}

/**
 * The code cache file of the bundle file whose sha256 is `digest`, for this V8
 * (the user's in v8/ of the cache, the shipped one in v8/ beside the bundle).
 * The package ships a second one of the CLI bundle, `warm`, for runs whose
 * cache folder holds renderings: made by such runs, it holds what reading them
 * back compiles, a quarter less to read at start than what rendering compiles.
 */
export function codeCacheName(digest: string, variant?: "warm"): string {
  return `${digest.slice(0, 32)}-${process.versions.v8}-${process.arch}${variant === undefined ? "" : `-${variant}`}.bin`;
}

/** A code cache's bytes; none where there is no file (or it cannot be read): compiled from source then. */
function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** The code V8 compiled this run, for the next (functions compiled lazily included, so written at exit). A cache that cannot be written is no failure. */
function keepCache(path: string, script: Script): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(
      temporary,
      withV8Defaults(() => script.createCachedData()),
      { mode: 0o600 },
    );
    renameSync(temporary, path);
  } catch {
    // A read-only or full cache folder: the next run compiles again.
  }
}
