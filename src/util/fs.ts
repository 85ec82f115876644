import { randomBytes } from "node:crypto";
import { ChartroomError, type Place } from "../errors/index.js";
import { closeSync, constants, fstatSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname, join, basename } from "node:path";
import { beforeInput } from "./v8-tuning.js";

/**
 * Write through a temporary file in the same folder, flushed, then renamed:
 * a reader sees the old content or the new, never half of either.
 */
export async function writeFileAtomic(path: string, data: string | Buffer, mode = 0o644, what = describeTarget(path)): Promise<void> {
  await mkdir(dirname(path), { recursive: true }).catch((error: unknown) => {
    throw writeError(error, dirname(path), `the folder of ${what}`);
  });
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  writing.add(temp);
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
    await rm(temp, { force: true }).catch(() => undefined);
    throw writeError(error, path, what);
  } finally {
    writing.delete(temp);
  }
}

function describeTarget(path: string): string {
  return basename(path);
}

const WRITE_ERRNO: Record<string, { why: string; hint: string }> = {
  ENOSPC: { why: "there is no space left on the device", hint: "free some space on the disk that holds it" },
  EDQUOT: { why: "the disk quota is used up", hint: "free some space, or raise the quota" },
  EROFS: { why: "it is on a read-only file system", hint: "make it writable" },
  EACCES: { why: "permission is denied", hint: "make it writable for this user" },
  EPERM: { why: "the operation is not permitted", hint: "make it writable for this user" },
  ENOTDIR: { why: "a file stands where a folder of its path should be", hint: "remove that file, or choose another path" },
  EISDIR: { why: "a folder stands where the file should be", hint: "remove the folder, or choose another path" },
  ENOENT: { why: "its folder cannot be created", hint: "check that the path is writable (a read-only mount reports this)" },
  EEXIST: { why: "a file stands where a folder of its path should be", hint: "remove that file, or choose another path" },
  EMFILE: { why: "too many files are open", hint: "raise the limit on open files (ulimit -n)" },
};

/**
 * A failed write as FILE_UNWRITABLE: which file, what it is for, why (the
 * disk is full, read-only, a file where a folder should be…) and what to do;
 * anything else passed on. Nothing half-written is left behind by the
 * writers that use it.
 */
export function writeError(error: unknown, path: string, what: string, hint?: string): unknown {
  if (ChartroomError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException).code ?? "";
  const known = WRITE_ERRNO[code];
  if (known === undefined) return error;
  return new ChartroomError("FILE_UNWRITABLE", `cannot write ${what}: ${known.why} (${path})`, {
    place: { file: path },
    hint: hint ?? known.hint,
    cause: error,
  });
}

/** `fs.mkdir -p` with a coded error. */
export async function makeFolder(path: string, what: string, hint?: string, mode?: number): Promise<void> {
  await mkdir(path, { recursive: true, ...(mode === undefined ? {} : { mode }) }).catch((error: unknown) => {
    throw writeError(error, path, what, hint);
  });
}

// Temporary files of writes under way: an interrupted run removes them (the target keeps its old bytes).
const writing = new Set<string>();

/** Every write under way abandoned now, its temporary file removed (for signal handlers: synchronous). */
export function abandonWritesNow(): void {
  for (const temp of writing) rmSync(temp, { force: true });
  writing.clear();
}

export async function readFileOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw fileError(error, path, "a file chartroom keeps");
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
 * Only regular files are read (a FIFO would block the run forever).
 */
export async function readFileFor(path: string, what: string, options: { place?: Place; hint?: string; maxBytes?: number } = {}): Promise<Buffer> {
  return readFileSyncFor(path, what, options);
}

/**
 * The same, synchronously: one open, one fstat, one read. A run compares
 * hundreds of small values files, and the promise API's thread-pool round
 * trips cost more than the reads. Opened non-blocking, so a FIFO is refused, not waited on.
 */
export function readFileSyncFor(path: string, what: string, options?: { place?: Place; hint?: string; maxBytes?: number; optional?: false }): Buffer;
export function readFileSyncFor(
  path: string,
  what: string,
  options: { place?: Place; hint?: string; maxBytes?: number; optional?: boolean },
): Buffer | undefined;
export function readFileSyncFor(
  path: string,
  what: string,
  options: { place?: Place; hint?: string; maxBytes?: number; optional?: boolean } = {},
): Buffer | undefined {
  let fd: number | undefined;
  try {
    // Absent and allowed to be: told by a stat that builds no error (Node
    // builds one, with a stack, for each failed open: ≈8 µs, and a platform's
    // review looks for hundreds of optional values files).
    if (options.optional === true && statSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = fstatSync(fd);
    if (info.isDirectory())
      throw new ChartroomError("FILE_UNREADABLE", `${what} ${ERRNO.EISDIR}: ${path}`, { place: { file: path, ...options.place }, hint: options.hint });
    if (!info.isFile())
      throw new ChartroomError("FILE_UNREADABLE", `${what} is not a regular file (a pipe, socket or device): ${path}`, {
        place: { file: path, ...options.place },
        hint: options.hint ?? "point chartroom at a plain file",
      });
    if (options.maxBytes !== undefined && info.size > options.maxBytes) {
      throw new ChartroomError("INPUT_TOO_LARGE", `${what} is ${megabytes(info.size)}, over the ${megabytes(options.maxBytes)} chartroom reads: ${path}`, {
        place: { file: path, ...options.place },
        hint: "split it, or raise CHARTROOM_MAX_FILE_BYTES if it really is this large",
      });
    }
    return readFileSync(fd);
  } catch (error) {
    // Absent and allowed to be: no error built (a run looks for hundreds of optional files).
    if (options.optional === true && (error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw fileError(error, path, what, options);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A text file that must be UTF-8 (as Helm requires of values files): undefined when absent and `optional`. */
export async function readTextFor(
  path: string,
  what: string,
  options: { place?: Place; hint?: string; maxBytes?: number; optional?: boolean; shown?: string } = {},
): Promise<string | undefined> {
  const bytes = readFileSyncFor(path, what, options);
  return bytes === undefined ? undefined : textFor(bytes, path, what, options);
}

/** Bytes that must be UTF-8 text within `maxBytes`, read from a file or from elsewhere (git's objects), judged as readTextFor judges a file. */
export function textFor(bytes: Buffer, path: string, what: string, options: { place?: Place; maxBytes?: number; shown?: string } = {}): string {
  beforeInput(bytes.length);
  if (options.maxBytes !== undefined && bytes.length > options.maxBytes) {
    throw new ChartroomError("INPUT_TOO_LARGE", `${what} is ${megabytes(bytes.length)}, over the ${megabytes(options.maxBytes)} chartroom reads: ${path}`, {
      place: { file: path, ...options.place },
      hint: "split it, or raise CHARTROOM_MAX_FILE_BYTES if it really is this large",
    });
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Where: the first replacement character of a lenient decode.
    const lenient = new TextDecoder("utf-8").decode(bytes);
    const line = lenient.slice(0, Math.max(0, lenient.indexOf("\uFFFD"))).split("\n").length;
    throw new ChartroomError("FILE_NOT_UTF8", `${options.shown ?? path} is not UTF-8 (an invalid byte on line ${line})`, {
      place: { file: options.shown ?? path, line, ...options.place },
      hint: "save the file as UTF-8 (Helm refuses anything else)",
    });
  }
}

/** A size as the limits' messages give it: `64.0 MiB`. */
export function megabytes(bytes: number): string {
  return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
}

let limit: number | undefined;

/** The largest file chartroom reads (values, policy files, indexes, the lock): 64 MiB, or CHARTROOM_MAX_FILE_BYTES. */
export function maxFileBytes(): number {
  return limit ?? maxFileBytesOf(process.env);
}

/** Set for the process from the environment a run was given (the CLI's, which may not be process.env). */
export function useFileLimitOf(env: NodeJS.ProcessEnv): void {
  limit = maxFileBytesOf(env);
}

function maxFileBytesOf(env: NodeJS.ProcessEnv): number {
  const given = Number(env.CHARTROOM_MAX_FILE_BYTES);
  return Number.isInteger(given) && given > 0 ? given : 64 << 20;
}

/** An fs error as FILE_UNREADABLE (known errno codes), anything else passed on. */
export function fileError(error: unknown, path: string, what: string, options: { place?: Place; hint?: string } = {}): unknown {
  if (ChartroomError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException).code ?? "";
  const why = ERRNO[code];
  if (why === undefined) return error;
  return new ChartroomError("FILE_UNREADABLE", `${what} ${why}: ${path}`, { place: { file: path, ...options.place }, hint: options.hint, cause: error });
}
