// npm run test:mutation: mutation testing of the pure core, every file the
// architecture test holds pure (test/pure-core.json), so a file added to a pure
// folder is mutated without editing this file. Incremental: a second run tests
// only mutants whose code or tests changed.
import { readFileSync } from "node:fs";

const pure = JSON.parse(readFileSync(new URL("./test/pure-core.json", import.meta.url), "utf8"));

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  coverageAnalysis: "perTest",
  // values/check and store/archives read files around their pure core, and keep the scores they had.
  mutate: [...pure.folders.map((folder) => `src/${folder}/**/*.ts`), ...pure.files.map((file) => `src/${file}`), "src/values/check.ts", "src/store/archives.ts"],
  // Message texts are not mutated: the tests check findings by rule and path, not by wording.
  mutator: { excludedMutations: ["StringLiteral"] },
  ignoreStatic: true,
  // Only sources: by default Stryker also writes "// @ts-nocheck" into the <script> of every
  // test/**/*.html, which are golden files here.
  disableTypeChecks: "src/**/*.ts",
  incremental: true,
  // Committed, so CI (and a fresh clone) run only what changed since it was written.
  incrementalFile: "test/mutation/incremental.json",
  tempDirName: ".cache/stryker/tmp",
  concurrency: 2,
  reporters: ["clear-text", "progress-append-only", "json"],
  jsonReporter: { fileName: ".cache/stryker/mutation.json" },
  thresholds: { high: 90, low: 85, break: null },
  // A mutant that loops is stopped this long after its tests' own time (1.5× their dry run): at a
  // minute each, the 37 timeouts of the first full run cost about 20 of its 76 minutes.
  timeoutMS: 15000,
};
