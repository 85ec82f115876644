import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { pinnedHelm, type HelmMajor } from "../../src/render/helm-binary.js";

const run = promisify(execFile);

// Shared across test files (and the benchmarks) so the 60 MB binaries are
// extracted once. No vitest import here: bench/ uses this file too.
export const HELM_CACHE = join(resolve(import.meta.dirname, "..", ".."), ".cache", "test");

export async function helm(major: HelmMajor): Promise<string> {
  return (await pinnedHelm(major, HELM_CACHE)).path;
}

export async function runHelm(major: HelmMajor, args: string[], cwd?: string): Promise<string> {
  const { stdout } = await run(await helm(major), args, {
    cwd,
    env: { ...process.env, HELM_CACHE_HOME: join(cwd ?? HELM_CACHE, ".helm-cache"), HELM_CONFIG_HOME: join(cwd ?? HELM_CACHE, ".helm-config") },
  });
  return stdout;
}
