#!/usr/bin/env node
import { endOnUnwritableOutput } from "./stream-errors.js";
import { quickAnswer } from "./top.js";

// The CLI's entry. `chartroom --help` and `--version` are answered from one
// small module; anything else loads the rest (cli/start.ts, from the bundle
// through V8's code cache: cli/boot.ts). The package's bin runs it as one
// CommonJS file (dist/cli/main.cjs, scripts/build-cli.ts), so no top-level
// await: a run then starts without Node's ES module loader.
const argv = process.argv.slice(2);
const quick = quickAnswer(argv);
if (quick !== undefined) {
  endOnUnwritableOutput((code) => process.exit(code));
  process.stdout.write(`${quick}\n`);
} else
  import("./boot.js")
    .then(({ loadStart }) => loadStart())
    // A failure past start()'s own reporting is unhandled, as a top-level await's was: printed, exit 1.
    .then((start) => start.start(argv));
