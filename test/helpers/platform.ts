import { cp, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { runCli, type RunResult } from "../../src/cli/run.js";
import { helm } from "./helm.js";
import { tempDir } from "./tmp.js";

export const ROOT = resolve(import.meta.dirname, "..", "..");

/** A copy of the example platform (config, lock, charts/) in a temp folder removed when the test ends. */
export async function copyPlatform(): Promise<string> {
  return copyPlatformTo(await tempDir("chartroom-platform-"));
}

/** The example platform's config, lock, charts/, values/ and types, copied into `dir`. */
export async function copyPlatformTo(dir: string): Promise<string> {
  for (const name of ["chartroom.config.ts", "charts.lock.json", "charts", "values", "chartroom.types.ts", "policies"]) {
    await cp(join(ROOT, name), join(dir, name), { recursive: true });
  }
  return dir;
}

/** Run the CLI in-process with its own cache folder and the pinned Helm 4 (unless HELM_BIN is given). */
export async function cli(cwd: string, argv: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  const cache = env.CHARTROOM_CACHE ?? join(cwd, ".cache");
  const helmBin = env.HELM_BIN ?? (await helm(4));
  // Policy exceptions expire: a fixed date keeps the example's verdict the same on every day the tests run.
  return runCli(argv, { cwd, env: { CHARTROOM_TODAY: "2026-11-30", ...env, CHARTROOM_CACHE: cache, HELM_BIN: helmBin }, colour: false, progress: () => {} });
}

/** Every file's bytes under `dir` (except the cache), to prove a failed run changed nothing. */
export async function snapshot(dir: string, names: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of names) out[name] = await readFile(join(dir, name), "utf8").catch(() => "<absent>");
  return out;
}

export async function editFile(path: string, edit: (text: string) => string): Promise<void> {
  await writeFile(path, edit(await readFile(path, "utf8")));
}
