import { recordStore } from "../../store/records.js";
import type { RepoIndex } from "./file.js";

/** What proves a cached parse is still current: HTTP validators or file stat. */
export type IndexValidator = { etag?: string; lastModified?: string } | { mtimeMs: number; size: number };

interface CachedIndex {
  validator: IndexValidator;
  index: RepoIndex;
}

// Parsed indexes are kept as JSON: reading it back is an order of magnitude
// faster than parsing the YAML again, which is the slow path in Helm itself.
const FORMAT = 2;

export async function readCachedIndex(cacheRoot: string, url: string): Promise<CachedIndex | null> {
  return recordStore<CachedIndex>(cacheRoot, "index", FORMAT).read(url);
}

export async function writeCachedIndex(cacheRoot: string, url: string, validator: IndexValidator, index: RepoIndex): Promise<void> {
  await recordStore<CachedIndex>(cacheRoot, "index", FORMAT).write(url, { validator, index });
}
