import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./platform.js";

/** The folder Renovate is installed in by npm test's set-up (scripts/ensure-test-tools.ts). */
export function renovateDir(): string {
  const cache = join(ROOT, ".cache", "test");
  const dir = readdirSync(cache).find((name) => name.startsWith("renovate-") && existsSync(join(cache, name, "node_modules", ".bin", "renovate")));
  if (dir === undefined) throw new Error("Renovate is not installed: run `npm test` (its set-up installs it) or `tsx scripts/ensure-test-tools.ts`");
  return join(cache, dir);
}
