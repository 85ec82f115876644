// The fast reader's edges, form by form: what it must step aside from (js-yaml
// reads those, or refuses them), what it must carry itself (the forms chart
// templates write, so the fast path stays the common one), and how it shares
// blocks between documents. The property tests in fast-yaml.test.ts check the
// answers; these check where the line between answering and stepping aside is.
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { parseBlockYaml } from "../../src/util/fast-yaml.js";
import { KUBERNETES_SCHEMA } from "../../src/util/kube-yaml.js";

const jsYaml = (text: string): unknown => load(text, { schema: KUBERNETES_SCHEMA });

describe("parseBlockYaml steps aside", () => {
  it.each([
    ["a carriage return", "a: 1\r\nb: 2\r\n"],
    ["a byte order mark (js-yaml drops it; read as text it joins the first key)", "\uFEFFa: 1\n"],
    ["a tab", "a: 1\n\tb: 2\n"],
    ["a document marker", "---\na: 1\n"],
    ["a document end marker", "...\n"],
    ["a directive", "%YAML 1.2\na: 1\n"],
    ["a document with nothing in it", "# only a comment\n\n"],
    ["a deeper line where a key is expected", "a: 1\n   b: 2\n"],
    ["a deeper line in a list", "- 1\n   - 2\n"],
    ["a line that is not an entry", "a: 1\nplain words\n"],
    ["a __proto__ key", "__proto__: 1\n"],
    ["a list in a list on one line", "- - x\n"],
    ["a list in a list on one line, bare", "- -\n"],
    ["a double-quoted key with an escape", '"a\\tb": 1\n'],
    ["a single-quoted key with a doubled quote", "'it''s': 1\n"],
    ["a key with an unclosed quote", '"a: 1\n'],
    ["a quoted key with text before its colon", '"a" b: 1\n'],
    ["a key that is not text", "1: x\n"],
    ["a keep-chomping literal", "a: |+\n  x\n"],
    ["a literal with an indentation indicator", "a: |2\n  x\n"],
    ["a literal with nothing under it", "a: |\nb: 1\n"],
    ["a literal at the end with nothing", "a: |\n"],
    ["a literal with only blank lines under it", "a: |\n\n\n"],
    ["a literal whose blank line is indented deeper", "a: |\n  x\n     \n  y\n"],
    ["a literal's line between its indent and the key's", "a:\n    b: |\n        x\n      y\n"],
    ["a trailing comma in a flow list", "a: [1, 2, ]\n"],
    ["a trailing comma in a flow map", "a: { x: 1, }\n"],
    ["a duplicate key in a flow map", "a: { x: 1, x: 2 }\n"],
    ["a __proto__ key in a flow map", "a: { __proto__: 1 }\n"],
    ["a number as a flow map key", "a: { 1: x }\n"],
    ["a flow key glued to its value", "a: { x:1 }\n"],
    ["a flow map with a separator missing", "a: { x: 1 y: 2 }\n"],
    ["a comment inside a flow list", "a: [1, x #c]\n"],
    ["an empty flow entry", "a: [1, , 2]\n"],
    ["text after a flow list", "a: [1] x\n"],
    ["a flow list with a separator missing", "a: [1 2 : 3]\n"],
    ["an unclosed quote in a flow list", "a: [1, 'x]\n"],
    ["an unknown escape", 'a: "\\q"\n'],
    ["a short hex escape", 'a: "\\x4"\n'],
    ["a non-hex escape", 'a: "\\u00zz"\n'],
    ["a hex escape that does not start with a hex digit", 'a: "\\xg4"\n'],
    ["text after a closing quote", "a: 'x' y\n"],
    ["a quoted scalar with a lone quote inside", "a: 'it's'\n"],
    ["a quoted scalar going on below its line", "a: 'x'\n  y\n"],
    ["a flow list going on below its line", "a: [x]\n  y\n"],
    ["a plain scalar continued by a key", "a: one\n  b: two\n"],
    ["a plain scalar continued by a comment marker", "a: one\n  two #three\n"],
    ["a plain scalar continued by a colon at the end", "a: one\n  two:\n"],
    ["a multi-line plain scalar that is not text on its first line", "a: 10\n  two\n"],
    ["an indicator opening a plain scalar", "a: @x\n"],
    ["an alias", "a: *x\n"],
    ["a list marker as a value", "a: - x\n"],
    ["a colon and space in a list item's value", "- a: b: c\n"],
    ["a multi-line quoted scalar with text after it", "a: 'one\n  two' x\n"],
    ["a multi-line quoted scalar's first line ending in a space", 'a: "one \n  two"\n'],
    ["a multi-line quoted scalar's line ending in a space", 'a: "one\n  two \n  three"\n'],
    ["a multi-line single-quoted scalar with a lone quote", "a: 'one\n  it's'\n"],
    ["a multi-line quoted scalar at the document's end", "a: 'one\n"],
    ["a double-quoted scalar going on below its line", 'a: "x"\n  y\n'],
    // js-yaml refuses a stream with a character YAML cannot print (so does Kubernetes).
    ["a control character in a double-quoted scalar", 'a: "x\u0001\\"y\\""\n'],
    ["a control character in a plain scalar", "a: x\u0007y\n"],
    ["a DEL in a comment", "a: x # \u007f\n"],
    ["a lone surrogate", "a: x\ud800y\n"],
    ["a second quoted scalar after a double-quoted one", 'a: "x" "y"\n'],
    ["a flow collection below its key, going on deeper", "a:\n  {}\n    b: 1\n"],
    ["a flow collection below its key, over several lines", "a:\n  {b: 1,\n  c: 2}\n"],
  ])("for %s", (_, text) => {
    expect(parseBlockYaml(text)).toBeUndefined();
  });
});

describe("parseBlockYaml answers", () => {
  it.each([
    ["a list at the key's indent", "a:\n- 1\n- 2\nb: 3\n"],
    ["a list indented under its key", "a:\n  - 1\n  - 2\n"],
    ["a list at the top", "- 1\n- x\n"],
    ["a key with nothing after it at the end", "a: 1\nb:\n"],
    ["a key with nothing, then a key", "a:\nb: 1\n"],
    ["a key with nothing, then a deeper list", "a:\n  - x\nb: 1\n"],
    // An empty item, then the next: not a list under the first (a bug this test found).
    ["empty list items", "-\n- # nothing\n- x\n"],
    ["empty list items under a key", "a:\n-\n- x\nb:\n  -\n  - y\n"],
    ["a key glued to a colon in its name", "a:b: 1\n"],
    ["a plain scalar ended by a comment line", "a: one\n  #three\nb: 2\n"],
    ["maps in a list", "- a: 1\n  b: 2\n-   c: 3\n    d: 4\n"],
    ["a list in a map in a list", "- a:\n  - 1\n  b: 2\n"],
    ["quoted keys", '"a b": 1\n\'c\': 2\n"d" : 3\n'],
    ["keys with colons, dots and slashes", "app.kubernetes.io/name: x\nurl:http: y\n"],
    ["a key holding a hash without a space", "a#b: 1\n"],
    ["a comment after a key", "a: # note\n  b: 1\n"],
    ["comments and blank lines between entries", "a: 1\n\n# note\n   # indented note\nb: 2\n"],
    ["a top-level indent", "  a: 1\n  b: 2\n"],
    ["nested flow collections", "a: [1, [2, 3], {x: y, z: [\"q\", 'r']}, {}]\nb: { k: [] , l: {} }\n"],
    ["flow scalars with spaces and colons", "a: [ one two , x:y, 'a, b', \"c]\" ]\n"],
    ["a flow list with a comment after it", "a: [1, 2] # note\n"],
    ["escapes", 'a: "\\0\\a\\b\\t\\n\\v\\f\\r\\e\\ \\"\\/\\\\\\N\\_\\L\\P\\x41\\u00e9\\U0001F680"\n'],
    ["a quoted scalar with a comment after it", "a: 'x' # note\nb: \"y\" #note\n"],
    ["a quoted scalar with a hash inside", "a: 'x # y'\n"],
    ["a double-quoted scalar with an escaped quote", 'a: "say \\"hi\\""\n'],
    // A dashboard as a chart renders it into a ConfigMap: one line, JSON's escapes only.
    [
      "a JSON document in a double-quoted scalar",
      `a: ${JSON.stringify(JSON.stringify({ title: "x", panels: [{ expr: 'rate(x[5m]) # "y"', path: "a\\b/c", s: "é\u2028" }] }))}\n`,
    ],
    ["JSON-looking scalars with escapes JSON has not", 'a: "{\\"x\\":\\"\\x41\\e\\"}"\nb: "\\"q\\" \\U0001F680"\n'],
    ["a double-quoted scalar ending in a quote after its comment", 'a: "x" # "y"\n'],
    // Before a comment, which JSON cannot read: the escapes counted by hand.
    ["escaped quotes and backslashes before a comment", 'a: "say \\"hi\\"" # note\nb: "x\\\\" # c\nc: "x\\\\\\"y" # c\nd: "" # empty\n'],
    ["quoted scalars with a hash inside, before a comment", "a: \"x #y\" # note\nb: 'x # y' # note\n"],
    ["a negative zero, which JSON reads as -0", "a: -0\nb: [-0]\n"],
    ["double-quoted list items", '- "a: b"\n- ""\n- "x" # "c"\n'],
    ["single-quoted scalars with doubled quotes", "a: 'it''s ''quoted'''\nb: ''''\n"],
    ["a multi-line single-quoted scalar with a doubled quote", "a: 'it''s\n  here'\n"],
    ["a multi-line quoted scalar in a list", "- 'one\n  two'\n- x\n"],
    ["a literal with blank lines inside and after", "a: |\n  x\n\n  y\n\n\nb: 1\n"],
    ["a literal in a nested map", "a:\n  b: |-\n    x\n      y\n  c: 1\n"],
    ["a literal after blank lines", "a: |\n\n  x\n"],
    ["a literal with a comment after its header", "a: | # note\n  x\n"],
    ["a literal in a list", "- |-\n  x\n- y\n"],
    ["a multi-line plain scalar with digits and brackets", "a: one\n  2 (three)\n  -four\nb: 1\n"],
    ["a multi-line plain scalar with trailing spaces", "a: one  \n  two  \n"],
    ["a multi-line plain scalar ending at a blank line", "a: one\n  two\n\nb: 1\n"],
    ["a multi-line plain scalar with blank lines inside", "a: one\n\n\n  two\n"],
    ["a multi-line plain scalar of capitals and digits", "a: One\n  Two\n  3four\n"],
    ["a multi-line double-quoted scalar with an escaped break", 'a: "one\\\n  two"\n'],
    ["a multi-line double-quoted scalar with an even run of backslashes", 'a: "one\\\\\n  two"\n'],
    ["a multi-line quoted scalar with a comment after it", "a: 'one\n  two' # note\n"],
    ["YAML 1.1 words and numbers", "a: yes\nb: Off\nc: ~\nd: 0x1F\ne: 1_000\nf: .inf\ng: -12\nh: +3.5\n"],
    ["plain scalars with hashes and colons inside", "a: x#y\nb: http://x.test/a#b\nc: 1:2\n"],
    // `annotations:\n    {{- toYaml . | nindent 4 }}` with nothing set (kube-prometheus-stack's dashboards).
    ["a flow collection on the line below its key", "metadata:\n  annotations:\n    {}\n  labels:\n    [a, {b: c}] # note\n  name: x\n"],
    ["a flow collection on the line below an empty item", "-\n  []\n- x\n"],
    ["characters outside the BMP, as surrogate pairs", "a: \u{1F680} rocket\nb: '\u{1F680}'\nc: \"x\u{1F680}\"\n"],
    // Operator CRDs' descriptions: a line of a plain scalar may start with an indicator.
    ["a plain scalar continued by an anchor", "a: one\n  &two\n"],
    ["a plain scalar continued by a quote", "a: one\n  'two'\n"],
    ["a plain scalar continued by a list marker", "a: one\n  - two\n"],
    ["a plain scalar continued by every indicator", "- one\n  `Pod` objects\n  'AzureChina', or \"x\"\n  [a] {b} *c !d |e >f %g @h ?i ,j :k\n  --- l\n- z\n"],
  ])("%s as js-yaml does", (_, text) => {
    const fast = parseBlockYaml(text);
    expect(fast).toBeDefined();
    expect(fast).toStrictEqual(jsYaml(text));
  });

  it("reads a plain -0 as 0, as Kubernetes does (JSON would read it as -0)", () => {
    expect(Object.is((parseBlockYaml("a: -0\n") as { a: number }).a, 0)).toBe(true);
  });

  it("never answers what js-yaml refuses, and answers the rest as it does (documents built from awkward pieces)", () => {
    const pieces = ["a", "b: 1", "k", "0", "1e3", "yes", "~", "é", "#", " #c", ":", ": ", "- ", "-", "&x", "*x", "!t", "|", "|-", ">"];
    pieces.push("'", "''", '"', "\\", "\\n", "\\x4", "%", "@", "`", "?", ",", "[", "]", "{", "}", "{}", "[]", "<<", "__proto__", " ", "  ");
    let state = 7;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)] as T;
    const word = () => Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(pieces)).join("");
    let answered = 0;
    let refused = 0;
    for (let n = 0; n < 4000; n++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 6) }, () => {
        const indent = " ".repeat(pick([0, 0, 2, 2, 4, 1]));
        const shape = next();
        if (shape < 0.45) return `${indent}${next() < 0.8 ? `k${Math.floor(next() * 4)}` : word()}: ${next() < 0.2 ? "" : word()}`;
        if (shape < 0.75) return `${indent}- ${word()}`;
        if (shape < 0.85) return `${indent}k${Math.floor(next() * 4)}:`;
        return `${indent}${word()}`;
      });
      const text = `${lines.join("\n")}\n`;
      let expected: unknown;
      try {
        expected = jsYaml(text);
      } catch {
        refused++;
        expect(parseBlockYaml(text), text).toBeUndefined();
        continue;
      }
      const fast = parseBlockYaml(text);
      if (fast === undefined) continue;
      answered++;
      expect(fast, text).toStrictEqual(expected);
    }
    // Both sides are exercised: documents js-yaml refuses, and documents the fast reader answers.
    expect({ refused: refused > 300, answered: answered > 300 }).toStrictEqual({ refused: true, answered: true });
  });
});

describe("parseBlockYaml with shared blocks", () => {
  const block = (tail: string) => `spec:\n${Array.from({ length: 10 }, (_, n) => `  key${n}: value${n}`).join("\n")}\n  last: ${tail}\n`;

  it("gives the very same object for a block it has read before, from the given size up", () => {
    const shared = new Map();
    const one = parseBlockYaml(`a: 1\n${block("x")}`, shared, 8) as { spec: unknown };
    const two = parseBlockYaml(`b: 2\n${block("x")}`, shared, 8) as { spec: unknown };
    expect(two.spec).toBe(one.spec);
    expect(two).toStrictEqual({ b: 2, spec: one.spec });
  });

  it("reads a block again when it is shorter than the given size, or no blocks are shared", () => {
    const shared = new Map();
    const one = parseBlockYaml(`a: 1\n${block("x")}`, shared, 13) as { spec: unknown };
    const two = parseBlockYaml(`b: 2\n${block("x")}`, shared, 13) as { spec: unknown };
    expect(two.spec).not.toBe(one.spec);
    expect(two.spec).toStrictEqual(one.spec);
    const three = parseBlockYaml(`a: 1\n${block("x")}`) as { spec: unknown };
    const four = parseBlockYaml(`a: 1\n${block("x")}`) as { spec: unknown };
    expect(four.spec).not.toBe(three.spec);
  });

  it("shares a block of exactly the given size", () => {
    const shared = new Map();
    const one = parseBlockYaml(`a: 1\n${block("x")}`, shared, 12) as { spec: unknown };
    const two = parseBlockYaml(`b: 2\n${block("x")}`, shared, 12) as { spec: unknown };
    expect(two.spec).toBe(one.spec);
  });

  it("never takes a block whose text differs, however little or wherever", () => {
    const shared = new Map();
    parseBlockYaml(block("x"), shared, 8);
    for (const changed of [block("x").replace("value4", "valuE4"), block("x").replace("value9", "value8"), block("y"), `${block("x")}  # a note\n\n`]) {
      expect(parseBlockYaml(changed, shared, 8), changed).toStrictEqual(jsYaml(changed));
    }
    // Two documents that share a block, each with its own other keys.
    const first = parseBlockYaml(`${block("x")}z: 1\n`, shared, 8);
    expect(first).toStrictEqual(jsYaml(`${block("x")}z: 1\n`));
  });

  it("does not keep a block it stepped aside from", () => {
    const shared = new Map();
    expect(parseBlockYaml(`${block("x")}  bad: &anchor 1\n`, shared, 8)).toBeUndefined();
    expect(shared.size).toBe(0);
    parseBlockYaml(block("x"), shared, 8);
    expect(shared.size).toBeGreaterThan(0);
  });
});
