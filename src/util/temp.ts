import { rmSync } from "node:fs";
import { mkdtemp, readdir, rm, rmdir, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeError } from "./fs.js";

// chartroom's temporary folders are named `chartroom-<pid>-<label>-…`: those
// of this process are removed when it is done (and on SIGINT/SIGTERM, see
// removeAllNow); those of a process that no longer runs (killed) are removed
// by the next run.

const live = new Set<string>();
let swept: Promise<void> | undefined;

/** A new owner-only temporary folder for this process. */
export async function makeTempDir(label: string): Promise<string> {
  swept ??= sweepStale();
  await swept;
  const dir = await mkdtemp(join(tmpdir(), `chartroom-${process.pid}-${label}-`)).catch((error: unknown) => {
    throw writeError(error, tmpdir(), "a temporary folder", "set TMPDIR to a writable folder with space");
  });
  live.add(dir);
  return dir;
}

/**
 * Remove a temporary folder of this process. Given every file it holds, each
 * is unlinked and the folder removed: Node's recursive removal (its module
 * loaded, a walk of the folder) cost a cold review ≈1.5 ms for two folders
 * of a file or two. Anything else there (the folder not empty) is left to
 * the recursive removal.
 */
export async function removeTempDir(dir: string, files?: readonly string[]): Promise<void> {
  live.delete(dir);
  if (files !== undefined) {
    const removed = await Promise.all(files.map((file) => unlink(file)))
      .then(() => rmdir(dir))
      .then(
        () => true,
        () => false,
      );
    if (removed) return;
  }
  await rm(dir, { recursive: true, force: true });
}

/** Every temporary folder of this process, removed now (for signal handlers: synchronous). */
export function removeAllNow(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

async function sweepStale(): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = /^chartroom-(\d+)-/.exec(name)?.[1];
      if (pid === undefined || Number(pid) === process.pid || isAlive(Number(pid))) return;
      await rm(join(tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
    }),
  );
}

/** Whether a process with this pid runs on this machine. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
