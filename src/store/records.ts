import { join } from "node:path";
import { readFileOrNull, writeFileAtomic } from "../util/fs.js";
import { sha256Hex } from "../util/hash.js";

/**
 * Cached JSON records (parsed indexes, renders), one file per key under
 * `<cacheRoot>/<kind>/`. A record carries its format and key: a record of
 * another format, another key or damaged is a miss, never a wrong answer.
 */
export interface RecordStore<T> {
  read(key: string): Promise<T | null>;
  write(key: string, value: T): Promise<void>;
}

interface Envelope<T> {
  format: number;
  key: string;
  value: T;
}

export function recordStore<T>(cacheRoot: string, kind: string, format: number, options: { mode?: number } = {}): RecordStore<T> {
  const path = (key: string) => join(cacheRoot, kind, `${sha256Hex(key)}.json`);
  return {
    async read(key) {
      const raw = await readFileOrNull(path(key));
      if (raw === null) return null;
      try {
        const envelope = JSON.parse(raw.toString("utf8")) as Envelope<T>;
        return envelope.format === format && envelope.key === key ? envelope.value : null;
      } catch {
        return null;
      }
    },
    async write(key, value) {
      const envelope: Envelope<T> = { format, key, value };
      await writeFileAtomic(path(key), JSON.stringify(envelope), options.mode);
    },
  };
}
