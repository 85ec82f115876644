import { randomBytes } from "node:crypto";
import { ChartroomError, type Place } from "../errors/index.js";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname, join, basename } from "node:path";

/**
 * Write through a temporary file in the same folder, flushed, then renamed:
 * a reader sees the old content or the new, never half of either.
 */
export async function writeFileAtomic(path: string, data: string | Buffer, mode = 0o644): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    const handle = await open(temp, "w", mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export async function readFileOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

const ERRNO: Record<string, string> = {
  ENOENT: "does not exist",
  EISDIR: "is a folder, not a file",
  ENOTDIR: "has a file where a folder should be in its path",
  EACCES: "cannot be read (permission denied)",
  EPERM: "cannot be read (not permitted)",
  ELOOP: "is a loop of symbolic links",
};

/**
 * A file's bytes, or a FILE_UNREADABLE error that says which file, what it
 * is for, what went wrong and what to do: never a raw errno with a stack.
 */
export async function readFileFor(path: string, what: string, options: { place?: Place; hint?: string } = {}): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw fileError(error, path, what, options);
  }
}

/** An fs error as FILE_UNREADABLE (known errno codes), anything else passed on. */
export function fileError(error: unknown, path: string, what: string, options: { place?: Place; hint?: string } = {}): unknown {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  const why = ERRNO[code];
  if (why === undefined) return error;
  return new ChartroomError("FILE_UNREADABLE", `${what} ${why}: ${path}`, { place: { file: path, ...options.place }, hint: options.hint, cause: error });
}
