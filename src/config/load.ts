import { readFileSync } from "node:fs";
import { access } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { createRequire } from "node:module";
import type { createJiti as CreateJiti, JitiOptions } from "jiti";
import { transform as sucrase } from "sucrase";
import { ChartroomError } from "../errors/index.js";
import { maxFileBytes, readFileFor } from "../util/fs.js";
import { sha256Hex } from "../util/hash.js";
import { installedFile } from "../util/installed.js";
import { observed, stillHolds, unobserved, type Inputs } from "../util/observe.js";
import { evaluateAlone } from "./alone.js";
import * as define from "./define.js";
import { normaliseConfig } from "./normalise.js";
import type { Config } from "./types.js";

export const CONFIG_NAMES = ["chartroom.config.ts", "chartroom.config.mts", "chartroom.config.js", "chartroom.config.mjs"];

/** Find the config in `cwd` (or take `explicit`), load it, normalise it. */
export async function loadConfig(options: { cwd?: string; file?: string; cacheRoot?: string } = {}): Promise<Config> {
  const file = await findConfig(options.cwd ?? process.cwd(), options.file);
  // A folder or a pipe where the config should be: said plainly, not as a loader's error.
  const bytes = await readFileFor(file, "the config file", { maxBytes: maxFileBytes() });
  const written = await importOnce(file, bytes, options.cacheRoot);
  return normaliseConfig(written, file);
}

async function findConfig(cwd: string, explicit?: string): Promise<string> {
  if (explicit !== undefined) {
    const file = resolve(cwd, explicit);
    if (await exists(file)) return file;
    throw new ChartroomError("CONFIG_NOT_FOUND", `config file not found: ${file}`, {
      place: { file },
      hint: "check the --config path",
    });
  }
  for (const name of CONFIG_NAMES) {
    const file = join(cwd, name);
    if (await exists(file)) return file;
  }
  throw new ChartroomError("CONFIG_NOT_FOUND", `no chartroom.config.ts in ${cwd}`, {
    place: { file: join(cwd, "chartroom.config.ts") },
    hint: "run chartroom from the platform's folder, or pass --config <file>",
  });
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

// A config imports `defineConfig` from "chartroom", a policy rule
// `definePolicy`. Point that at this copy's small define module, not the
// package entry: jiti would otherwise transpile the whole library on every
// load (≈0.6 s against ≈0.1 s); a module run alone gets the one in memory.
const selfEntry = installedFile("config", "define");
const inMemory = { chartroom: { ...define, __esModule: true } };

// A config is what its bytes say plus what it read as it loaded (the files
// it imports, the environment, the clock), observed as it loads: the next
// load of the same bytes reuses the result while all of that still holds
// (diff --base loads the same config twice, in two checkouts).
const loaded = new Map<string, Promise<{ value: unknown; inputs: Inputs }>[]>();

async function importOnce(file: string, bytes: Buffer, cacheRoot: string | undefined): Promise<unknown> {
  const key = sha256Hex(bytes);
  const root = dirname(file);
  for (const earlier of loaded.get(key) ?? []) {
    const done = await earlier.catch(() => undefined);
    if (done !== undefined && stillHolds(done.inputs, root, process.env)) return done.value;
  }
  const load = observed(root, () => importConfig(file, cacheRoot), isLoaderCache);
  const list = loaded.get(key) ?? loaded.set(key, []).get(key) ?? [];
  list.push(load);
  // A failed load is not kept; nor one that can never be reused.
  load.then(
    (done) => done.inputs.volatile && list.splice(list.indexOf(load), 1),
    () => list.splice(list.indexOf(load), 1),
  );
  return (await load).value;
}

async function importConfig(file: string, cacheRoot: string | undefined): Promise<unknown> {
  try {
    const module = (await importTypeScript(file, cacheRoot)) as { default?: unknown };
    return module.default ?? module;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ChartroomError("CONFIG_LOAD_FAILED", `could not load the config: ${message.split("\n")[0]?.trim()}`, {
      place: { file, ...locationIn(message, file) },
      hint: "fix the syntax error; the file must `export default defineConfig({ ... })`",
      cause: error,
    });
  }
}

/** jiti's transpile cache (in TMPDIR, or node_modules/.cache): derived from the files it reads, not an input of its own. */
export function isLoaderCache(path: string): boolean {
  return path.startsWith(join(tmpdir(), "jiti") + sep) || path.includes(`${sep}node_modules${sep}.cache${sep}jiti${sep}`);
}

type Transform = NonNullable<JitiOptions["transform"]>;

const require = createRequire(import.meta.url);
// jiti from its own files, never bundled: it evaluates some modules (top-level
// await, a syntax error to report) through a native import() of a data: URL,
// which the CLI bundle has not. Imported as an ES module instead, Node would
// first scan its 190 KB of CommonJS for export names.
let jiti: typeof CreateJiti | undefined;
function createJiti(...args: Parameters<typeof CreateJiti>): ReturnType<typeof CreateJiti> {
  jiti ??= (require("jiti") as { createJiti: typeof CreateJiti }).createJiti;
  return jiti(...args);
}

/**
 * Types stripped and imports made CommonJS by sucrase, as jiti evaluates
 * them (top-level await, dynamic import and import.meta included): a few
 * milliseconds where jiti's own babel costs ≈0.25 s of CPU to load. What
 * sucrase cannot read goes to babel, whose errors are the ones users see.
 */
const transpile: Transform = (options) => {
  try {
    return { code: sucrase(options.source, { transforms: options.ts === true ? ["typescript", "imports"] : ["imports"], filePath: options.filename }).code };
  } catch {
    return viaBabel(options);
  }
};

let babel: Transform | undefined;

/**
 * jiti's own transpiler, loaded only when needed and outside any
 * observation: babel's start-up lists the environment, which is not what the
 * config read.
 */
const viaBabel: Transform = (options) =>
  unobserved(() => {
    babel ??= createRequire(require.resolve("jiti"))("../dist/babel.cjs") as Transform;
    return babel(options);
  });

// Write errors of jiti's own transpile cache (a full or read-only TMPDIR), not of the module.
const CACHE_ERRNO = new Set(["ENOSPC", "EROFS", "EACCES", "EPERM", "EDQUOT", "ENOTDIR"]);

/**
 * A TypeScript module (the config, a policy rule), with "chartroom" pointed
 * at the define module: run alone when it imports nothing else (alone.ts),
 * through jiti otherwise. jiti caches what it transpiles on disk; when that
 * cache cannot be written, the module is loaded again without it rather than
 * failing as if the module were broken.
 */
export async function importTypeScript(file: string, cacheRoot?: string): Promise<unknown> {
  const alone = evaluateAlone(file, inMemory, cacheRoot);
  if (alone !== undefined) return alone.exports;
  const alias = { chartroom: selfEntry };
  try {
    try {
      return await createJiti(import.meta.url, { alias, moduleCache: false, transform: transpile }).import(file);
    } catch (error) {
      if (!CACHE_ERRNO.has(String((error as NodeJS.ErrnoException).code))) throw error;
      return await createJiti(import.meta.url, { alias, moduleCache: false, fsCache: false, transform: transpile }).import(file);
    }
  } catch (error) {
    throw error instanceof SyntaxError ? located(error, file) : error;
  }
}

/**
 * sucrase passes some broken code through, and the engine's SyntaxError
 * then names no place: babel's reading of the same file says where it is
 * (`(line:column)`). An error from a file the module imports stays as it is.
 */
function located(error: SyntaxError, file: string): Error {
  if (Object.keys(locationIn(error.message, file)).length > 0) return error;
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch {
    return error;
  }
  const said = viaBabel({ source, filename: file, ts: /\.[cm]?tsx?$/.test(file), async: true }).error as { message?: unknown } | undefined;
  return said === undefined ? error : new SyntaxError(String(said.message ?? said).replace(/^[^:]*: /, ""), { cause: error });
}

/** Where a loader's error message says the problem is: `file:line:column`, or babel's `(line:column)`. */
export function locationIn(message: string, file: string): { line?: number; column?: number } {
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const located = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(message) ?? /\((\d+):(\d+)\)/.exec(message);
  return located === null ? {} : { line: Number(located[1]), column: Number(located[2]) };
}
