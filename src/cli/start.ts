import * as z from "../util/zod.js";
import { releaseAllNow } from "../store/writer-lock.js";
import { killAllNow } from "../util/children.js";
import { abandonWritesNow } from "../util/fs.js";
import { removeAllNow } from "../util/temp.js";
import { logProgress } from "./progress.js";
import { runCli } from "./run.js";
import { endOnUnwritableOutput } from "./stream-errors.js";

// With cli/main.ts, the one place that prints and exits: every command but
// `--help` and `--version` alone runs here.

// The CLI parses each record shape a handful of times: compiling a fast path
// for each (zod's JIT) costs more than it saves. The CLI's own copy of zod
// (in its bundle) only, never a library user's.
z.config({ jitless: true });

// Interrupted: every child's process group killed (helm and what it runs),
// no temporary file or writer lock left behind; a file being written keeps
// its old bytes (writes are atomic renames). The work between two awaits is
// bounded (patterns in linear time, schemas and values read without
// hostile depth), so the handler runs within moments of the signal.
function stopNow(code: number): never {
  killAllNow();
  abandonWritesNow();
  removeAllNow();
  releaseAllNow();
  process.exit(code);
}
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const) {
  process.once(signal, () => stopNow(code));
}

// So does output nobody can take: a reader gone, a full disk (cli/stream-errors.ts).
endOnUnwritableOutput(stopNow);

export async function start(argv: string[]): Promise<void> {
  const result = await runCli(argv, {
    cwd: process.cwd(),
    env: process.env,
    colour: process.stdout.isTTY === true,
    progress: process.stderr.isTTY ? (line) => process.stderr.write(`\r\u001b[2K${line}`) : logProgress(Date.now()),
    readStdin,
  });
  if (process.stderr.isTTY) process.stderr.write("\r\u001b[2K");
  if (result.output !== "") process.stdout.write(`${result.output}\n`);
  if (result.errors !== "") process.stderr.write(`${result.errors}\n`);
  process.exitCode = result.exitCode;
}

/** Standard input, whole, or its first `maxBytes` (then the rest is left unread). */
async function readStdin(maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= maxBytes) break;
  }
  return Buffer.concat(chunks).subarray(0, maxBytes);
}
