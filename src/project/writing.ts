import { readLock } from "../lockfile/read.js";
import { lockWaitMs, withWriterLock } from "../store/writer-lock.js";
import type { Project } from "./project.js";

/** Run `work` holding the platform's writer lock, with the lock as it is on disk now. */
export async function whileWriting<T>(project: Project, command: string, work: () => Promise<T>): Promise<T> {
  return withWriterLock(project.lockPath, { command, waitMs: lockWaitMs(project.env), onWait: (line) => project.progress(line) }, async () => {
    project.lock = await readLock(project.lockPath);
    return work();
  });
}
