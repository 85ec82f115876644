import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { LOCKFILE_NAME } from "../../lockfile/constants.js";

/**
 * Pulumi runs a program in its `main` folder (say pulumi/), while the
 * platform's files sit at the project's root: the nearest folder up from
 * there that holds charts.lock.json.
 */
export function projectRoot(): string {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, LOCKFILE_NAME))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}
