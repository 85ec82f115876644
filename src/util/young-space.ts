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
 *
 * V8 refuses a code cache made under other flag values than its own (a hash
 * of every flag not at its default), so code caches are read and made with
 * the growth factor at V8's default: `withV8Defaults`.
 */

// Below this, an input is parsed in a small young space as fast as in a
// grown one (an operator chart's 2.2 MB renderings); the 10 MB values file is not.
export const LARGE_INPUT_BYTES = 4 * 1024 * 1024;

const SMALL = "--semi-space-growth-factor=1";
// V8's default growth factor: at its default, a flag leaves V8's flag hash as it was.
const DEFAULT = "--semi-space-growth-factor=2";

// The flag is the process's, and so is this: the CLI's bundle and its boot
// (cli/boot.ts, outside the bundle) each hold a copy of this module.
const shared = globalThis as unknown as Record<symbol, { small: boolean } | undefined>;
const KEY = Symbol.for("chartroom.young-space");
shared[KEY] ??= { small: false };
const state = shared[KEY];

/** Keep the young generation at its first size (the CLI, at start). */
export function keepYoungSpaceSmall(): void {
  if (userSetsSemiSpace()) return;
  setFlagsFromString(SMALL);
  state.small = true;
}

/**
 * A semi-space setting the user gave node is theirs: on its command line, or
 * in NODE_OPTIONS, which process.execArgv does not show. V8 takes a flag's
 * name with dashes or underscores.
 */
function userSetsSemiSpace(): boolean {
  return /semi[-_]space/.test(`${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`);
}

/** About to read an input of `bytes`: a large one lets the young generation grow as V8 would. */
export function beforeInput(bytes: number): void {
  if (!state.small || bytes < LARGE_INPUT_BYTES) return;
  setFlagsFromString(DEFAULT);
  state.small = false;
}

/** `work` run with V8's flags as node started them (a code cache read or made), the young generation kept small again after. */
export function withV8Defaults<T>(work: () => T): T {
  if (!state.small) return work();
  setFlagsFromString(DEFAULT);
  try {
    return work();
  } finally {
    setFlagsFromString(SMALL);
  }
}

/** Whether the young generation is being kept small, for tests. */
export function youngSpaceKeptSmall(): boolean {
  return state.small;
}
