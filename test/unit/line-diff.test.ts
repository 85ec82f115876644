// A long value changed in a few of its lines, as unified hunks: the text's
// own lines, JSON kept in a string pretty-printed first, a list of scalars
// one element a line; everything else is left to a before/after pair.
import { describe, expect, it } from "vitest";
import { DEFAULT_CONTEXT, lineDiff } from "../../src/diff/lines.js";

const file = (changed: string) => Array.from({ length: 12 }, (_, i) => (i === 6 ? changed : `line ${i}`)).join("\n");

describe("lineDiff", () => {
  it("diffs a multi-line string by line, with three lines of context by default, and counts what changed", () => {
    const diff = lineDiff(`${file("old")}\n`, `${file("new")}\n`);
    expect(DEFAULT_CONTEXT).toBe(3);
    expect(diff).toStrictEqual({
      form: "text",
      added: 1,
      removed: 1,
      hunks: [
        {
          before: { start: 4, lines: 7 },
          after: { start: 4, lines: 7 },
          lines: [" line 3", " line 4", " line 5", "-old", "+new", " line 7", " line 8", " line 9"],
        },
      ],
    });
  });

  it("takes the context asked for, splits hunks apart by it, and reads a last line without a newline as the same line", () => {
    expect(lineDiff(file("old"), file("new"), 0)?.hunks).toStrictEqual([
      { before: { start: 7, lines: 1 }, after: { start: 7, lines: 1 }, lines: ["-old", "+new"] },
    ]);
    const two = lineDiff("a\nb\nc\nd\ne\nf\ng", "A\nb\nc\nd\ne\nf\nG", 1);
    expect(two?.hunks.map((hunk) => hunk.lines)).toStrictEqual([
      ["-a", "+A", " b"],
      [" f", "-g", "+G"],
    ]);
    expect(lineDiff("a\nb", "a\nb\nc", 1)?.hunks[0]?.lines).toStrictEqual([" b", "+c"]);
    expect(lineDiff("a\nb", "a\nb\nc", -2)?.hunks[0]?.lines).toStrictEqual(["+c"]);
  });

  it("pretty-prints JSON kept in one string, when long enough to need it, and diffs its lines", () => {
    const dashboard = (rate: string) =>
      JSON.stringify({
        title: "web",
        panels: [
          { id: 1, expr: `rate(requests[${rate}])` },
          { id: 2, expr: "up" },
        ],
        tags: ["x"],
      });
    const diff = lineDiff(dashboard("5m"), dashboard("1m"), 1);
    expect(diff?.form).toBe("json");
    expect(diff?.hunks[0]?.lines).toStrictEqual(['       "id": 1,', '-      "expr": "rate(requests[5m])"', '+      "expr": "rate(requests[1m])"', "     },"]);
    const list = (n: number) => JSON.stringify(Array.from({ length: 40 }, (_, i) => (i === 5 ? n : i)));
    expect(lineDiff(list(50), list(60), 0)?.hunks[0]?.lines).toStrictEqual(["-  50,", "+  60,"]);
    // Short JSON, JSON of one side only, a JSON scalar, and JSON that does not parse stay a before/after pair.
    expect(lineDiff('{"a":1}', '{"a":2}')).toBeUndefined();
    expect(lineDiff(dashboard("5m"), "not json at all, but long enough to be considered for expanding as JSON")).toBeUndefined();
    expect(lineDiff(`"${"x".repeat(90)}"`, `"${"y".repeat(90)}"`)).toBeUndefined();
    expect(lineDiff(`{${"x".repeat(90)}`, `{${"y".repeat(90)}`)).toBeUndefined();
    expect(lineDiff(`   ${dashboard("5m")}`, dashboard("1m"))?.form).toBe("json");
  });

  it("diffs a list of scalars element by element, quoting what would not read as itself", () => {
    const args = ["--a", "--b", "--c", "--d"];
    expect(lineDiff(args, ["--a", "--b", "--x", "--c", "--d"], 1)).toStrictEqual({
      form: "list",
      added: 1,
      removed: 0,
      hunks: [{ before: { start: 2, lines: 2 }, after: { start: 2, lines: 3 }, lines: [" --b", "+--x", " --c"] }],
    });
    expect(lineDiff(["1", true, null], [1, "true", "null"], 0)?.hunks[0]?.lines).toStrictEqual(['-"1"', "-true", "-null", "+1", '+"true"', '+"null"']);
    expect(lineDiff(["a b", " padded", "", 'say "hi"', "two\nlines"], ["a b"], 0)?.hunks[0]?.lines).toStrictEqual([
      '-" padded"',
      '-""',
      '-"say \\"hi\\""',
      '-"two\\nlines"',
    ]);
  });

  it("leaves what a pair says better alone: one-line strings, other types, lists of objects, empty lists, values that read the same", () => {
    for (const [before, after] of [
      ["a", "b"],
      [1, 2],
      [[{ a: 1 }], [{ a: 2 }]],
      [[], ["a"]],
      [{ a: 1 }, { a: 2 }],
      ["a\n", 7],
      ["a\nb", "a\nb\n"],
    ] as const)
      expect(lineDiff(before, after), JSON.stringify([before, after])).toBeUndefined();
  });

  it("gives up on texts too different to diff cheaply, leaving the whole of both", () => {
    const lines = (prefix: string) => Array.from({ length: 3000 }, (_, i) => `${prefix}${i}`).join("\n");
    expect(lineDiff(lines("a"), lines("b"))).toBeUndefined();
    expect(lineDiff(lines("a"), lines("a").replace("a7\n", "x\n"))?.added).toBe(1);
  });
});
