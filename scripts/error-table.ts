// The README's table of error codes, generated from the catalogue:
// `npm run docs` writes it; test/unit/errors.test.ts fails when they differ.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CATALOGUE } from "../src/errors/catalogue.js";

const HEADING = "#### Error codes";

/** The table: one row per code, in the catalogue's order. */
export function errorTable(): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|");
  const rows = Object.entries(CATALOGUE).map(([code, entry]) => `| \`${code}\` | ${entry.exit} | ${cell(entry.meaning)} | ${cell(entry.hint)} |`);
  return [
    HEADING,
    "",
    "Generated from `src/errors/catalogue.ts` (`npm run docs`).",
    "",
    "| code | exit | meaning | default hint |",
    "| --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

/** The README's section as it stands, from its heading to the next heading. */
export function readmeSection(readme: string): string {
  const start = readme.indexOf(`${HEADING}\n`);
  if (start < 0) return "";
  const next = readme.slice(start + HEADING.length).search(/\n#{1,4} /);
  return readme.slice(start, next < 0 ? undefined : start + HEADING.length + next + 1);
}

if (process.argv[1]?.endsWith("error-table.ts")) {
  const path = join(import.meta.dirname, "..", "README.md");
  const readme = readFileSync(path, "utf8");
  const current = readmeSection(readme);
  if (current === "") throw new Error(`README.md has no "${HEADING}" section to fill`);
  writeFileSync(path, readme.replace(current, errorTable()));
  process.stdout.write("wrote the error table in README.md\n");
}
