import { join } from "node:path";
import { readFileOrNull, writeFileAtomic } from "../util/fs.js";
import { sha256Hex } from "../util/hash.js";
import type { RepoIndex } from "./index-file.js";

/** What proves a cached parse is still current: HTTP validators or file stat. */
export type IndexValidator = { etag?: string; lastModified?: string } | { mtimeMs: number; size: number };

interface CachedIndex {
  format: 1;
  url: string;
  validator: IndexValidator;
  index: RepoIndex;
}

// Parsed indexes are kept as JSON: reading it back is an order of magnitude
// faster than parsing the YAML again, which is the slow path in Helm itself.
function cachePath(cacheRoot: string, url: string): string {
  return join(cacheRoot, "index", `${sha256Hex(url)}.json`);
}

export async function readCachedIndex(cacheRoot: string, url: string): Promise<{ validator: IndexValidator; index: RepoIndex } | null> {
  const raw = await readFileOrNull(cachePath(cacheRoot, url));
  if (raw === null) return null;
  try {
    const cached = JSON.parse(raw.toString("utf8")) as CachedIndex;
    if (cached.format !== 1 || cached.url !== url) return null;
    return { validator: cached.validator, index: cached.index };
  } catch {
    // A damaged cache entry is just a miss.
    return null;
  }
}

export async function writeCachedIndex(cacheRoot: string, url: string, validator: IndexValidator, index: RepoIndex): Promise<void> {
  const entry: CachedIndex = { format: 1, url, validator, index };
  await writeFileAtomic(cachePath(cacheRoot, url), JSON.stringify(entry));
}
