import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..", "..");
const HOOK = join(import.meta.dirname, "usage-hook.mjs");

/** What one whole process cost: its own CPU (user + system, children not included), wall time and peak memory. */
export interface ProcessCost {
  cpuMs: number;
  wallMs: number;
  rssMb: number;
}

/** Run the compiled CLI (dist/) as a user would and measure the process itself. */
export async function measureCli(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<ProcessCost> {
  const folder = await mkdtemp(join(tmpdir(), "chartroom-bench-usage-"));
  const file = join(folder, "usage.json");
  const started = performance.now();
  try {
    await run(process.execPath, ["--import", HOOK, join(ROOT, "dist", "cli", "main.cjs"), ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, CHARTROOM_BENCH_USAGE: file, NO_COLOR: "1" },
      maxBuffer: 64 << 20,
    }).catch((error: { code?: unknown }) => {
      // Findings exit 2: still a measured run.
      if (error.code !== 2) throw error;
    });
    const wallMs = performance.now() - started;
    const usage = JSON.parse(await readFile(file, "utf8")) as { userMs: number; systemMs: number; maxRssKb: number };
    return { cpuMs: usage.userMs + usage.systemMs, wallMs, rssMb: usage.maxRssKb / 1024 };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The run with the median CPU of `runs`. */
export async function medianCost(runs: number, measure: () => Promise<ProcessCost>): Promise<ProcessCost> {
  const costs: ProcessCost[] = [];
  for (let i = 0; i < runs; i++) costs.push(await measure());
  costs.sort((a, b) => a.cpuMs - b.cpuMs);
  return costs[Math.floor(costs.length / 2)] as ProcessCost;
}
