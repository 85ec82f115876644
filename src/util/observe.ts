import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { isAbsolute, relative, resolve, sep } from "node:path";

/**
 * What user code (a config, a policy rule) read while it ran, observed rather
 * than guessed from its source: the files it read through node:fs
 * (readFileSync, readFile, openSync, open, createReadStream; content digest, or absent)
 * and probed (present or absent), the environment variables it read, and
 * whether it asked the clock or for randomness. A result is reused only while
 * every one of these still holds; one that asked the clock, or listed the
 * whole environment, is never reused.
 */
export interface Inputs {
  /** Path (relative to the folder the code belongs to when inside it) → sha256 of the bytes read, or "absent". */
  files: Record<string, string>;
  /** Path → "present" or "absent", for existence checks (module resolution makes many). */
  probes: Record<string, string>;
  /** Variable → its value (undefined when unset). Kept in memory only; see `envDigests`. */
  env: Record<string, string | undefined>;
  /** Read the clock or Math.random, or enumerated the environment: nothing about the result is stable. */
  volatile: boolean;
}

interface Observer {
  inputs: Inputs;
  root: string;
  /** Paths that are not inputs (a loader's own cache of what it derived from them). */
  ignore: (path: string) => boolean;
}

// The fs module object Node's own loaders and jiti call through; patched while observers run.
const fs = createRequire(import.meta.url)("node:fs") as typeof import("node:fs");
// The originals, for chartroom's own checks (never observed, never recursing into a patch).
const real = { readFileSync: fs.readFileSync, existsSync: fs.existsSync };
// The observers of the code running now: the work's own async context, so
// what chartroom does meanwhile (other renders, other loads) is never counted.
const context = new AsyncLocalStorage<readonly Observer[]>();
let running = 0;
let restore: (() => void) | undefined;

/**
 * Run `work` and report what it read, through every await it makes. An
 * observation inside another is seen by both.
 */
export async function observed<T>(
  root: string,
  work: () => Promise<T> | T,
  ignore: (path: string) => boolean = () => false,
): Promise<{ value: T; inputs: Inputs }> {
  const observer: Observer = { root: resolve(root), ignore, inputs: { files: {}, probes: {}, env: {}, volatile: false } };
  if (running++ === 0) restore = install();
  try {
    const value = await context.run([...(context.getStore() ?? []), observer], work);
    return { value, inputs: observer.inputs };
  } finally {
    if (--running === 0) {
      restore?.();
      restore = undefined;
      // Node 20 runs a hook on every promise while a store is enabled: off until the next observation.
      context.disable();
    }
  }
}

/**
 * Run `work` outside every observation: what it reads is chartroom's own
 * doing (a transpiler loading itself), not the observed code's.
 */
export function unobserved<T>(work: () => T): T {
  return context.exit(work);
}

/** Whether every input still reads the same for code belonging to `root` (another checkout of the same files counts). */
export function stillHolds(inputs: Inputs, root: string, env: NodeJS.ProcessEnv): boolean {
  if (inputs.volatile) return false;
  for (const [path, digest] of Object.entries(inputs.files)) if (fileDigest(located(path, root)) !== digest) return false;
  for (const [path, state] of Object.entries(inputs.probes)) if ((real.existsSync(located(path, root)) ? "present" : "absent") !== state) return false;
  for (const [name, value] of Object.entries(inputs.env)) if (env[name] !== value) return false;
  return true;
}

/** The inputs as a record can keep them: environment values replaced by keyed digests (a value may be a credential). */
export function persistable(inputs: Inputs, digest: (value: string) => string): Omit<Inputs, "env"> & { env: Record<string, string | null> } {
  return { ...inputs, env: Object.fromEntries(Object.entries(inputs.env).map(([name, value]) => [name, value === undefined ? null : digest(value)])) };
}

/** Everything two observations read. */
export function mergeInputs(a: Inputs, b: Inputs): Inputs {
  return { files: { ...a.files, ...b.files }, probes: { ...a.probes, ...b.probes }, env: { ...a.env, ...b.env }, volatile: a.volatile || b.volatile };
}

/** `stillHolds` for inputs read back from a record. */
export function persistedHold(inputs: ReturnType<typeof persistable>, root: string, env: NodeJS.ProcessEnv, digest: (value: string) => string): boolean {
  const now = Object.fromEntries(Object.keys(inputs.env).map((name) => [name, env[name]]));
  const same = Object.entries(inputs.env).every(([name, was]) => (now[name] === undefined ? was === null : was === digest(now[name] as string)));
  return same && stillHolds({ ...inputs, env: {} }, root, env);
}

function located(path: string, root: string): string {
  return isAbsolute(path) ? path : resolve(root, path);
}

function shown(path: string, root: string): string {
  const inside = relative(root, path);
  return inside !== "" && !inside.startsWith(`..${sep}`) && inside !== ".." && !isAbsolute(inside) ? inside : path;
}

function fileDigest(path: string): string {
  try {
    return createHash("sha256").update(real.readFileSync(path)).digest("hex");
  } catch {
    return "absent";
  }
}

// Set while a read is being recorded: the reads Node makes inside a read (readFileSync opens the file) are not reads of their own.
let recording = false;

function record(each: (observer: Observer) => void, path?: string): void {
  if (recording) return;
  recording = true;
  try {
    for (const observer of context.getStore() ?? []) if (path === undefined || !observer.ignore(path)) each(observer);
  } finally {
    recording = false;
  }
}

/** Patch what user code reads through, recording into every active observer; returns the undo. */
function install(): () => void {
  const { readFileSync, existsSync, statSync, openSync, createReadStream } = fs;
  const readFileAsync = fs.promises.readFile;
  const openAsync = fs.promises.open;
  // A file opened to be read in parts (openSync, open, a stream) counts as read whole.
  const opened = (target: unknown, flags: unknown) => {
    const path = pathOf(target);
    const writing =
      typeof flags === "string" ? /[wa+]/.test(flags) : typeof flags === "number" && (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0;
    if (path !== undefined && !writing) record((o) => (o.inputs.files[shown(path, o.root)] = fileDigest(path)), path);
  };
  const env = process.env;
  const RealDate = Date;
  const random = Math.random;
  // A whole file read: its digest, or "absent" when the read failed.
  const readWhole = (path: string | undefined, out: string | Buffer | undefined) => {
    if (path !== undefined)
      record((o) => (o.inputs.files[shown(path, o.root)] = out === undefined ? "absent" : createHash("sha256").update(out).digest("hex")), path);
  };
  const pathOf = (target: unknown) => (typeof target === "string" ? resolve(target) : target instanceof URL ? resolve(target.pathname) : undefined);
  fs.readFileSync = function patched(this: unknown, ...args: Parameters<typeof readFileSync>) {
    const path = pathOf(args[0]);
    try {
      const out = readFileSync.apply(this, args);
      readWhole(path, out);
      return out;
    } catch (error) {
      readWhole(path, undefined);
      throw error;
    }
  } as typeof readFileSync;
  fs.promises.readFile = async function patched(this: unknown, ...args: Parameters<typeof readFileAsync>) {
    const path = pathOf(args[0]);
    try {
      const out = await readFileAsync.apply(this, args);
      readWhole(path, out);
      return out;
    } catch (error) {
      readWhole(path, undefined);
      throw error;
    }
  } as typeof readFileAsync;
  fs.openSync = function patched(this: unknown, ...args: Parameters<typeof openSync>) {
    opened(args[0], args[1]);
    return openSync.apply(this, args);
  } as typeof openSync;
  fs.promises.open = async function patched(this: unknown, ...args: Parameters<typeof openAsync>) {
    opened(args[0], args[1]);
    return openAsync.apply(this, args);
  } as typeof openAsync;
  fs.createReadStream = function patched(this: unknown, ...args: Parameters<typeof createReadStream>) {
    opened(args[0], "r");
    return createReadStream.apply(this, args);
  } as typeof createReadStream;
  fs.existsSync = function patched(this: unknown, target: Parameters<typeof existsSync>[0]) {
    const out = existsSync.call(this, target);
    const path = pathOf(target);
    if (path !== undefined) record((o) => (o.inputs.probes[shown(path, o.root)] = out ? "present" : "absent"), path);
    return out;
  } as typeof existsSync;
  (fs as { statSync: unknown }).statSync = function patched(this: unknown, ...args: Parameters<typeof statSync>) {
    const path = pathOf(args[0]);
    const probe = (state: string) => path !== undefined && record((o) => (o.inputs.probes[shown(path, o.root)] = state), path);
    try {
      const out = statSync.apply(this, args);
      probe(out === undefined ? "absent" : "present");
      return out;
    } catch (error) {
      probe("absent");
      throw error;
    }
  } as typeof statSync;
  process.env = new Proxy(env, {
    get(target, name) {
      if (typeof name === "string") record((o) => (o.inputs.env[name] = target[name]));
      return Reflect.get(target, name);
    },
    has(target, name) {
      if (typeof name === "string") record((o) => (o.inputs.env[name] = target[name]));
      return Reflect.has(target, name);
    },
    ownKeys(target) {
      record((o) => (o.inputs.volatile = true));
      return Reflect.ownKeys(target);
    },
  });
  const volatile = () => record((o) => (o.inputs.volatile = true));
  globalThis.Date = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      if (args.length === 0) volatile();
      return Reflect.construct(target, args, newTarget) as object;
    },
    apply(target, self, args) {
      volatile();
      return Reflect.apply(target, self, args) as string;
    },
    get(target, name) {
      if (name === "now") volatile();
      return Reflect.get(target, name) as unknown;
    },
  });
  Math.random = () => {
    volatile();
    return random();
  };
  // Named imports of node:fs (`import { readFileSync } from "node:fs"`) see the patch too.
  syncBuiltinESMExports();
  return () => {
    Object.assign(fs, { readFileSync, existsSync, statSync, openSync, createReadStream });
    fs.promises.readFile = readFileAsync;
    fs.promises.open = openAsync;
    process.env = env;
    globalThis.Date = RealDate;
    Math.random = random;
    syncBuiltinESMExports();
  };
}
