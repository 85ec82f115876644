// Every child process chartroom starts runs in a process group of its own
// (helm and what helm starts: a post-renderer, a plugin). The groups are
// remembered here, so that an interrupted run (SIGINT, SIGTERM) or a process
// that exits early takes all of them down with it: nothing keeps running, or
// keeps 600 MB, after chartroom is gone.

const groups = new Set<number>();
let hooked = false;

/** Remember a child's process group (its pid: it was started as a group leader). */
export function trackGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  groups.add(pid);
  if (!hooked) {
    hooked = true;
    // Synchronous, so it runs however the process ends (short of SIGKILL).
    process.once("exit", killAllNow);
  }
}

export function untrackGroup(pid: number | undefined): void {
  if (pid !== undefined) groups.delete(pid);
}

/** Kill one child's whole group now. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Every live group, killed now (for signal handlers and exit: synchronous). */
export function killAllNow(): void {
  for (const pid of groups) killGroup(pid);
  groups.clear();
}

/** How many groups are live (for tests). */
export function liveGroups(): number {
  return groups.size;
}
