import { onFirstUse } from "../util/on-first-use.js";
import { killGroup, trackGroup, untrackGroup } from "../util/children.js";
import { beforeInput } from "../util/v8-tuning.js";

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout as bytes, with `binary` (stdout is then empty). */
  bytes?: Buffer;
}

export interface RunOptions {
  timeoutMs: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the program's stdin, which is then closed. */
  input?: string | Buffer;
  /** Keep stdout as bytes (`bytes`), not decoded as UTF-8. */
  binary?: boolean;
}

/** Runs a program; passed in so tests can record or replace it. */
export type Runner = (file: string, args: string[], options: RunOptions) => Promise<ProcessResult>;

/** A program that did not finish in time: its whole process group was killed. */
export class ProcessTimeout extends Error {
  constructor(
    readonly file: string,
    readonly timeoutMs: number,
  ) {
    super(`${file} did not finish within ${timeoutMs} ms`);
  }
}

/** A program that printed more than chartroom reads: its whole process group was killed. */
export class ProcessFlood extends Error {
  constructor(readonly file: string) {
    super(`${file} printed more than ${MAX_OUTPUT} bytes`);
  }
}

const MAX_OUTPUT = 512 * 1024 * 1024;

const childProcess = onFirstUse<typeof import("node:child_process")>("node:child_process");

/**
 * helm's environment: Go's collector off below 128 MiB. A render (or `helm
 * version`) is a short process whose garbage dies with it; collecting it
 * cost a fifth to a third of helm's CPU (measured on the bench charts: an
 * operator chart 118 → 84 ms, a 213-object one 169 → 126 ms, `helm version`
 * 68 → 50 ms) for ≈20 MB more peak memory. Past the limit Go collects as
 * usual. A GOGC or GOMEMLIMIT the user set is left as it is.
 *
 * And the language of kubectl's help texts (`LC_MESSAGES`, see
 * HELP_LANGUAGE), unless helm runs a program of the user's, a post-renderer,
 * which would inherit it.
 */
export function helmEnv(env: NodeJS.ProcessEnv, options: { runsUserProgram?: boolean } = {}): NodeJS.ProcessEnv {
  const collector = env.GOGC !== undefined || env.GOMEMLIMIT !== undefined ? {} : { GOGC: "off", GOMEMLIMIT: "128MiB" };
  const language = options.runsUserProgram === true || env.LC_ALL ? {} : { LC_MESSAGES: HELP_LANGUAGE };
  return { ...env, ...collector, ...language };
}

/**
 * kubectl's packages, which every helm links, load the catalog of their help
 * texts as helm starts, in the language LC_ALL, LC_MESSAGES or LANG names
 * (kubectl's util/i18n), and fall back to the English one: 350 KB, ≈9 ms of
 * a helm run's 60 ms of CPU (its package set-up 45 → 28 ms by
 * GODEBUG=inittrace=1, Helm 3 and 4 alike). Traditional Chinese has the
 * smallest catalog (4 KB): seven lines of kubectl's kubeconfig commands,
 * which helm never prints. helm's own messages are not translated. LC_ALL
 * would come first, and is left to the user.
 */
export const HELP_LANGUAGE = "zh_TW.UTF-8";

/**
 * Run a program in a process group of its own (killed whole on timeout, on
 * SIGINT/SIGTERM and at exit: see util/children.ts). Resolves with its exit
 * code and output; rejects when it cannot be started, times out or floods
 * its output.
 */
export const runProcess: Runner = (file, args, options) =>
  new Promise((resolve, reject) => {
    const child = childProcess().spawn(file, args, {
      detached: true,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      cwd: options.cwd,
      env: options.env,
    });
    trackGroup(child.pid);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let failure: Error | undefined;
    const stop = (error: Error) => {
      failure ??= error;
      killGroup(child.pid);
    };
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT) return stop(new ProcessFlood(file));
      into.push(chunk);
    };
    child.stdout?.on("data", collect(out));
    child.stderr?.on("data", collect(err));
    const timer = setTimeout(() => stop(new ProcessTimeout(file, options.timeoutMs)), options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      untrackGroup(child.pid);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      untrackGroup(child.pid);
      // What the program started may still run in its group: gone with it.
      killGroup(child.pid);
      if (failure !== undefined) return reject(failure);
      const stdout = Buffer.concat(out);
      beforeInput(stdout.length);
      const result = {
        code: code ?? 128 + signalNumber(signal),
        stdout: options.binary === true ? "" : stdout.toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      };
      resolve(options.binary === true ? { ...result, bytes: stdout } : result);
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === "SIGKILL" ? 9 : signal === "SIGTERM" ? 15 : signal === "SIGINT" ? 2 : 1;
}
