import { readFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname } from "node:path";
import { compileFunction } from "node:vm";
import { transpiled } from "./transpiled.js";

/**
 * A module that imports nothing but the names in `provided` and Node's
 * built-ins — a config or a policy rule as people write them — run here from
 * sucrase's CommonJS, with no loader to start: jiti costs ≈40 ms of CPU to
 * load and to look up its transpile cache, on every command. Undefined when
 * the module imports anything else or uses what only a module loader gives
 * (import.meta, top-level await), or when it does not parse: jiti
 * loads it then, and its errors are the ones users see. What the module
 * throws as it runs is thrown as it is. With `cacheRoot`, sucrase's code is
 * kept there for the next run (transpiled.ts).
 */
export function evaluateAlone(file: string, provided: Readonly<Record<string, unknown>>, cacheRoot?: string): { exports: unknown } | undefined {
  // Read through node:fs, as jiti reads it: an observer sees the same input.
  const source = readFileSync(file, "utf8");
  let code: string;
  try {
    code = transpiled(source, file, cacheRoot);
  } catch {
    return undefined;
  }
  // sucrase leaves import.meta as it is; import() it makes a require (of a built-in, it runs here).
  if (/\bimport\s*\.\s*meta\b/.test(code)) return undefined;
  // Every `require` a plain call with a literal name (one in a string or a comment sends the module to jiti: slower, never wrong).
  const requests = [...code.matchAll(/\brequire\(\s*(["'])([^"'\\]+)\1\s*\)/g)].map((match) => match[2] as string);
  if (requests.length !== (code.match(/\brequire\b/g) ?? []).length) return undefined;
  if (!requests.every((name) => Object.hasOwn(provided, name) || isBuiltin(name))) return undefined;
  let run: (...args: unknown[]) => void;
  try {
    run = compileFunction(code, ["exports", "require", "module", "__filename", "__dirname"], { filename: file }) as typeof run;
  } catch (error) {
    // Top-level await, or code sucrase let through broken.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  const module = { exports: {} as unknown };
  const builtin = createRequire(file);
  const require = (name: string): unknown => (Object.hasOwn(provided, name) ? provided[name] : builtin(name));
  run.call(module.exports, module.exports, require, module, file, dirname(file));
  return module;
}
