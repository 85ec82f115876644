import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./platform.js";

export interface ProcessOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI as the package's bin runs it (dist/cli/main.cjs, loading the bundle), which must be newer than src/ (npm test builds it first). */
export function compiledCli(): string {
  const main = join(ROOT, "dist", "cli", "main.cjs");
  const built = existsSync(main) ? statSync(main).mtimeMs : 0;
  const newest = Math.max(...readdirSync(join(ROOT, "src"), { recursive: true }).map((name) => statSync(join(ROOT, "src", String(name))).mtimeMs));
  if (built < newest) throw new Error("dist/ is older than src/: run `npm run build` (npm test does it first)");
  return main;
}

/**
 * Run a command in a process group of its own, killed whole when it outlives
 * `timeoutMs` (nothing it started keeps running after the test).
 */
export function runGroup(
  file: string,
  args: string[],
  options: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs: number;
    input?: string /** `env` is the whole environment, not additions to this one. */;
    wholeEnv?: boolean;
    /** Close the reading end of stdout at once, as `| head` does when it has read enough. */
    closeStdout?: boolean;
    /** A file descriptor the child writes its stdout to (`> file`), instead of a pipe read here. */
    stdoutFd?: number;
  },
): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const env = options.wholeEnv === true ? (options.env ?? {}) : { ...process.env, ...options.env };
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: marked(env),
      stdio: [options.input === undefined ? "ignore" : "pipe", options.stdoutFd ?? "pipe", "pipe"],
      detached: true,
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    if (options.closeStdout === true) child.stdout?.destroy();
    groups.add(child.pid as number);
    commands.add(child.pid as number);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const kill = () => {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // gone
      }
    };
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`${file} ${args.join(" ")} did not finish within ${options.timeoutMs} ms:\n${stdout}${stderr}`));
    }, options.timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      kill();
      groups.delete(child.pid as number);
      commands.delete(child.pid as number);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The variable every process the tests start carries (set by the global
 * set-up to this run's id): the global teardown finds anything left running
 * by it, across process groups and re-parenting.
 */
export const RUN_MARK = "CHARTROOM_TEST_RUN";

/** `env` with this run's mark (a test that builds an environment from scratch keeps it too). */
export function marked(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const run = process.env[RUN_MARK];
  return run === undefined ? env : { ...env, [RUN_MARK]: run };
}

// Process groups started by this worker and not yet gone: killed if the worker exits first.
const groups = new Set<number>();
// Of them, the commands (not daemons): a test that times out leaves its command
// running (vitest cannot cancel the promise), so each test's end kills them.
const commands = new Set<number>();

/** Kill every command a test started that is still running (test/setup.ts calls it after each test). */
export function killCommands(): number {
  const killed = commands.size;
  for (const pid of commands) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  commands.clear();
  return killed;
}
function killGroups(): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}
process.on("exit", killGroups);
// vitest stopped (Ctrl-C, a kill of its main process): the worker's channel
// closes or a signal arrives, and no exit handler would run otherwise.
process.on("disconnect", () => {
  killGroups();
  process.exit(1);
});
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  process.once(signal, () => {
    killGroups();
    process.exit(1);
  });
}

export interface Daemon {
  pid: number;
  /** Everything it printed, for a failure message. */
  log(): string;
  /** Whether it is still running. */
  alive(): boolean;
  /** SIGTERM to its whole group, SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** A long-running process (a cluster part) in a process group of its own, its output kept in memory (the last 64 kB). */
export function startDaemon(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Daemon {
  const child = spawn(file, args, { cwd: options.cwd, env: marked({ ...process.env, ...options.env }), stdio: ["ignore", "pipe", "pipe"], detached: true });
  const pid = child.pid as number;
  groups.add(pid);
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-65536);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  let exited = false;
  const gone = new Promise<void>((resolve) => {
    child.on("exit", () => {
      exited = true;
      resolve();
    });
    child.on("error", (error) => {
      output += String(error);
      exited = true;
      resolve();
    });
  });
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      // gone
    }
  };
  return {
    pid,
    log: () => output,
    alive: () => !exited,
    async stop(graceMs = 5000) {
      signal("SIGTERM");
      const timer = setTimeout(() => signal("SIGKILL"), graceMs);
      await gone;
      clearTimeout(timer);
      // What it started (in its group) goes with it.
      signal("SIGKILL");
      groups.delete(pid);
    },
  };
}
