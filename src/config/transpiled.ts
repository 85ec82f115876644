import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { getVersion, transform } from "sucrase";
import { sha256Hex } from "../util/hash.js";
import { unobserved } from "../util/observe.js";

// What a kept file holds: sucrase's code for one source, nothing around it.
const FORMAT = 1;

/**
 * A module's source as sucrase writes it in CommonJS (types stripped from
 * TypeScript), kept in the cache folder's `config-code/` (owner-only) by a
 * digest of the source, its path and sucrase's version: a warm diff of the
 * bench's app chart reads it where sucrase parsed and wrote the config again,
 * ≈10 M of its 380 M instructions. Read and written outside any observation
 * (the cache is chartroom's, not what the config read); a file that cannot be
 * read is made again, one that cannot be written is no failure, and none is
 * written before the cache folder exists. Throws what
 * sucrase throws on a source it cannot read.
 */
export function transpiled(source: string, file: string, cacheRoot?: string): string {
  const transforms: ("typescript" | "imports")[] = /\.[cm]?tsx?$/.test(file) ? ["typescript", "imports"] : ["imports"];
  const made = () => transform(source, { transforms, filePath: file }).code;
  if (cacheRoot === undefined) return made();
  const path = join(cacheRoot, "config-code", `${sha256Hex(JSON.stringify([FORMAT, getVersion(), transforms, file, source]))}.js`);
  return unobserved(() => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      // Not kept yet (or unreadable): made below.
    }
    const code = made();
    // Kept only in a cache folder the work has made already (an archive fetched, a render kept):
    // a run that fails at its config, or just after, leaves no folder behind it.
    if (!existsSync(cacheRoot)) return code;
    const temporary = `${path}.${process.pid}.tmp`;
    let folder = false;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      folder = true;
      writeFileSync(temporary, code, { mode: 0o600 });
      renameSync(temporary, path);
    } catch {
      // A read-only or full cache folder: the next run transpiles again, and no half-written file stays.
      if (folder) rmSync(temporary, { force: true });
    }
    return code;
  });
}
