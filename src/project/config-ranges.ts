import { stat } from "node:fs/promises";
import { rewriteRange } from "../config/rewrite.js";
import type { Config } from "../config/types.js";
import { readTextFor, writeFileAtomic } from "../util/fs.js";
import type { Project } from "./project.js";

/**
 * Rewrite the version ranges of some charts in the config file (each one
 * string literal, nothing else touched) and in the loaded config, so that
 * the lock written next records them. Returns how to put the file back as
 * it was, byte for byte, when what follows fails.
 */
export async function rewriteRanges(project: Project, ranges: ReadonlyMap<string, { from: string; to: string }>): Promise<() => Promise<void>> {
  const file = project.config.file;
  const before = (await readTextFor(file, "the config file")) as string;
  let after = before;
  for (const [key, range] of ranges) after = rewriteRange(after, file, key, range.from, range.to);
  const mode = (await stat(file)).mode & 0o777;
  await writeFileAtomic(file, after, mode, "the config file");
  const loaded = project.config;
  // The project's config follows its file: the lock takes each chart's range from it.
  (project as { config: Config }).config = { ...loaded, charts: loaded.charts.map((spec) => ({ ...spec, range: ranges.get(spec.key)?.to ?? spec.range })) };
  return async () => {
    await writeFileAtomic(file, before, mode, "the config file");
    (project as { config: Config }).config = loaded;
  };
}
