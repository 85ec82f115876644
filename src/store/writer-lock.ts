import { randomBytes } from "node:crypto";
import { readFileSync, rmdirSync, unlinkSync } from "node:fs";
import { open, readFile, readdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { ChartroomError } from "../errors/index.js";
import { makeFolder, writeError } from "../util/fs.js";
import { isAlive } from "../util/temp.js";

// One writer of a platform's lock at a time: `lock` and `upgrade` hold
// .chartroom/writer.lock while they read, resolve and write charts.lock.json.

interface Holder {
  pid: number;
  host: string;
  command: string;
  /** ms since the epoch */
  started: number;
  token: string;
}

/** A holder older than this is taken to be gone whatever its pid says (a run hung, or pid reuse). */
const STALE_AFTER_MS = 15 * 60_000;

const held = new Map<string, string>();

export interface WriterLockOptions {
  /** What holds it, as a user would recognise it: `chartroom lock`. */
  command: string;
  /** How long to wait for another writer. @default 120 s, or CHARTROOM_LOCK_WAIT_MS */
  waitMs?: number;
  /** Told once when the run starts waiting. */
  onWait?: (line: string) => void;
}

/**
 * Run `work` holding the writer lock of the platform whose lockfile is
 * `lockPath`. A second run waits (bounded), then fails with LOCK_BUSY naming
 * the holder; a holder whose process is gone is taken over. Leftover temporary
 * lockfiles of a killed writer are removed once the lock is held.
 */
export async function withWriterLock<T>(lockPath: string, options: WriterLockOptions, work: () => Promise<T>): Promise<T> {
  const path = join(dirname(lockPath), ".chartroom", "writer.lock");
  const token = await acquire(path, options);
  try {
    await removeLeftovers(lockPath);
    return await work();
  } finally {
    await release(path, token);
  }
}

async function acquire(path: string, options: WriterLockOptions): Promise<string> {
  await makeFolder(
    dirname(path),
    "the platform's .chartroom folder (its writer lock)",
    "make the platform's folder writable: lock and upgrade write charts.lock.json and .chartroom/ there",
  );
  const token = randomBytes(8).toString("hex");
  const holder: Holder = { pid: process.pid, host: hostname(), command: options.command, started: Date.now(), token };
  const deadline = Date.now() + (options.waitMs ?? lockWaitMs());
  let told = false;
  for (let delay = 25; ; delay = Math.min(delay * 2, 400)) {
    try {
      const handle = await open(path, "wx", 0o644);
      try {
        await handle.writeFile(JSON.stringify(holder));
      } catch (error) {
        // A lock file without its holder would make the next run wait: never left behind.
        await handle.close();
        await rm(path, { force: true });
        await rmdir(dirname(path)).catch(() => undefined);
        throw error;
      }
      await handle.close();
      held.set(path, token);
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw writeError(error, path, "the platform's writer lock (.chartroom/writer.lock)");
    }
    const current = await readHolder(path);
    // Unreadable: being written this instant, or half-written by a writer killed then.
    if ((current === undefined && (await ageMs(path)) > 2000) || (current !== undefined && isStale(current))) {
      await breakStale(path, current);
      continue;
    }
    if (current === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    if (Date.now() >= deadline) {
      throw new ChartroomError("LOCK_BUSY", `another chartroom is writing this platform's lock: ${describe(current)}`, {
        place: { file: path },
        hint: `wait for it to finish; if no chartroom is running, remove ${path}`,
      });
    }
    if (!told) options.onWait?.(`waiting for ${describe(current)} to finish`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

function describe(holder: Holder): string {
  return `${holder.command}, pid ${holder.pid} on ${holder.host}, for ${Math.round((Date.now() - holder.started) / 1000)} s`;
}

function isStale(holder: Holder): boolean {
  if (Date.now() - holder.started > STALE_AFTER_MS) return true;
  return holder.host === hostname() && !isAlive(holder.pid);
}

async function readHolder(path: string): Promise<Holder | undefined> {
  const text = await readFile(path, "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    return typeof parsed.pid === "number" && typeof parsed.token === "string" ? (parsed as Holder) : undefined;
  } catch {
    // Half-written by a writer killed between create and write: as good as gone once it is old.
    return undefined;
  }
}

/** Move a dead holder's file aside; if another run got there first and took the lock, theirs is put back. */
async function breakStale(path: string, seen: Holder | undefined): Promise<void> {
  const aside = `${path}.${randomBytes(6).toString("hex")}.stale`;
  try {
    await rename(path, aside);
  } catch {
    return; // gone already
  }
  const moved = await readHolder(aside);
  if (moved !== undefined && moved.token !== seen?.token && !isStale(moved)) {
    await rename(aside, path).catch(() => undefined);
    return;
  }
  await rm(aside, { force: true });
}

async function release(path: string, token: string): Promise<void> {
  held.delete(path);
  const current = await readHolder(path);
  if (current?.token === token) await rm(path, { force: true });
  // A run that made .chartroom/ only for its writer lock leaves no trace.
  await rmdir(dirname(path)).catch(() => undefined);
}

/** The writer locks this process holds, released now (for signal handlers: synchronous). */
export function releaseAllNow(): void {
  for (const [path, token] of held) {
    try {
      if ((JSON.parse(readFileSync(path, "utf8")) as Holder).token === token) unlinkSync(path);
      rmdirSync(dirname(path));
    } catch {
      // already gone
    }
  }
  held.clear();
}

/** `.charts.lock.json.<hex>.tmp` left by a writer killed mid-write: safe to remove while holding the lock. */
async function removeLeftovers(lockPath: string): Promise<void> {
  const prefix = `.${basename(lockPath)}.`;
  const names = await readdir(dirname(lockPath)).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.startsWith(prefix) && name.endsWith(".tmp")).map((name) => rm(join(dirname(lockPath), name), { force: true })));
}

/** How long a writer waits for another: CHARTROOM_LOCK_WAIT_MS, else 120 s. */
export function lockWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  const given = Number(env.CHARTROOM_LOCK_WAIT_MS);
  return env.CHARTROOM_LOCK_WAIT_MS !== undefined && env.CHARTROOM_LOCK_WAIT_MS !== "" && Number.isFinite(given) && given >= 0 ? given : 120_000;
}

async function ageMs(path: string): Promise<number> {
  const info = await stat(path).catch(() => undefined);
  return info === undefined ? Infinity : Date.now() - info.mtimeMs;
}
