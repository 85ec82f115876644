import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { join, resolve } from "node:path";
import { median } from "./interval.js";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..", "..");

/** dyff, kubeconform and rusage, built from the Go modules bench/peers pins (cached like the engine). */
export async function peerBinaries(): Promise<{ dyff: string; kubeconform: string; rusage: string }> {
  const { stdout } = await run("bash", [join(ROOT, "bench", "peers", "build.sh")], { maxBuffer: 1 << 20 });
  const bin = stdout.trim().split("\n").at(-1) ?? "";
  return { dyff: join(bin, "dyff"), kubeconform: join(bin, "kubeconform"), rusage: join(bin, "rusage") };
}

/** What a whole process tree cost: CPU of the command and every descendant, wall time, the largest peak RSS among them. */
export interface TreeCost {
  cpuMs: number;
  wallMs: number;
  rssMb: number;
}

/**
 * Run `command` under rusage and read its last stderr line. Exit 2 counts
 * as a run (chartroom's "changes found"); any other failure throws with
 * what the command said.
 */
export function measureTree(rusage: string, command: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<TreeCost> {
  return new Promise((done, fail) => {
    const child = spawn(rusage, command, { cwd: options.cwd, env: { ...process.env, NO_COLOR: "1", ...options.env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-20_000);
    });
    child.on("error", fail);
    child.on("close", (code) => {
      const line = /rusage: user_ms=([\d.]+) sys_ms=([\d.]+) max_rss_kb=(\d+) wall_ms=([\d.]+) exit=(\d+)/.exec(stderr);
      if (line === null || (code !== 0 && code !== 2)) return fail(new Error(`${command.join(" ")} failed (exit ${code}):\n${stderr.slice(-3000)}`));
      done({ cpuMs: Number(line[1]) + Number(line[2]), wallMs: Number(line[4]), rssMb: Number(line[3]) / 1024 });
    });
  });
}

/** Paired runs: the medians of each side, and every run (for the ratio's interval). */
export interface Paired {
  ours: TreeCost;
  peer: TreeCost;
  runs: { ours: TreeCost[]; peer: TreeCost[] };
}

/** Medians of paired runs: `ours` and `peer` alternate, so both see the same machine load. */
export async function paired(runs: number, ours: () => Promise<TreeCost>, peer: () => Promise<TreeCost>): Promise<Paired> {
  const a: TreeCost[] = [];
  const b: TreeCost[] = [];
  for (let i = 0; i < runs; i++) {
    a.push(await ours());
    b.push(await peer());
  }
  return { ours: medianOf(a), peer: medianOf(b), runs: { ours: a, peer: b } };
}

export function medianOf(costs: TreeCost[]): TreeCost {
  const pick = (key: keyof TreeCost) => median(costs.map((cost) => cost[key]));
  return { cpuMs: pick("cpuMs"), wallMs: pick("wallMs"), rssMb: pick("rssMb") };
}

/** The machine's load while a benchmark ran, from /proc/loadavg. */
export async function loadAverage(): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  return (await readFile("/proc/loadavg", "utf8").catch(() => "")).split(" ").slice(0, 3).join(" ");
}
