import { dump, load } from "js-yaml";
import { KUBERNETES_SCHEMA } from "../../src/util/kube-yaml.js";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { parseBlockYaml } from "../../src/util/fast-yaml.js";

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const TRICKY = [
  "plain",
  "with space",
  "true",
  "False",
  "null",
  "~",
  "",
  "1.0",
  "-0",
  "+7",
  "0x1F",
  "0o17",
  "012",
  "1_000",
  "1e3",
  ".5",
  "-.inf",
  ".NaN",
  "a: b",
  "a:b",
  "#hash",
  "x #y",
  "x#y",
  "- item",
  "-",
  "?",
  "[x]",
  "{y}",
  "'q'",
  '"dq"',
  "it's",
  'say "hi"',
  "tab\there",
  "line\nbreak",
  "trail ",
  " lead",
  "ünïcødé",
  "emoji 🚀",
  "back\\slash",
  "@at",
  "`tick",
  "%pct",
  "!bang",
  "&amp",
  "*star",
  "|pipe",
  ">gt",
  "key: value # c",
  "2026-01-01",
  "multi\nline\ntext\n",
  "ends with newline\n",
  "\n\nleading blank lines",
  "http://example.test/a?b=c#d",
  "yes",
  "on",
  "0",
  "10",
  "3.14",
  "1.2.3",
  // Long enough to be wrapped over several lines, in quotes, by writers with a line width.
  "AlertmanagerConfigMatcherStrategy defines the strategy used by AlertmanagerConfig objects to match alerts in the routes and inhibition rules.",
  'Deprecated: this will be removed in a future release. Prefer using `spec.alertmanagerConfiguration` instead; it\'s "better" there.',
  "A description with\na line break and   several   spaces, then\n\ntwo breaks and a trailing space ",
  "Tabs\tand back\\slashes and a 'quote' inside a long description that wraps because it is long enough to wrap",
  "  leading spaces kept in a long wrapped description that goes on for quite a while, really a while  ",
];

function value(next: () => number, depth: number): unknown {
  const roll = next();
  if (depth > 3 || roll < 0.45) {
    const kind = Math.floor(next() * 6);
    if (kind === 0) return TRICKY[Math.floor(next() * TRICKY.length)];
    if (kind === 1) return Math.floor(next() * 2000) - 1000;
    if (kind === 2) return Math.round(next() * 1e6) / 1000;
    if (kind === 3) return next() < 0.5;
    if (kind === 4) return null;
    return `s${Math.floor(next() * 100)}`;
  }
  if (roll < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = 0; i < Math.floor(next() * 5); i++) {
    const key = next() < 0.2 ? (TRICKY[Math.floor(next() * TRICKY.length)] ?? "k") : `key${i}${next() < 0.3 ? ".example.io/name" : ""}`;
    out[key] = value(next, depth + 1);
  }
  return out;
}

function writers(next: () => number, data: unknown): string[] {
  return [
    dump(data, {
      flowLevel: next() < 0.7 ? -1 : Math.floor(next() * 3),
      lineWidth: next() < 0.5 ? -1 : 40,
      indent: next() < 0.5 ? 2 : 4,
      noArrayIndent: next() < 0.5,
      quotingType: next() < 0.5 ? '"' : "'",
      forceQuotes: next() < 0.2,
      noCompatMode: next() < 0.5,
    }),
    stringify(data, {
      indentSeq: next() < 0.5,
      lineWidth: next() < 0.5 ? 0 : 40,
      defaultStringType: next() < 0.7 ? "PLAIN" : "QUOTE_DOUBLE",
      defaultKeyType: "PLAIN",
    }),
  ];
}

describe("parseBlockYaml", () => {
  it("answers exactly what js-yaml's CORE schema answers, or steps aside", () => {
    let answered = 0;
    let total = 0;
    for (let seed = 1; seed <= 1500; seed++) {
      const next = random(seed);
      const data = { root: value(next, 0), other: value(next, 1) };
      for (const text of writers(next, data)) {
        total++;
        const fast = parseBlockYaml(text);
        if (fast === undefined) continue;
        answered++;
        expect(fast, `seed ${seed}:\n${text}`).toStrictEqual(load(text, { schema: KUBERNETES_SCHEMA }));
      }
    }
    // It must actually carry the load for ordinary documents.
    expect(answered / total).toBeGreaterThan(0.4);
  });

  it("gives the same answers when blocks are shared between documents", () => {
    // One cache for every document, as the two sides of a diff share one.
    const shared = new Map();
    let reused = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const next = random(seed);
      const base = value(next, 0);
      const variants = [
        { root: base, other: value(next, 1) },
        { root: base, other: value(next, 1) },
        { root: value(next, 0), other: base },
      ];
      const seen: unknown[] = [];
      for (const data of variants) {
        for (const text of writers(next, data)) {
          // Small documents: reuse from 8 lines up, so that it happens at all.
          const fast = parseBlockYaml(text, shared, 8);
          if (fast === undefined) continue;
          expect(fast, `seed ${seed}:\n${text}`).toStrictEqual(load(text, { schema: KUBERNETES_SCHEMA }));
          const root = (fast as { root?: unknown }).root;
          if (typeof root === "object" && root !== null && seen.includes(root)) reused++;
          seen.push(root);
        }
      }
    }
    expect(reused).toBeGreaterThan(0);
  });

  it("reads every plain scalar form as js-yaml does, hand-written ones included", () => {
    const scalars = [
      "true",
      "True",
      "TRUE",
      "false",
      "False",
      "FALSE",
      "null",
      "Null",
      "NULL",
      "~",
      "0",
      "-0",
      "+12",
      "12",
      "3.5",
      "-2.5e3",
      "1.",
      ".5",
      "1e3",
      "0.0",
      "yes",
      "No",
      "on",
      "OFF",
      "1.2.3",
      "v1",
      "1:2",
      "a:b",
      "x#y",
      "'single'",
      "'it''s'",
      '"double"',
      '"esc\\n\\t\\u00e9\\x41"',
      "http://x.test/a#b",
      "ünï",
      "a  b",
    ];
    let answered = 0;
    let total = 0;
    for (const item of scalars) {
      for (const text of [`key: ${item}\n`, `- ${item}\n`, `key: [${item}, x]\n`, `key: { k: ${item} }\n`, `key: ${item} # note\n`]) {
        let expected: unknown;
        try {
          expected = load(text, { schema: KUBERNETES_SCHEMA });
        } catch {
          expect(parseBlockYaml(text), text).toBeUndefined();
          continue;
        }
        const fast = parseBlockYaml(text);
        total++;
        if (fast === undefined) continue;
        answered++;
        expect(fast, text).toStrictEqual(expected);
      }
    }
    // Stepping aside is allowed, not stepping aside always: most of these are the fast reader's to answer.
    expect(answered / total).toBeGreaterThan(0.6);
  });

  it.each([
    ["clip", "a: |\n  one\n  two\n\n\nb: 1\n"],
    ["strip", "a: |-\n  one\n\n  two\n\nb: 1\n"],
    ["an indented line", "a: |\n  one\n    two\n  three\n"],
    ["a comment line inside", "a: |\n  # not a comment\n  x\n"],
    ["the end of the document", "a: |\n  last"],
    ["a list item", "- |\n  item\n- next\n"],
  ])("reads a literal block scalar (%s) as js-yaml does", (_, text) => {
    const fast = parseBlockYaml(text);
    expect(fast).toBeDefined();
    expect(fast).toStrictEqual(load(text, { schema: KUBERNETES_SCHEMA }));
  });

  it.each([
    ["two lines", "a: one\n  two\nb: 1\n"],
    ["a blank line between", "a: one\n  two\n\n  three\n"],
    [
      "a CRD-style description",
      "properties:\n  spec:\n    description: Spec defines the desired state\n      of the object, with more words\n      across lines.\n    type: object\n",
    ],
    ["a list item", "- first part\n  second part\n- other\n"],
  ])("reads a multi-line plain scalar (%s) as js-yaml does", (_, text) => {
    const fast = parseBlockYaml(text);
    expect(fast).toBeDefined();
    expect(fast).toStrictEqual(load(text, { schema: KUBERNETES_SCHEMA }));
  });

  it.each([
    ["two lines", 'a: "one\n  two"\nb: 1\n'],
    ["single quotes with a doubled quote", "a: 'it''s\n  wrapped'\n"],
    ["blank lines between", 'a: "one\n\n\n  two"\n'],
    ["escapes and a comment after", 'a: "tab\\tand \\"quotes\\"\n  and \\u00e9" # note\n'],
    [
      "go-yaml style escaped breaks",
      'description: "AlertmanagerConfigMatcherStrategy defines the strategy used by\\\n    \\ AlertmanagerConfig objects to match alerts in the routes and inhibition\n    rules. \\n The default value is `OnNamespace`."\ntype: object\n',
    ],
    [
      "controller-gen style single quotes",
      "description: 'Deprecated: this will be removed in a future release.\n  Prefer using `spec.alertmanagerConfiguration` instead.'\n",
    ],
    ["leading spaces folded", 'a: "one\n     two\n   three"\n'],
    ["a list item", '- "first part\n  second part"\n- other\n'],
  ])("reads a multi-line quoted scalar (%s) as js-yaml does", (_, text) => {
    const fast = parseBlockYaml(text);
    expect(fast).toBeDefined();
    expect(fast).toStrictEqual(load(text, { schema: KUBERNETES_SCHEMA }));
  });

  it("reads a typical rendered manifest", () => {
    const text = `# Source: app/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
    "helm.sh/chart": web-1.0.0
  annotations:
    checksum/config: 3f2a # trailing comment
spec:
  replicas: 3
  selector:
    matchLabels: { app: web }
  template:
    spec:
      containers:
      - name: api
        image: "registry.example.test/web:1.0"
        args: ["--port", "8080", --verbose]
        ports:
          - name: http
            containerPort: 8080
        env:
        - name: EMPTY
        - name: CONFIG
          value: |
            a: 1
            b: 2
`;
    expect(parseBlockYaml(text)).toStrictEqual(load(text, { schema: KUBERNETES_SCHEMA }));
  });

  it.each([
    ["an anchor", "a: &x 1\nb: *x\n"],
    ["a tag", "a: !!str 1\n"],
    ["a folded scalar", "a: >\n  folded\n  text\n"],
    ["a multi-line quoted scalar closing too far left", 'a:\n  b: "one\n  two"\n'],
    ["a multi-line quoted scalar never closed", 'a: "one\n  two\n'],
    ["spaces before a break in a quoted scalar (js-yaml keeps them, YAML drops them)", 'a: "one   \n  two"\n'],
    ["a comment inside a multi-line plain scalar", "a: one\n  # two\n  three\n"],
    ["a duplicate key", "a: 1\na: 2\n"],
    ["a merge key", "a: { x: 1 }\nb:\n  <<: { y: 2 }\n"],
    ["a tab", "a:\t1\n"],
  ])("steps aside for %s", (_, text) => {
    expect(parseBlockYaml(text)).toBeUndefined();
  });
});
