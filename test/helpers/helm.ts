import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
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

/** The pinned Helm 4 behind a script that writes down the release of every `helm template` it is asked for (HELM_BIN for chartroom). */
export interface CountingHelm {
  path: string;
  /** The releases rendered since the start, or since the last `clear`, in the order asked. */
  rendered(): Promise<string[]>;
  renders(): Promise<number>;
  clear(): Promise<void>;
}

export async function countingHelm(dir: string): Promise<CountingHelm> {
  const log = join(dir, "renders.log");
  const path = join(dir, "helm-counting.sh");
  await writeFile(path, `#!/bin/sh\n[ "$1" = template ] && echo "$2" >> "${log}"\nexec "${await helm(4)}" "$@"\n`, { mode: 0o755 });
  const rendered = async () => (await readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean);
  return { path, rendered, renders: async () => (await rendered()).length, clear: () => rm(log, { force: true }) };
}
