import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A file of chartroom's own installation (the define module configs import,
 * the policy data, the built-in rules' folder), under the compiled tree's
 * root: dist/, dist/cjs/, or src/ when run from sources. This module sits one
 * folder below that root, and so does every file of the CLI bundle
 * (dist/bundle/), which is why the path is computed here and nowhere else.
 */
export function installedFile(...parts: string[]): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", ...parts);
}

/** Whether this code runs from the CLI bundle (dist/bundle/, scripts/build-cli.ts), not from modules (tsc's dist/, sources through tsx). */
export function runsFromBundle(): boolean {
  return basename(dirname(fileURLToPath(import.meta.url))) === "bundle";
}
