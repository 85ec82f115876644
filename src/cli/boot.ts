import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { cacheDir } from "../util/cache-root.js";
import { installedFile } from "../util/installed.js";

/** What cli/start.ts exports: the CLI past `--help`. */
export interface Start {
  start(argv: string[]): Promise<void>;
}

/**
 * cli/start.ts as the CLI bundle holds it (dist/bundle/chartroom.cjs,
 * scripts/build-cli.ts), compiled through V8's code cache: a run then
 * compiles almost nothing. The cache lives in chartroom's cache folder
 * (v8/, owner-only), keyed by the bundle's digest and the V8 that made it;
 * V8 refuses a cache that does not fit, and it is made again. Where there is
 * no bundle (sources through tsx, a build without it), the module itself.
 */
export async function loadStart(env: NodeJS.ProcessEnv = process.env): Promise<Start> {
  const folder = installedFile("bundle");
  let digest: string;
  try {
    digest = (JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as { sha256: string }).sha256;
  } catch {
    return import("./start.js");
  }
  const file = join(folder, "chartroom.cjs");
  const cacheFile = join(cacheDir(env), "v8", `${digest.slice(0, 32)}-${process.versions.v8}-${process.arch}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet (or unreadable): compiled from source, and cached at exit.
  }
  const script = new Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected === true) process.once("exit", () => keepCache(cacheFile, script));
  const module = { exports: {} as Start };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/** The code V8 compiled this run, for the next (functions compiled lazily included, so written at exit). A cache that cannot be written is no failure. */
function keepCache(path: string, script: Script): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    renameSync(temporary, path);
  } catch {
    // A read-only or full cache folder: the next run compiles again.
  }
}
