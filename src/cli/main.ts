#!/usr/bin/env node
import { quickAnswer } from "./top.js";

// The CLI's entry. `chartroom --help` and `--version` are answered from one
// small module; anything else loads the rest (cli/start.ts, from the bundle
// through V8's code cache: cli/boot.ts).
const argv = process.argv.slice(2);
const quick = quickAnswer(argv);
if (quick !== undefined) process.stdout.write(`${quick}\n`);
else await (await (await import("./boot.js")).loadStart()).start(argv);
