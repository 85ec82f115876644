import { writeFileAtomic } from "../util/fs.js";
import { stableStringify } from "../util/json.js";
import type { Lockfile } from "./schema.js";

/** The exact bytes of a lock: sorted keys, 2-space indent, trailing newline. */
export function serialiseLock(lock: Lockfile): string {
  return stableStringify(lock);
}

export async function writeLock(path: string, lock: Lockfile): Promise<void> {
  await writeFileAtomic(path, serialiseLock(lock), 0o644, "charts.lock.json");
}
