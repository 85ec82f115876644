import { readdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { readFileOrNull, writeFileAtomic } from "../util/fs.js";
import { sha256Digest } from "../util/hash.js";

/**
 * The pinned archives inside the project, at paths that are the same on every
 * machine: `.chartroom/charts/<chart>-<version>-<sha12>.tgz` (gitignored).
 * The Pulumi program hands these paths to the engine, so what it deploys is
 * the verified bytes, without the network or a registry's credentials.
 */
export const PROJECT_CHARTS = join(".chartroom", "charts");

export function projectChartPath(dir: string, pin: { chart: string; version: string; digest: string }): string {
  return join(dir, PROJECT_CHARTS, `${pin.chart}-${pin.version}-${pin.digest.replace(/^sha256:/, "").slice(0, 12)}.tgz`);
}

/** The archive at its project path, when it is there and its bytes are the pinned ones; null otherwise. */
export async function readProjectChart(path: string, digest: string): Promise<Buffer | null> {
  const data = await readFileOrNull(path);
  return data !== null && sha256Digest(data) === digest ? data : null;
}

export async function writeProjectChart(path: string, data: Buffer): Promise<void> {
  await writeFileAtomic(path, data, 0o644, "the project's copy of a pinned archive (.chartroom/charts/)");
  await ignoreItself(dirname(dirname(path)));
}

/**
 * `.chartroom/` ignores itself (a `.gitignore` of `*` inside it), so the copies
 * never reach a commit and the project's own .gitignore is never edited.
 */
async function ignoreItself(folder: string): Promise<void> {
  const file = join(folder, ".gitignore");
  if ((await readFileOrNull(file)) !== null) return;
  await writeFileAtomic(file, Buffer.from(IGNORE_ALL), 0o644, "the .gitignore that keeps .chartroom/ out of commits");
}

const IGNORE_ALL = "# Written by chartroom: copies of the pinned archives, made again by `chartroom lock`.\n*\n";

/** Remove archives no pin names any more (an upgrade leaves the old version behind). */
export async function pruneProjectCharts(dir: string, keep: ReadonlySet<string>): Promise<void> {
  const folder = join(dir, PROJECT_CHARTS);
  const names = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.endsWith(".tgz") && !keep.has(join(folder, name))).map((name) => rm(join(folder, name), { force: true })));
}
