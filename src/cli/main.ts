#!/usr/bin/env node
import { quickAnswer } from "./top.js";

// The CLI's entry. `chartroom --help` and `--version` are answered from one
// small module, before the rest is loaded: a user (or a shell completion)
// asking for help should not wait for the whole tool to start.
const argv = process.argv.slice(2);
const quick = quickAnswer(argv);
if (quick !== undefined) process.stdout.write(`${quick}\n`);
else await (await import("./start.js")).start(argv);
