import { setFlagsFromString } from "node:v8";

/**
 * V8's settings for a run of a few hundred milliseconds, which is what a CLI
 * run is. Left to its defaults, V8 tunes for a program that runs on:
 *
 * - It doubles the young generation each time a scavenge finds it busy, up to
 *   2 × 16 MB, and a cold review's renders take it there: a third of an
 *   operator chart diff's peak memory (111 → 100 MB kept at its first size).
 * - It optimizes a function with TurboFan once it has run a little (V8's
 *   interrupt budget), on background threads the process's CPU still pays
 *   for, and in a run this short most of that code is barely used before
 *   exit. Sixteen times the budget (only hot loops get there):
 *   cold operator diff 515 → 460 ms of CPU, big 548 → 460, app 378 → 348,
 *   warm big 147 → 127, each 4–8 MB less memory (medians of 7–9 paired runs).
 * - Even so, a function or two still reaches TurboFan, and its first use
 *   brings the compiler's own code and working memory in: 3–5 MB of a run's
 *   peak. The CLI turns TurboFan off (`--no-turbofan`) until it reads an
 *   input of a megabyte: a review of small charts is as fast without it, an
 *   operator chart's (2.2 MB renderings, CRDs compared field by field) 7 %
 *   slower.
 *
 * - V8 sets the old generation's first limit from its first scavenges: the
 *   generation's size when its shrinking initial limit meets that size plus
 *   8 MB (≈ 13 MB for the CLI, fixed while its modules load). A cold review
 *   of a chart of real size passes it near its end, and pays for a full
 *   collection that frees little (2 of 13 MB) with incremental and background
 *   marking (the app bench chart: its only one; a cold diff 17 ms of CPU less
 *   without it, median of 15 paired runs). One full collection at the start,
 *   of Node's own 3 MB (≈ 3 ms), sets the limit from V8's heap growing
 *   factor instead, asked ten times Node's own size (≈ 30 MB) for that one
 *   collection only: later ones grow the heap as V8 does.
 *
 * Reading an input of several megabytes (a 10 MB values file) makes the run
 * long: then a small young space scavenges so often that it costs more than
 * the memory is worth (+120 ms of 760 for that file's check), and optimized
 * code pays for itself, so such an input gives V8 all its own settings back.
 * The CLI asks for this; the library never changes the V8 settings of the
 * program it runs in, and a setting the user gives node is left as it is.
 *
 * V8 refuses a code cache made under other flag values than its own (a hash
 * of every flag not at its default), so code caches are read and made with
 * every setting at V8's default: `withV8Defaults`. Setting a flag to its
 * default value leaves the hash as node started with it.
 */

// Below this, an input is parsed in a small young space as fast as in a
// grown one (an operator chart's 2.2 MB renderings); the 10 MB values file is not.
export const LARGE_INPUT_BYTES = 4 * 1024 * 1024;
// From this, TurboFan pays for itself (an operator chart's renderings).
export const TURBOFAN_INPUT_BYTES = 1024 * 1024;

interface Setting {
  /** How the user would name it (V8 takes dashes or underscores). */
  user: RegExp;
  short: string;
  default: string;
  /** An input this large gives V8's default back. */
  untilInput: number;
}

const YOUNG_SPACE: Setting = {
  user: /semi[-_]space/,
  short: "--semi-space-growth-factor=1",
  default: "--semi-space-growth-factor=2",
  untilInput: LARGE_INPUT_BYTES,
};

// The budget's default moves between V8 versions (132, 66, 144 KB…), and a
// wrong "default" would make V8 refuse the code cache on every run: the
// budget is changed only under a V8 whose default is known here (test/unit/v8-tuning.test.ts
// checks it against the running node's own `--v8-options`).
const BUDGET_DEFAULTS: Readonly<Record<string, number>> = { "11.3": 66 * 1024 };
const BUDGET_FACTOR = 16;

/** V8's own interrupt budget for this V8 version (major.minor), when the table knows it. */
export function budgetDefaultOf(v8Version: string): number | undefined {
  return BUDGET_DEFAULTS[v8Version.split(".").slice(0, 2).join(".")];
}

/** The optimizing compiler's settings: only under a V8 where they were measured (the table). */
function optimizerSettings(v8Version: string): Setting[] {
  const budget = budgetDefaultOf(v8Version);
  if (budget === undefined) return [];
  return [
    {
      user: /interrupt[-_]budget/,
      short: `--interrupt-budget=${budget * BUDGET_FACTOR}`,
      default: `--interrupt-budget=${budget}`,
      untilInput: LARGE_INPUT_BYTES,
    },
    // --jitless implies no TurboFan: turning it back on there is not the CLI's to do.
    { user: /--(no[-_]?)?(opt|turbofan|jitless)(?![-_\w])/, short: "--no-turbofan", default: "--turbofan", untilInput: TURBOFAN_INPUT_BYTES },
  ];
}

// The flags are the process's, and so is this: the CLI's bundle and its boot
// (cli/boot.ts, outside the bundle) each hold a copy of this module.
const shared = globalThis as unknown as Record<symbol, { tuned: Setting[]; atDefaults: boolean } | undefined>;
const KEY = Symbol.for("chartroom.v8-tuning");
shared[KEY] ??= { tuned: [], atDefaults: true };
const state = shared[KEY];

/**
 * Tune V8 for a short run (the CLI, at start): each setting the user has not
 * given node. The old generation's first limit only where the cache holds no
 * renderings (`coldCache`): a run that reads its renderings back stays under
 * V8's own limit, and the collection would only cost it (the warm app diff
 * 368 → 396 M instructions).
 */
export function tuneForShortRun(v8Version: string = process.versions.v8, options: { coldCache?: boolean } = {}): void {
  const given = `${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`;
  if (options.coldCache !== false && !OLD_GENERATION_SET.test(given)) raiseFirstLimit();
  state.tuned = [YOUNG_SPACE, ...optimizerSettings(v8Version)].filter((setting) => !setting.user.test(given));
  set("short");
}

// The user's own old generation settings (or natives syntax, which the collection below turns off after) are left as they are.
const OLD_GENERATION_SET = /heap[-_]growing[-_]percent|initial[-_](old[-_]space|heap)[-_]size|allow[-_]natives[-_]syntax/;
// V8's heap growing factor for the one collection at start: the first limit is ten times what Node holds then.
const FIRST_GROWTH_PERCENT = 900;

/**
 * One full collection now, with the limit it sets from the heap growing
 * factor asked for it alone (V8 reads the factor at each collection's end).
 * V8 runs a collection on request only through natives syntax, turned on for
 * the one function and off again before anything else compiles: both flags
 * are back at V8's defaults, so code caches fit. A V8 without it skips this.
 */
function raiseFirstLimit(): void {
  setFlagsFromString(`--heap-growing-percent=${FIRST_GROWTH_PERCENT}`);
  setFlagsFromString("--allow-natives-syntax");
  try {
    new Function("%CollectGarbage(0)")();
  } catch {
    // No such runtime function in this V8: V8 keeps its own first limit.
  } finally {
    setFlagsFromString("--no-allow-natives-syntax");
    setFlagsFromString("--heap-growing-percent=0");
  }
}

/** About to read an input of `bytes`: a large one makes a long run, with V8's own settings (each from its size). */
export function beforeInput(bytes: number): void {
  for (const setting of state.tuned) if (bytes >= setting.untilInput) setFlagsFromString(setting.default);
  state.tuned = state.tuned.filter((setting) => bytes < setting.untilInput);
}

/** `work` run with V8's flags as node started them (a code cache read or made), tuned again after. */
export function withV8Defaults<T>(work: () => T): T {
  if (state.tuned.length === 0) return work();
  set("default");
  try {
    return work();
  } finally {
    set("short");
  }
}

/** The flags this run has changed from V8's defaults, for tests. */
export function tunedFlags(): string[] {
  return state.tuned.map((setting) => setting.short);
}

/** Whether V8 runs with its own settings at this moment (never tuned, given back, or inside withV8Defaults), for tests. */
export function atV8Defaults(): boolean {
  return state.tuned.length === 0 || state.atDefaults;
}

function set(value: "short" | "default"): void {
  for (const setting of state.tuned) setFlagsFromString(setting[value]);
  state.atDefaults = value === "default";
}
