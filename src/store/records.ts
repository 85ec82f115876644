import { cacheError } from "./cache-errors.js";
import { join } from "node:path";
import * as z from "../util/zod.js";
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

/** The envelope every record file has; the value is checked by the caller's schema. */
const envelopeSchema = z.object({ format: z.number(), key: z.string(), value: z.unknown() });

export function recordStore<T>(cacheRoot: string, kind: string, format: number, schema: z.ZodMiniType<T>, options: { mode?: number } = {}): RecordStore<T> {
  const path = (key: string) => join(cacheRoot, kind, `${sha256Hex(key)}.json`);
  return {
    async read(key) {
      const raw = await readFileOrNull(path(key));
      if (raw === null) return null;
      let data: unknown;
      try {
        data = JSON.parse(raw.toString("utf8"));
      } catch {
        return null;
      }
      const envelope = envelopeSchema.safeParse(data);
      if (!envelope.success || envelope.data.format !== format || envelope.data.key !== key) return null;
      const value = schema.safeParse(envelope.data.value);
      return value.success ? value.data : null;
    },
    async write(key, value) {
      const envelope: Envelope<T> = { format, key, value };
      await writeFileAtomic(path(key), JSON.stringify(envelope), options.mode, `the cache (${kind})`).catch((error: unknown) => {
        throw cacheError(error);
      });
    },
  };
}
