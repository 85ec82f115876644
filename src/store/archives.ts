import { cacheError } from "./cache-errors.js";
import { join } from "node:path";
import { readFileOrNull, writeFileAtomic } from "../util/fs.js";
import { sha256Digest } from "../util/hash.js";

/** Archives kept by content: the digest is the name, so a hit is a verified hit. */
export interface ArchiveStore {
  get(digest: string): Promise<Buffer | null>;
  put(digest: string, data: Buffer): Promise<void>;
  /** Where a stored archive is on disk (for helm, which reads files). */
  pathOf(digest: string): string;
}

export function diskArchiveStore(cacheRoot: string): ArchiveStore {
  const path = (digest: string) => join(cacheRoot, "archives", `${digest.replace(":", "-")}.tgz`);
  return {
    async get(digest) {
      const data = await readFileOrNull(path(digest));
      // Re-hash on read: a damaged cache file is a miss, never a wrong chart.
      return data !== null && sha256Digest(data) === digest ? data : null;
    },
    async put(digest, data) {
      await writeFileAtomic(path(digest), data, 0o644, "the cache (an archive)").catch((error: unknown) => {
        throw cacheError(error);
      });
    },
    pathOf: path,
  };
}
