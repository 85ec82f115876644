import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { compileFunction } from "node:vm";
import { describe, expect, it } from "vitest";
import { fillIdentifierTable, IDENTIFIER_FILE } from "../../scripts/sucrase-tables.js";

// The CLI bundle's sucrase builds its identifier tables with one fill
// (scripts/build-cli.ts): they must come out as sucrase's own loop makes them.
const require = createRequire(import.meta.url);
const file = require.resolve("sucrase/dist/parser/util/identifier.js");
const original = readFileSync(file, "utf8");

/** The tables a text of identifier.js exports, run as Node runs the file. */
function tablesOf(source: string): { IS_IDENTIFIER_CHAR: Uint8Array; IS_IDENTIFIER_START: Uint8Array } {
  const module = { exports: {} as { IS_IDENTIFIER_CHAR: Uint8Array; IS_IDENTIFIER_START: Uint8Array } };
  const run = compileFunction(source, ["exports", "require", "module"], { filename: file }) as (...args: unknown[]) => void;
  run(module.exports, createRequire(file), module);
  return module.exports;
}

describe("sucrase's identifier tables in the bundle", () => {
  it("are the ones sucrase's loop makes, every character of both", () => {
    const theirs = tablesOf(original);
    const ours = tablesOf(fillIdentifierTable(original));
    expect(Buffer.from(ours.IS_IDENTIFIER_CHAR).equals(Buffer.from(theirs.IS_IDENTIFIER_CHAR))).toBe(true);
    expect(Buffer.from(ours.IS_IDENTIFIER_START).equals(Buffer.from(theirs.IS_IDENTIFIER_START))).toBe(true);
    // Not vacuous: past ASCII is marked, whitespace is not, digits start no identifier.
    expect([ours.IS_IDENTIFIER_CHAR[0xe9], ours.IS_IDENTIFIER_CHAR[0x3000], ours.IS_IDENTIFIER_START[0x30]]).toEqual([1, 0, 0]);
  });

  it("no longer loops", () => {
    expect(fillIdentifierTable(original)).not.toMatch(/i < 65536/);
  });

  it("are patched in the file esbuild loads", () => {
    expect(IDENTIFIER_FILE.test(file)).toBe(true);
  });

  it("stop the build when sucrase has changed the loop", () => {
    expect(() => fillIdentifierTable(original.replace("i < 65536", "i < 0x10000"))).toThrow(/no longer marks non-ASCII characters in a loop/);
  });
});
