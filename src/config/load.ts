import { access } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";
import { ChartroomError } from "../errors/index.js";
import { maxFileBytes, readFileFor } from "../util/fs.js";
import { sha256Hex } from "../util/hash.js";
import { normaliseConfig } from "./normalise.js";
import type { Config } from "./types.js";

export const CONFIG_NAMES = ["chartroom.config.ts", "chartroom.config.mts", "chartroom.config.js", "chartroom.config.mjs"];

/** Find the config in `cwd` (or take `explicit`), load it, normalise it. */
export async function loadConfig(options: { cwd?: string; file?: string } = {}): Promise<Config> {
  const file = await findConfig(options.cwd ?? process.cwd(), options.file);
  // A folder or a pipe where the config should be: said plainly, not as a loader's error.
  const bytes = await readFileFor(file, "the config file", { maxBytes: maxFileBytes() });
  const written = await importOnce(file, bytes);
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

// The config imports `defineConfig` from "chartroom". Point that at this
// copy's small define module, not the package entry: jiti would otherwise
// transpile the whole library on every load (≈0.6 s against ≈0.1 s).
const selfEntry = join(dirname(fileURLToPath(import.meta.url)), "define");

// A config that imports nothing of its own and reads neither the environment
// nor the clock is what its bytes say: loaded once
// per process for each content (diff --base loads the same config twice).
const loaded = new Map<string, Promise<unknown>>();

function importOnce(file: string, bytes: Buffer): Promise<unknown> {
  if (/from\s+["']\.|import\s*\(|require\s*\(|import\s+["']\.|process\.env|Date|Math\.random/.test(bytes.toString("utf8"))) return importConfig(file);
  const key = sha256Hex(bytes);
  let hit = loaded.get(key);
  if (hit === undefined) {
    hit = importConfig(file);
    loaded.set(key, hit);
    hit.catch(() => loaded.delete(key));
  }
  return hit;
}

async function importConfig(file: string): Promise<unknown> {
  try {
    const module = (await importTypeScript(file, { chartroom: selfEntry })) as { default?: unknown };
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

// Write errors of jiti's own transpile cache (a full or read-only TMPDIR), not of the module.
const CACHE_ERRNO = new Set(["ENOSPC", "EROFS", "EACCES", "EPERM", "EDQUOT", "ENOTDIR"]);

/**
 * A TypeScript module (the config, a policy rule) through jiti, with
 * "chartroom" pointed where `alias` says. jiti caches what it transpiles on
 * disk; when that cache cannot be written, the module is loaded again
 * without it rather than failing as if the module were broken.
 */
export async function importTypeScript(file: string, alias: Record<string, string>): Promise<unknown> {
  try {
    return await createJiti(import.meta.url, { alias, moduleCache: false }).import(file);
  } catch (error) {
    if (!CACHE_ERRNO.has(String((error as NodeJS.ErrnoException).code))) throw error;
    return createJiti(import.meta.url, { alias, moduleCache: false, fsCache: false }).import(file);
  }
}

/** Where a loader's error message says the problem is: `file:line:column`, or babel's `(line:column)`. */
export function locationIn(message: string, file: string): { line?: number; column?: number } {
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const located = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(message) ?? /\((\d+):(\d+)\)/.exec(message);
  return located === null ? {} : { line: Number(located[1]), column: Number(located[2]) };
}
