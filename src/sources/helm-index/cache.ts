import * as z from "../../util/zod.js";
import type { ChartVersion } from "../../model/charts.js";
import { recordStore } from "../../store/records.js";
import type { RepoIndex } from "./file.js";

/** What proves a cached parse is still current: HTTP validators or file stat. */
export type IndexValidator = { etag?: string; lastModified?: string } | { mtimeMs: number; size: number };

// Written by chartroom itself: the shape is checked, each entry is trusted.
const cachedIndexSchema = z.object({
  // The file stat first: read as the HTTP shape (both of whose fields are optional), it lost its
  // fields, and a folder repository's index was parsed again on every run.
  validator: z.union([z.object({ mtimeMs: z.number(), size: z.number() }), z.object({ etag: z.optional(z.string()), lastModified: z.optional(z.string()) })]),
  index: z.record(z.string(), z.array(z.custom<ChartVersion>((entry) => typeof entry === "object" && entry !== null))),
});

type CachedIndex = z.infer<typeof cachedIndexSchema>;

// Parsed indexes are kept as JSON: reading it back is an order of magnitude
// faster than parsing the YAML again, which is the slow path in Helm itself.
const FORMAT = 2;

export async function readCachedIndex(cacheRoot: string, url: string): Promise<CachedIndex | null> {
  return recordStore(cacheRoot, "index", FORMAT, cachedIndexSchema).read(url);
}

export async function writeCachedIndex(cacheRoot: string, url: string, validator: IndexValidator, index: RepoIndex): Promise<void> {
  await recordStore(cacheRoot, "index", FORMAT, cachedIndexSchema).write(url, { validator, index });
}
