import { ChartroomError } from "../errors/index.js";
import { maxFileBytes, readTextFor } from "../util/fs.js";
import { isRecord } from "../util/json.js";
import { LOCKFILE_VERSION, lockfileSchema, type Lockfile } from "./schema.js";

/**
 * Three outcomes, kept apart: absent → null; unreadable → LOCK_INVALID naming
 * the first problem; written by a newer major → LOCK_TOO_NEW with the fix.
 */
export async function readLock(path: string): Promise<Lockfile | null> {
  const text = await readTextFor(path, "charts.lock.json", {
    optional: true,
    maxBytes: maxFileBytes(),
    hint: "restore it from version control, or delete it and run `chartroom lock`",
  });
  return text === undefined ? null : parseLock(text, path);
}

// The text of the last lock this process found well-formed. A review of a
// commit reads the same lock on both sides, and checking a platform's
// hundreds of pins against the schema is most of reading it (≈7 ms for 200).
let lastWellFormed: string | undefined;

// A key that would reach an object's prototype is spelt out in the text or
// written with a \u escape: a lock with neither is parsed without a reviver
// (which takes JSON.parse three times as long).
const MAYBE_FORBIDDEN = /__proto__|constructor|prototype|\\u/;

export function parseLock(text: string, path: string): Lockfile {
  let data: unknown;
  let forbidden: string | undefined;
  try {
    // A key that would reach an object's prototype has no place in a lock.
    data = MAYBE_FORBIDDEN.test(text)
      ? JSON.parse(text, (key, value: unknown) => {
          if (key === "__proto__" || key === "constructor" || key === "prototype") forbidden ??= key;
          return value;
        })
      : JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    const at = position ? lineColumn(text, Number(position[1])) : {};
    throw new ChartroomError("LOCK_INVALID", `${path} is not valid JSON: ${(error as Error).message}`, {
      place: { file: path, ...at },
      hint: "restore it from version control (git checkout -- charts.lock.json) or delete it and run `chartroom lock`",
    });
  }
  if (forbidden !== undefined) throw shapeError(path, forbidden, `a key named "${forbidden}", which no lock holds`);
  if (!isRecord(data) || typeof data.lockfileVersion !== "string") {
    throw shapeError(path, "lockfileVersion", "missing lockfileVersion");
  }
  const [major] = data.lockfileVersion.split(".");
  const [ownMajor] = LOCKFILE_VERSION.split(".");
  if (Number(major) > Number(ownMajor)) {
    throw new ChartroomError("LOCK_TOO_NEW", `${path} has lockfileVersion ${data.lockfileVersion}; this chartroom reads ${LOCKFILE_VERSION}`, {
      place: { file: path, key: "lockfileVersion" },
      hint: "a newer chartroom wrote it: upgrade chartroom (npm install chartroom@latest)",
    });
  }
  if (text === lastWellFormed) return data as Lockfile;
  const parsed = lockfileSchema.safeParse(data);
  if (parsed.success) {
    lastWellFormed = text;
    // The schema transforms nothing, adds no defaults and drops no key (its
    // objects are loose): its output is the parsed JSON itself, in another key
    // order. That JSON is returned, so a lock read with or without the check
    // above is the same value.
    return data as Lockfile;
  }
  const [first] = parsed.error.issues;
  const key = first?.path.map(String).join(".") ?? "";
  throw shapeError(path, key, `${key}: ${first?.message ?? "not the lockfile's shape"}`);
}

function shapeError(path: string, key: string, why: string): ChartroomError {
  return new ChartroomError("LOCK_INVALID", `${path} is malformed: ${why}`, {
    place: { file: path, key },
    hint: "restore it from version control, or delete it and run `chartroom lock`",
  });
}

function lineColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  return { line, column: position - before.lastIndexOf("\n") };
}
