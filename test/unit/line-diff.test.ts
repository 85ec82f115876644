// A long value changed in a few of its lines, as unified hunks: the text's
// own lines, JSON kept in a string pretty-printed first, a list of scalars
// one element a line; everything else is left to a before/after pair.
import { applyPatch, structuredPatch } from "diff";
import { describe, expect, it } from "vitest";
import { commonEnds, DEFAULT_CONTEXT, lineDiff } from "../../src/diff/lines.js";

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

  // jsdiff over the whole of both texts: what lineDiff gave before it cut the lines both share at their ends.
  // A last line without a newline is the same line, as lineDiff reads it.
  const close = (text: string) => (text.endsWith("\n") ? text : `${text}\n`);
  const whole = (before: string, after: string, context: number) =>
    (structuredPatch("", "", close(before), close(after), "", "", { context, maxEditLength: 1000 })?.hunks ?? []).map((hunk) => ({
      before: { start: hunk.oldStart, lines: hunk.oldLines },
      after: { start: hunk.newStart, lines: hunk.newLines },
      lines: hunk.lines,
    }));

  it("gives a long text's hunks as jsdiff gives them over the whole text, the change in its middle, near its start or near its end", () => {
    const dashboard = Array.from({ length: 700 }, (_, i) => `    "panel ${i}": { "title": "p${i}" },`);
    for (const at of [0, 1, 2, 3, 4, 350, 695, 696, 697, 698, 699])
      for (const context of [0, 1, 3, 5]) {
        const changed = dashboard.map((line, i) => (i === at ? line.replace("title", "name") : line));
        const added = [...dashboard.slice(0, at), "    extra,", ...dashboard.slice(at)];
        for (const after of [changed, added]) {
          const diff = lineDiff(dashboard.join("\n"), after.join("\n"), context);
          expect(diff?.hunks, `line ${at}, context ${context}`).toStrictEqual(whole(dashboard.join("\n"), after.join("\n"), context));
        }
      }
  });

  it("cuts shared ends at whole lines of both texts: a line that ends as another does is not shared", () => {
    for (const [before, after] of [
      ["x\nb", "x\na b"],
      ["x\na b", "x\nb"],
      ["b\ny", "a b\ny"],
    ] as const)
      for (const context of [0, 1, 3]) expect(lineDiff(before, after, context)?.hunks, `${before} → ${after}`).toStrictEqual(whole(before, after, context));
  });

  it("gives hunks that turn the one text into the other, with as many lines added and removed as jsdiff finds, on texts of repeated lines", () => {
    // Repeated lines make several smallest diffs: where one reads a line as moved, another may read it as kept.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pool = ["a", "b", "c", "", "dd", "a b"];
    let same = 0;
    for (let run = 0; run < 3000; run++) {
      const lines = Array.from({ length: 2 + next(12) }, () => pool[next(pool.length)] as string);
      const other = [...lines];
      for (let edit = next(4); edit >= 0; edit--) {
        const at = next(other.length + 1);
        if (next(2) === 0) other.splice(at, 0, pool[next(pool.length)] as string);
        else other.splice(at, 1);
      }
      const [before, after, context] = [lines.join("\n"), other.join("\n"), next(5)];
      const diff = lineDiff(before, after, context);
      const reference = whole(before, after, context);
      const count = (mark: string) => reference.flatMap((hunk) => hunk.lines).filter((line) => line.startsWith(mark)).length;
      expect([diff?.added ?? 0, diff?.removed ?? 0], `${JSON.stringify(before)} → ${JSON.stringify(after)}`).toStrictEqual([count("+"), count("-")]);
      const hunks = (diff?.hunks ?? []).map((hunk) => ({
        oldStart: hunk.before.start,
        oldLines: hunk.before.lines,
        newStart: hunk.after.start,
        newLines: hunk.after.lines,
        lines: hunk.lines,
      }));
      expect(
        applyPatch(close(before), { oldFileName: "", newFileName: "", oldHeader: "", newHeader: "", hunks }),
        `${JSON.stringify(before)} → ${JSON.stringify(after)}`,
      ).toBe(close(after));
      if (JSON.stringify(diff?.hunks ?? []) === JSON.stringify(reference)) same++;
    }
    // Most come out exactly as jsdiff's over the whole text.
    expect(same).toBeGreaterThan(2900);
  });

  it("cuts exactly the whole lines both texts share at each end, less the context asked for", () => {
    const seven = (changed: string) => `l0\nl1\nl2\n${changed}\nl4\nl5\nl6\n`;
    const cases: [string, string, number, { head: number; tail: number; skipped: number }][] = [
      [seven("X"), seven("Y"), 0, { head: 9, tail: 9, skipped: 3 }],
      [seven("X"), seven("Y"), 1, { head: 6, tail: 6, skipped: 2 }],
      [seven("X"), seven("Y"), 3, { head: 0, tail: 0, skipped: 0 }],
      [seven("X"), seven("Y"), 9, { head: 0, tail: 0, skipped: 0 }],
      // The same text: all of it shares its start, nothing its end.
      ["x\ny\n", "x\ny\n", 0, { head: 4, tail: 0, skipped: 2 }],
      ["x\ny\n", "x\ny\n", 1, { head: 2, tail: 0, skipped: 1 }],
      // One line ends as the other does: only what follows it is shared.
      ["x\nb\n", "x\na b\n", 0, { head: 2, tail: 0, skipped: 1 }],
      ["x\nb\nz\n", "x\na b\nz\n", 0, { head: 2, tail: 2, skipped: 1 }],
      // The first line differs; the end still counts whole lines.
      ["A\nz\n", "B\nz\n", 0, { head: 0, tail: 2, skipped: 0 }],
      ["Az\nz\n", "Bz\nz\n", 0, { head: 0, tail: 2, skipped: 0 }],
      // One text starts the other: the end never reaches into the start.
      ["x\n", "x\ny\n", 0, { head: 2, tail: 0, skipped: 1 }],
      ["x\ny\n", "x\n", 0, { head: 2, tail: 0, skipped: 1 }],
      ["x\nx\n", "x\nx\nx\n", 0, { head: 4, tail: 0, skipped: 2 }],
      // Empty lines, one back from the second line and from the first.
      ["\n\nA\n", "\n\nB\n", 1, { head: 1, tail: 0, skipped: 1 }],
      ["\nA\n", "\nB\n", 1, { head: 0, tail: 0, skipped: 0 }],
      ["A\n\n\n", "B\n\n\n", 1, { head: 0, tail: 1, skipped: 0 }],
      // A first line both lack, one text's empty: nothing shared at the start.
      ["\nA\n", "B\nA\n", 0, { head: 0, tail: 2, skipped: 0 }],
      // The whole of one text is the other's end, or its end meets the shared start.
      ["A\n", "B\nA\n", 0, { head: 0, tail: 2, skipped: 0 }],
      ["x\nz\n", "x\ny\nz\n", 0, { head: 2, tail: 2, skipped: 1 }],
    ];
    for (const [a, b, context, cut] of cases) expect(commonEnds(a, b, context), `${JSON.stringify(a)} ${JSON.stringify(b)} ${context}`).toStrictEqual(cut);
  });
});
