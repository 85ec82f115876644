#!/usr/bin/env node
import { runCli } from "./run.js";

// The one place that prints and exits.
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
