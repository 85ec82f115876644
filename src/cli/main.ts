#!/usr/bin/env node
import { releaseAllNow } from "../store/writer-lock.js";
import { removeAllNow } from "../util/temp.js";
import { runCli } from "./run.js";

// The one place that prints and exits.

// Interrupted: no temporary values file and no writer lock is left behind
// (the lock file itself is replaced atomically, so it is the old or the new).
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.once(signal, () => {
    removeAllNow();
    releaseAllNow();
    process.exit(code);
  });
}
const colour = process.stdout.isTTY === true && !process.env.NO_COLOR;
const result = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  colour,
  progress: (line) => {
    if (process.stderr.isTTY) process.stderr.write(`\r\u001b[2K${line}`);
  },
});
if (process.stderr.isTTY) process.stderr.write("\r\u001b[2K");
if (result.output !== "") process.stdout.write(`${result.output}\n`);
if (result.errors !== "") process.stderr.write(`${result.errors}\n`);
process.exitCode = result.exitCode;
