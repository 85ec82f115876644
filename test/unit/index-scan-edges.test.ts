// The index scanner's edges, form by form: what it must step aside from (the
// full parse reads those, or refuses them with a line and column), what it
// must carry itself (what `helm repo index` and repository tools write, so the
// fast path stays the common one), and, over documents built from awkward
// pieces, that it never answers where the full parse refuses or differs.
import { describe, expect, it } from "vitest";
import { parseIndex, parseIndexFully } from "../../src/sources/helm-index/file.js";
import { hasDuplicateKey, scanIndex } from "../../src/sources/helm-index/scan.js";

const index = (body: string, tail = "generated: 2026-01-01T00:00:00Z\n") => `apiVersion: v1\nentries:\n${body}${tail}`;

/** The full parse, or the error code it refuses with. */
function full(text: string): unknown {
  try {
    return parseIndexFully(text, "x");
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe("scanIndex steps aside", () => {
  it.each([
    ["a carriage return", index("  a:\n  - version: 1.0.0\r\n")],
    // A lone carriage return breaks the line for the full parse; the scan reads lines by \n only.
    ["a carriage return inside a value we skip", index("  a:\n  - version: 1.0.0\n    keywords:\n    - a\rb\n")],
    // The full parse reads "1.0.0" (a tab separates the comment), the scan would keep it all.
    ["a tab before a comment", index("  a:\n  - version: 1.0.0\t# c\n")],
    ["a block scalar header with text after it, after the entries", index("  a:\n  - version: 1.0.0\n", "notes: |x\n")],
    ["a block scalar header with text after it, in a field we skip", index("  a:\n  - version: 1.0.0\n    description: |x\n")],
    ["a plain value ending in a bar going on below with a key", index("  a:\n  - version: 1.0.0\n", "notes: a|\n  b: c\n")],
    ["a list item at a key's column after that key's nested map", index("  a:\n  - version: 1.0.0\n", "notes:\n  b: 1\n- x\n")],
    ["a list item after a key with a value", index("  a:\n  - version: 1.0.0\n", "notes: 1\n- x\n")],
    ["a list item after a key with a value that follows a list", index("  a:\n  - version: 1.0.0\n", "notes:\n- x\nmore: 1\n- y\n")],
    ["a chart name less indented than the first", "apiVersion: v1\nentries:\n    a:\n    - version: 1.0.0\n  b:\n  - version: 1.0.0\n"],
    ["a key going on below an empty map", index("  a:\n  - version: 1.0.0\n", "notes: {}\n  x: 1\n")],
    ["a lone dash after a key with a value", index("  a:\n  - version: 1.0.0\n", "notes: 1\n-\n")],
    ["a key going on below a list item that is an empty map", index("  a:\n  - version: 1.0.0\n", "notes:\n- {}\n  x: 1\n")],
    ["a quoted value after the entries that never closes", index("  a:\n  - version: 1.0.0\n", "notes: 'one\n  two\n")],
    ["words going on below a quoted value that closed", index("  a:\n  - version: 1.0.0\n", "notes: 'a'\n  more\n")],
    ["no entries at all", "apiVersion: v1\n"],
    ["entries twice", `${index("  a:\n  - version: 1.0.0\n")}entries:\n  b:\n  - version: 1.0.0\n`],
    ["a directive", `%YAML 1.2\n${index("  a:\n  - version: 1.0.0\n")}`],
    ["entries with a comment after the key", "apiVersion: v1\nentries: # all\n  a:\n  - version: 1.0.0\n"],
    ["chart names at two indents", index("  a:\n  - version: 1.0.0\n   b:\n   - version: 1.0.0\n")],
    ["a chart name with a value", index("  a: x\n")],
    ["a quoted chart name", index('  "a":\n  - version: 1.0.0\n')],
    ["a chart name starting with a dash", index("  -a:\n  - version: 1.0.0\n")],
    ["a chart with no list", index("  a:\n  b:\n  - version: 1.0.0\n")],
    ["items at two indents", index("  a:\n  - version: 1.0.0\n    - version: 2.0.0\n")],
    ["a chart holding a map", index("  a:\n    version: 1.0.0\n")],
    ["a field line that is not a key", index("  a:\n  - version: 1.0.0\n    just words\n")],
    ["a field with a flow value we skip", index("  a:\n  - version: 1.0.0\n    maintainers: [x]\n")],
    ["a field with an alias we skip", index("  a:\n  - version: 1.0.0\n    home: *x\n")],
    ["a quoted value we skip that never closes", index("  a:\n  - version: 1.0.0\n    description: 'one\n")],
    ["a quoted value we skip closing after its last line", index("  a:\n  - version: 1.0.0\n    description: 'one\n      two\n    home: x'\n")],
    ["a double-quoted value we skip ending in an escaped quote", index('  a:\n  - version: 1.0.0\n    description: "one\n      two\\"\n')],
    ["urls with a value on the line", index("  a:\n  - version: 1.0.0\n    urls: a.tgz\n")],
    ["urls at two indents", index("  a:\n  - version: 1.0.0\n    urls:\n    - a.tgz\n      - b.tgz\n")],
    ["a url that is a list marker", index("  a:\n  - version: 1.0.0\n    urls:\n    - - a.tgz\n")],
    ["a url that is null", index("  a:\n  - version: 1.0.0\n    urls:\n    - ~\n")],
    ["a kept field holding a map", index("  a:\n  - version: 1.0.0\n    appVersion:\n      x: 1\n")],
    ["a kept field holding a list at its indent", index("  a:\n  - version: 1.0.0\n    appVersion:\n    - x\n")],
    ["a kept value that is null", index("  a:\n  - version: ~\n")],
    ["a kept value that is a comment", index("  a:\n  - version: #1.0.0\n")],
    ["a kept value that is the word null", index("  a:\n  - version: null\n")],
    ["a kept value with a colon and space", index("  a:\n  - version: a: b\n")],
    ["a kept value ending in a colon", index("  a:\n  - version: a:\n")],
    ["a kept value that is a list marker", index("  a:\n  - version: - 1\n")],
    ["a kept value opening with a closing bracket", index("  a:\n  - version: ]1\n")],
    ["a kept value that goes on below", index("  a:\n  - version: 1.0.0\n      more\n")],
    ["a value we skip going on with a key", index("  a:\n  - version: 1.0.0\n    description: one\n      two: three\n")],
    ["a value we skip going on with a comment", index("  a:\n  - version: 1.0.0\n    description: one\n      two #three\n")],
    ["a value we skip going on after a comment line", index("  a:\n  - version: 1.0.0\n    description: one\n      # two\n      three\n")],
    ["a kept value that is a dash", index("  a:\n  - version: -\n")],
    ["a kept value opening a flow map", index("  a:\n  - version: {x}\n")],
    ["a kept value in unclosed double quotes", index('  a:\n  - version: "1.0.0\n')],
    ["a kept value with a quote inside double quotes", index('  a:\n  - version: "1.0"0"\n')],
    ["a kept value of one double quote", index('  a:\n  - version: "\n')],
    ["a kept value in unclosed single quotes", index("  a:\n  - version: '1.0.0\n")],
    ["a kept value with a lone quote inside single quotes", index("  a:\n  - version: '1.0'0'\n")],
    ["a kept value of one single quote", index("  a:\n  - version: '\n")],
    ["a top-level line after the entries that is not a key", index("  a:\n  - version: 1.0.0\n", "just words\n")],
    ["a broken value before the entries", `apiVersion: [v1\n${index("  a:\n  - version: 1.0.0\n").slice("apiVersion: v1\n".length)}`],
    ["a line before the entries that is not a key", `just words\n${index("  a:\n  - version: 1.0.0\n")}`],
    ["a broken value nested after the entries", index("  a:\n  - version: 1.0.0\n", "serverInfo:\n  contextPath: a: b\n")],
    ["a top-level broken flow value after the entries", index("  a:\n  - version: 1.0.0\n", "generated: [x\n")],
    ["a value we skip with a colon and space", index("  a:\n  - version: 1.0.0\n    name: a: b\n")],
    ["a value we skip that is a colon", index("  a:\n  - version: 1.0.0\n    name: :\n")],
    ["a value we skip ending in a colon", index("  a:\n  - version: 1.0.0\n    name: a: # c\n")],
    ["a value we skip that is a list marker", index("  a:\n  - version: 1.0.0\n    name: - a\n")],
    ["a value we skip opening with a closing bracket", index("  a:\n  - version: 1.0.0\n    name: ]a\n")],
    ["a quoted value we skip with text after it", index("  a:\n  - version: 1.0.0\n    name: 'a' b\n")],
    ["a duplicate key deeper down", index("  a:\n  - version: 1.0.0\n    maintainers:\n    - name: x\n      name: y\n")],
  ])("for %s", (_, text) => {
    expect(scanIndex(text)).toBeUndefined();
  });
});

describe("scanIndex answers", () => {
  it.each([
    ["items indented under the name", index("  a:\n    - version: 1.0.0\n    - version: 2.0.0\n")],
    ["charts at an indent of four", index("    a:\n    - version: 1.0.0\n    b:\n    - version: 2.0.0\n")],
    ["blank lines and comments between", index("  # charts\n\n  a:\n\n  - version: 1.0.0\n    # a note\n\n    appVersion: 2.0\n")],
    [
      "every kept field",
      index("  a:\n  - version: 1.0.0\n    appVersion: '1.2'\n    digest: \"abc\"\n    created: 2026-01-02T03:04:05Z\n    deprecated: true\n"),
    ],
    [
      "fields we skip, nested and multi-line",
      index(
        "  a:\n  - version: 1.0.0\n    maintainers:\n    - name: x\n      email: x@example.test\n    annotations:\n      example.test/a: |\n        - a\n        - b\n    description: 'one\n      two'\n    home: \"x\"\n    icon: >-\n      folded\n",
      ),
    ],
    ["a skipped list at the key's indent then a kept field", index("  a:\n  - keywords:\n    - one\n    - two\n    version: 1.0.0\n")],
    ["urls indented under their key", index("  a:\n  - version: 1.0.0\n    urls:\n      - a.tgz\n      - 'b.tgz'\n")],
    ["urls at their key's indent", index("  a:\n  - urls:\n    - a.tgz\n    version: 1.0.0\n")],
    ["empty urls", index("  a:\n  - version: 1.0.0\n    urls: []\n")],
    ["urls with nothing under them", index("  a:\n  - version: 1.0.0\n    urls:\n  b:\n  - version: 1.0.0\n")],
    ["an empty kept value", index("  a:\n  - version: 1.0.0\n    appVersion:\n    digest: abc\n")],
    ["a kept value with trailing spaces", index("  a:\n  - version: 1.0.0   \n")],
    ["a kept value with hashes and colons inside", index("  a:\n  - version: 1.0.0\n    appVersion: v1#x:y\n")],
    ["single quotes with a doubled quote", index("  a:\n  - version: 1.0.0\n    appVersion: 'it''s'\n")],
    ["several charts", index("  a:\n  - version: 1.0.0\n  b:\n  - version: 1.0.0\n  - version: 0.9.0\n")],
    [
      "values we skip with comments and colons inside",
      index("  a:\n  - version: 1.0.0\n    name: a:b # c: d\n    home: 'x'\n    icon: \"z\"\n    keywords: # none\n"),
    ],
    [
      "a value we skip wrapped over lines, as go-yaml writes it",
      index(
        "  a:\n  - description: A long description that go-yaml\n      wraps at eighty columns, with (brackets)\n\n      and a blank line\n    version: 1.0.0\n",
      ),
    ],
    ["a block scalar after the entries", index("  a:\n  - version: 1.0.0\n", "notes: |\n  a: b: c\n")],
    ["a quoted value after the entries that goes on below", index("  a:\n  - version: 1.0.0\n", "notes: 'one\n  two'\n")],
    [
      "comment lines after plain values",
      `apiVersion: v1\n# a note\n${index("  a:\n  - version: 1.0.0\n    description: one\n      two\n    # a note\n    home: x\n", "# a note\ngenerated: x\n").slice("apiVersion: v1\n".length)}`,
    ],
    ["nothing after the entries", index("  a:\n  - version: 1.0.0\n", "")],
    ["a nested map after the entries", index("  a:\n  - version: 1.0.0\n", "serverInfo:\n  contextPath: /x\n  tags:\n  - a\n  - b: c\n")],
    ["an empty map after the entries", index("  a:\n  - version: 1.0.0\n", "serverInfo: {}\n")],
    ["lists at their keys' column one after the other, after the entries", index("  a:\n  - version: 1.0.0\n", "notes:\n- x\nmore:\n- y\n")],
    ["lone dashes (null items) at their key's column and deeper", index("  a:\n  - version: 1.0.0\n", "notes:\n-\n- x\nmore:\n  -\n  - y\n")],
    ["a key with trailing spaces, its list at its column", index("  a:\n  - version: 1.0.0\n", "notes:  \n- x\n")],
    ["an empty map with trailing spaces", index("  a:\n  - version: 1.0.0\n", "notes: {}  \n")],
    ["a key with a trailing space holding a map", index("  a:\n  - version: 1.0.0\n", "notes: \n  b: 1\n")],
  ])("%s as the full parse does", (_, text) => {
    expect(scanIndex(text)).toBeDefined();
    expect(parseIndex(text, "x")).toStrictEqual(parseIndexFully(text, "x"));
  });

  it("never answers where the full parse refuses or differs (indexes built from awkward pieces)", () => {
    const pieces = [
      "1.0.0",
      "v2",
      "a",
      "x.tgz",
      "#",
      " #c",
      ":",
      ": ",
      "- ",
      "-",
      "&x",
      "*x",
      "!t",
      "|",
      ">",
      "'",
      "''",
      '"',
      "\\",
      "%",
      "@",
      "[",
      "]",
      "{",
      "}",
      "[]",
      "~",
      "null",
      " ",
    ];
    const keys = ["version", "appVersion", "digest", "created", "deprecated", "urls", "name", "description", "home"];
    let state = 11;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)] as T;
    const awkward = () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(pieces)).join("");
    const word = () => (next() < 0.7 ? pick(["1.0.0", "a b", "x.tgz", "v2", "'q'", "2026-01-01"]) : awkward());
    let answered = 0;
    let refused = 0;
    for (let n = 0; n < 3000; n++) {
      const lines: string[] = [];
      for (let c = 0; c < 1 + Math.floor(next() * 2); c++) {
        lines.push(`  c${next() < 0.9 ? c : 0}:`);
        for (let v = 0; v < 1 + Math.floor(next() * 2); v++) {
          for (let f = 0; f < 1 + Math.floor(next() * 4); f++) {
            const lead = f === 0 ? "  - " : pick(["    ", "    ", "    ", "  ", "      "]);
            const shape = next();
            if (shape < 0.6) lines.push(`${lead}${pick(keys)}: ${word()}`);
            else if (shape < 0.8) lines.push(`${lead}${pick(keys)}:`, `${pick(["    ", "      "])}- ${word()}`);
            else lines.push(`${lead}${word()}`);
          }
        }
      }
      const text = index(`${lines.join("\n")}\n`);
      const expected = full(text);
      const scanned = scanIndex(text);
      if (typeof expected === "string") {
        refused++;
        expect(scanned, text).toBeUndefined();
        continue;
      }
      if (scanned === undefined) continue;
      answered++;
      expect(parseIndex(text, "x"), text).toStrictEqual(expected);
    }
    // Both sides are exercised: indexes the full parse refuses, and indexes the scan answers.
    expect({ refused: refused > 200, answered: answered > 200 }).toStrictEqual({ refused: true, answered: true });
  });
});

describe("hasDuplicateKey", () => {
  it.each([
    ["a repeated top-level key", "a: 1\nb: 2\na: 3\n", true],
    ["a repeated key in a nested map", "a:\n  x: 1\n  x: 2\n", true],
    ["a repeated key in one list item", "- x: 1\n  x: 2\n", true],
    ["a repeated key in a list item's nested map", "- a:\n    x: 1\n    x: 2\n", true],
    ["a repeated key after a list in a list item", "- - x: 1\n    x: 2\n", true],
    ["a repeated key after a nested map closes", "a:\n  x: 1\nb: 1\na: 2\n", true],
    ["the same key in two list items", "- x: 1\n- x: 2\n", false],
    ["the same key in two nested maps", "a:\n  x: 1\nb:\n  x: 2\n", false],
    ["the same key in two items of a nested list", "a:\n- x: 1\n- x: 2\n", false],
    ["the same key in two maps of a list of lists", "- - x: 1\n  - x: 2\n", false],
    ["the same key at two depths", "x:\n  x: 1\n", false],
    ["keys inside a block scalar", "a: |\n  x: 1\n  x: 2\nb: 1\n", false],
    ["keys inside a folded scalar", "a: >-\n  x: 1\n  x: 2\n", false],
    ["keys inside a multi-line quoted value", "a: 'one\n  x: 1\n  x: 2'\n", false],
    ["keys after a block scalar ends", "a: |\n  x\nb: 1\nb: 2\n", true],
    ["comments and blank lines", "a: 1\n# a: 2\n\n", false],
    ["a key that is quoted", "'a': 1\n'a': 2\n", false],
  ])("%s: %s", (_, text, repeated) => {
    expect(hasDuplicateKey(text.split("\n"))).toBe(repeated);
  });
});
