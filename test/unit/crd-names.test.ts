// The CRD names of a crds/ file, read from each document's top-level lines:
// the same names the full YAML parse finds, for every form, whichever way
// the file is written.
import { parseAllDocuments } from "yaml";
import { describe, expect, it } from "vitest";
import { crdNamesIn } from "../../src/chart/crd-names.js";

/** What the whole-file parse finds: the reference the line reading must equal. */
function fullParse(text: string): string[] {
  const names: string[] = [];
  for (const document of parseAllDocuments(text)) {
    const object = document.toJS() as { kind?: unknown; metadata?: { name?: unknown } } | null;
    if (object?.kind === "CustomResourceDefinition" && typeof object.metadata?.name === "string") names.push(object.metadata.name);
  }
  return names;
}

const crd = (name: string, extra = "") =>
  `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  labels:\n    name: not-this\n  name: ${name}\n${extra}spec:\n  group: example.com\n  names:\n    kind: Widget\n    name: nor-this\n`;

describe("crdNamesIn", () => {
  it.each([
    ["one CRD", crd("widgets.example.com"), ["widgets.example.com"]],
    [
      "several documents, comments and markers",
      `# header\n---\n${crd("a.example.com")}---\n# only a comment\n---\n${crd("b.example.com")}...\n`,
      ["a.example.com", "b.example.com"],
    ],
    ["quoted names and kinds", crd('"q.example.com"').replace("kind: CustomResourceDefinition", "kind: 'CustomResourceDefinition'"), ["q.example.com"]],
    ["a trailing comment", crd("c.example.com # the name"), ["c.example.com"]],
    ["other kinds left out", `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n---\n${crd("d.example.com")}`, ["d.example.com"]],
    ["metadata before kind, four-space indent", `metadata:\n    name: e.example.com\nkind: CustomResourceDefinition\n`, ["e.example.com"]],
    ["CRLF line ends", crd("f.example.com").replace(/\n/g, "\r\n"), ["f.example.com"]],
    ["a name that is a number (no string: none)", crd("1.5"), []],
    ["a deeper name after the name", `kind: CustomResourceDefinition\nmetadata:\n  name: real.example.com\n  labels:\n    name: label\n`, ["real.example.com"]],
    [
      "flow style",
      `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "json.example.com"}}`,
      ["json.example.com"],
    ],
    ["flow metadata", `kind: CustomResourceDefinition\nmetadata: { name: flow.example.com }\n`, ["flow.example.com"]],
    ["an anchor and alias", `kind: &k CustomResourceDefinition\nmetadata:\n  name: &n anchored.example.com\n`, ["anchored.example.com"]],
    ["a tag", `kind: !!str CustomResourceDefinition\nmetadata:\n  name: tagged.example.com\n`, ["tagged.example.com"]],
    ["a name on the next line", `kind: CustomResourceDefinition\nmetadata:\n  name:\n    folded.example.com\n`, ["folded.example.com"]],
    ["a block scalar name", `kind: CustomResourceDefinition\nmetadata:\n  name: |-\n    block.example.com\n`, ["block.example.com"]],
    ["a quoted name over two lines", `kind: CustomResourceDefinition\nmetadata:\n  name: "two.\n    example.com"\n`, ["two. example.com"]],
    ["an escape in double quotes", `kind: CustomResourceDefinition\nmetadata:\n  name: "tab\\tname"\n`, ["tab\tname"]],
    ["a directive", `%YAML 1.2\n---\n${crd("directive.example.com")}`, ["directive.example.com"]],
    ["content on the marker line", `--- !!map\n${crd("marker.example.com")}`, ["marker.example.com"]],
    [
      "a whole document on the marker line",
      `${crd("before.example.com")}--- {"kind": "CustomResourceDefinition", "metadata": {"name": "inline.example.com"}}\n`,
      ["before.example.com", "inline.example.com"],
    ],
    ["a key that starts with three dashes (no marker)", `kind: CustomResourceDefinition\n---x: 1\nmetadata:\n  name: dash.example.com\n`, ["dash.example.com"]],
    [
      "a tab in an indentation outside metadata (the full parse decides)",
      "kind: CustomResourceDefinition\nspec:\n  x: 1\n \tkind: Other\nmetadata:\n  name: b\n",
      [],
    ],
    ["metadata as a list", `kind: CustomResourceDefinition\nmetadata:\n- name: x\n`, []],
    ["no name", `kind: CustomResourceDefinition\nmetadata:\n  labels: {}\n`, []],
    ["an empty file", "", []],
  ])("%s", (_, text, names) => {
    expect(crdNamesIn(text)).toStrictEqual(names);
    expect(crdNamesIn(text)).toStrictEqual(fullParse(text));
  });

  it("agrees with the full parse on 2,000 generated files written in every way these forms combine", () => {
    let state = 11;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const kinds = [
      "kind: CustomResourceDefinition",
      "kind: 'CustomResourceDefinition'",
      'kind: "CustomResourceDefinition"',
      "kind: ConfigMap",
      "kind: &k CustomResourceDefinition",
    ];
    const names = [
      "name: a.example.com",
      "name: 'b.example.com'",
      'name: "c\\"d"',
      "name: true",
      "name: 0x1F",
      "name: -dash",
      "name: x # note",
      "name: &n anchored",
      "name:\n    next.example.com",
      'name: "two\n    lines"',
      "name: a: b",
    ];
    // The bulk the reading passes over: comments, blank lines of spaces, text that is not ASCII, a document marker inside a block scalar.
    const specs = [
      "spec:\n  group: example.com\n  names:\n    name: not-this",
      "spec:\n  # a comment\n  group: example.com\n   \n  versions:\n    - name: v1\n      schema:\n        description: |\n          ---\n          name: inside\n",
      "spec:\n  é: ü\n  names:\n\t\n    kind: Widget",
      "spec:\n  group: 'x' # kind: CustomResourceDefinition\n  names: { name: flow }",
    ];
    const others = ["labels:\n    name: label", "labels: { a: b }", "annotations:\n    x: y", "# comment", "", "generation: 3"];
    const document = () => {
      const pad = pick(["  ", "    "]);
      const metadata = [pick(others), pick(names), pick(others)].map((line) => (line === "" ? "" : `${pad}${line.replace(/\n {4}/g, `\n${pad}  `)}`));
      const parts = [pick(kinds), `metadata:\n${metadata.join("\n")}`, pick(specs), "apiVersion: apiextensions.k8s.io/v1", pick(["# top comment", ""])];
      for (let i = parts.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [parts[i], parts[j]] = [parts[j] as string, parts[i] as string];
      }
      return parts.join("\n");
    };
    let found = 0;
    let compared = 0;
    for (let i = 0; i < 2000; i++) {
      const joined = Array.from({ length: 1 + Math.floor(next() * 3) }, document).join(pick(["\n---\n", "\n--- # next\n", "\n...\n---\n", "\n--- !!map\n"]));
      const framed = `${pick(["", "---\n", "# file\n---\n"])}${joined}${pick(["", "\n", "\n...\n", "\n---"])}`;
      // Windows line ends take the line-by-line cut.
      const text = next() < 0.2 ? framed.replace(/\n/g, "\r\n") : framed;
      // A file the YAML parser reads with errors is the API server's to refuse; neither reading is the reference there.
      if (parseAllDocuments(text).some((item) => item.errors.length > 0)) continue;
      const expected = fullParse(text);
      expect(crdNamesIn(text), text).toStrictEqual(expected);
      found += expected.length;
      compared++;
    }
    expect(compared).toBeGreaterThan(900);
    expect(found).toBeGreaterThan(500);
  });
});
