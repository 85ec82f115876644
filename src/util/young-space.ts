import { setFlagsFromString } from "node:v8";

/**
 * V8 doubles its young generation each time a scavenge finds it busy, up to
 * 2 × 16 MB, and a cold review's renders take it there: a third of the peak
 * memory of an operator chart's diff (111 → 100 MB kept at its first 1 MB;
 * the CPU within noise). Reading an input of several megabytes (a 10 MB
 * values file), a young space that small scavenges so often that it costs
 * more than the memory is worth (+120 ms of 760 for that file's check), so
 * such an input gives V8 its own growth back. The CLI asks for this; the
 * library never changes the V8 settings of the program it runs in.
 */

// Below this, an input is parsed in a small young space as fast as in a
// grown one (an operator chart's 2.2 MB renderings); the 10 MB values file is not.
export const LARGE_INPUT_BYTES = 4 * 1024 * 1024;

let small = false;

/** Keep the young generation at its first size (the CLI, at start). */
export function keepYoungSpaceSmall(): void {
  // A growth factor the user set on node's command line is theirs.
  if (process.execArgv.some((flag) => flag.includes("semi-space"))) return;
  setFlagsFromString("--semi-space-growth-factor=1");
  small = true;
}

/** About to read an input of `bytes`: a large one lets the young generation grow as V8 would. */
export function beforeInput(bytes: number): void {
  if (!small || bytes < LARGE_INPUT_BYTES) return;
  // V8's default growth factor.
  setFlagsFromString("--semi-space-growth-factor=2");
  small = false;
}

/** Whether the young generation is being kept small, for tests. */
export function youngSpaceKeptSmall(): boolean {
  return small;
}
