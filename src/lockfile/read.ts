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

export function parseLock(text: string, path: string): Lockfile {
  let data: unknown;
  let forbidden: string | undefined;
  try {
    // A key that would reach an object's prototype has no place in a lock.
    data = JSON.parse(text, (key, value: unknown) => {
      if (key === "__proto__" || key === "constructor" || key === "prototype") forbidden ??= key;
      return value;
    });
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
  const parsed = lockfileSchema.safeParse(data);
  if (parsed.success) return parsed.data;
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
