import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./platform.js";

export interface ProcessOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The compiled CLI: dist/, which must be newer than src/ (npm test builds it first). */
export function compiledCli(): string {
  const main = join(ROOT, "dist", "cli", "main.js");
  const built = existsSync(main) ? statSync(main).mtimeMs : 0;
  const newest = Math.max(...readdirSync(join(ROOT, "src"), { recursive: true }).map((name) => statSync(join(ROOT, "src", String(name))).mtimeMs));
  if (built < newest) throw new Error("dist/ is older than src/: run `npm run build` (npm test does it first)");
  return main;
}

/**
 * Run a command in a process group of its own, killed whole when it outlives
 * `timeoutMs` (nothing it started keeps running after the test).
 */
export function runGroup(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
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
      resolve({ code, stdout, stderr });
    });
  });
}
