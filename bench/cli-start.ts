import { execFile } from "node:child_process";
import { stat, utimes } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { median, ms } from "./lib/serve.js";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "chartroom.js");

/**
 * `chartroom --help` as a whole process through the package's bin: with
 * dist/ current (what an installed package and a built checkout run), and
 * with a source file newer than dist/ (the bin falls back to tsx).
 */
export async function benchCliStart(): Promise<Record<string, string | number>> {
  await run("npm", ["run", "build", "--silent"], { cwd: ROOT });
  const help = () => run(process.execPath, [BIN, "--help"], { cwd: ROOT });
  const compiled = await median(7, help);
  // A source edited after the build: touch one, measure, and build again.
  const edited = join(ROOT, "src", "index.ts");
  const was = await stat(edited);
  await utimes(edited, was.atime, new Date(Date.now() + 60_000));
  let sources: number;
  try {
    sources = await median(5, help);
  } finally {
    await utimes(edited, was.atime, was.mtime);
  }
  return {
    "chartroom --help, the bundle in dist/ (target ≤ 80 ms)": ms(compiled),
    "chartroom --help, sources through tsx (dist/ older than src/)": ms(sources),
  };
}
