// The index scanner must answer, itself, every index written in the plain
// block style that `helm repo index`, go-yaml and repository tools write, and
// answer exactly the fields a full YAML parse reads: a scan that steps aside
// too often costs every `lock` and `outdated` the full parse (seconds on a
// large index), and one that answers differently picks the wrong version.
// Indexes are generated from those shapes, nested in every way they nest.
import { FAILSAFE_SCHEMA, load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { scanIndex } from "../../src/sources/helm-index/scan.js";

const KEPT = ["version", "appVersion", "digest", "created", "deprecated", "urls"];

/** What the full YAML parse reads for the fields the scan keeps, in the scan's shape. */
function fullRead(text: string): Map<string, Record<string, unknown>[]> {
  const document = load(text, { schema: FAILSAFE_SCHEMA }) as { entries: Record<string, Record<string, unknown>[]> };
  const charts = new Map<string, Record<string, unknown>[]>();
  for (const [name, items] of Object.entries(document.entries)) {
    charts.set(
      name,
      items.map((item) => Object.fromEntries(KEPT.filter((key) => key in item).map((key) => [key, item[key]]))),
    );
  }
  return charts;
}

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Plain one-line values the full parse reads as text, awkward ones included. */
const WORDS = [
  "a b",
  "50%",
  "a---",
  "x.tgz",
  "https://x.test/a?b=c",
  "v1#x",
  "a:b",
  "(brackets)",
  "1.0",
  "true",
  "-a",
  "?a",
  "a-",
  "a - b",
  "é",
  "a,b",
  "a]b",
  "a}b",
  "_a-",
  "(a - b)",
  "a|",
  "a>",
];
const KEPT_VALUES = [
  "1.0.0",
  "v2.3.4-rc.1+b",
  "'1.2'",
  "'it''s'",
  '"a b"',
  '""',
  "''",
  "2026-01-02T03:04:05Z",
  "true",
  "1.0.0   ",
  "a:b",
  "v1#x",
  "50%",
  "a---",
];
const SKIPPED = [
  "description",
  "home",
  "icon",
  "name",
  "keywords",
  "maintainers",
  "annotations",
  "sources",
  "dependencies",
  "type",
  "kubeVersion",
  "apiVersion",
  "entries",
];

function generator(seed: number) {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const pad = (n: number) => " ".repeat(n);
  const blank = (at: number): string[] => (next() < 0.15 ? [pick(["", pad(at), `${pad(at)}# a note`, "# a note"])] : []);

  /** A value we skip, for a key at column `at` written on `head` (`key:`), nested `depth` deep. */
  function skipped(head: string, at: number, depth: number): string[] {
    const shape = Math.floor(next() * (depth > 1 ? 7 : 10));
    const deeper = at + pick([2, 2, 4]);
    switch (shape) {
      case 0:
        return [`${head} ${pick(WORDS)}`];
      case 1:
        // A comment ends a plain value: only one that goes on no further has one.
        return [`${head} ${pick(WORDS)}${pick(["", "  "])}`, `${pad(deeper)}${pick(WORDS)}`, ...(next() < 0.5 ? ["", `${pad(deeper + 1)}more`] : [])];
      case 2:
        return [`${head} ${pick(["'it''s'", '"x y"', '"a\\"b"', "''", '""'])}`];
      case 3: {
        const quote = pick(["'", '"']);
        return [`${head} ${quote}one`, `${pad(deeper)}two: three`, ...(next() < 0.5 ? [""] : []), `${pad(deeper)}four${quote}`];
      }
      case 4:
        return [
          `${head} ${pick(["|", "|-", ">", ">-", "|+", "|2"])}`,
          `${pad(deeper)}a: b: c`,
          `${pad(deeper)}- x`,
          `${pad(deeper)}# not a comment`,
          ...(next() < 0.5 ? ["", `${pad(deeper + 2)}[x`] : []),
        ];
      case 5:
        // (The fields of a chart version are never empty flow collections: go-yaml omits those.)
        return [`${head} ${pick(depth > 1 ? ["{}", "[]", "# nothing", ""] : ["# nothing", ""])}`];
      case 6:
        return [`${head} ${pick(WORDS)} # c`];
      case 7: {
        // A nested map, its keys any of ours or others.
        const lines = [head];
        const keys = new Set<string>();
        for (let n = 0; n < 1 + Math.floor(next() * 3); n++) {
          const key = pick([...SKIPPED, ...KEPT, "x", "example.test/a"]);
          if (keys.has(key)) continue;
          keys.add(key);
          lines.push(...blank(deeper), ...skipped(`${pad(deeper)}${key}:`, deeper, depth + 1));
        }
        return lines;
      }
      case 8: {
        // A list at the key's column or deeper, of scalars or maps.
        const column = pick([at, deeper]);
        const lines = [head];
        for (let n = 0; n < 1 + Math.floor(next() * 3); n++) {
          if (next() < 0.5) lines.push(`${pad(column)}- ${pick(WORDS)}`);
          else lines.push(...skipped(`${pad(column)}- name:`, column + 2, depth + 1), ...skipped(`${pad(column + 2)}email:`, column + 2, depth + 1));
        }
        return lines;
      }
      default:
        return [`${head}`, `${pad(deeper)}- - ${pick(WORDS)}`, `${pad(deeper + 2)}- ${pick(WORDS)}`];
    }
  }

  /** One chart version: the first field on the dash line. */
  function item(dash: number): string[] {
    const keys = [...KEPT, ...SKIPPED].filter(() => next() < 0.4);
    if (keys.length === 0) keys.push("version");
    const sorted = keys.sort(() => next() - 0.5);
    const at = dash + 2;
    const lines: string[] = [];
    sorted.forEach((key, n) => {
      const head = n === 0 ? `${pad(dash)}- ${key}:` : `${pad(at)}${key}:`;
      if (n > 0) lines.push(...blank(at));
      if (key === "urls") {
        if (next() < 0.2) lines.push(`${head} []`);
        else {
          const column = pick([at, at + 2]);
          lines.push(
            head,
            ...Array.from(
              { length: 1 + Math.floor(next() * 2) },
              () => `${pad(column)}- ${pick(["a.tgz", "'b.tgz'", '"https://x.test/c.tgz"', "oci://x.test/a"])}`,
            ),
          );
        }
      } else if (KEPT.includes(key)) lines.push(next() < 0.1 ? head : `${head} ${pick(KEPT_VALUES)}`);
      else lines.push(...skipped(head, at, 1));
    });
    return lines;
  }

  return (): string => {
    const nameAt = pick([2, 4]);
    const dash = nameAt + pick([0, 0, 2]);
    const lines = ["apiVersion: v1"];
    if (next() < 0.3) lines.push(...skipped("serverInfo:", 0, 2));
    lines.push(...blank(0), "entries:");
    for (let c = 0; c < 1 + Math.floor(next() * 3); c++) {
      lines.push(...blank(nameAt), `${pad(nameAt)}${pick(["chart", "my-chart", "a.b", "x_y", "c9"])}${c}:`);
      for (let v = 0; v < 1 + Math.floor(next() * 3); v++) lines.push(...blank(dash), ...item(dash));
    }
    // Often nothing after the entries, so that the last version's last field ends the document.
    if (next() < 0.7) lines.push(...blank(0), "generated: 2026-01-01T00:00:00Z");
    if (next() < 0.3) lines.push(...skipped("annotations:", 0, 1));
    return `${lines.join("\n")}${pick(["\n", "\n", "\n\n", "", "\n  \n"])}`;
  };
}

describe("scanIndex answers the plain block style itself", () => {
  it("for 1,500 generated indexes, each field as the full parse reads it", () => {
    const make = generator(7);
    for (let n = 0; n < 1500; n++) {
      const text = make();
      const expected = fullRead(text);
      const scanned = scanIndex(text);
      expect(scanned === undefined ? "stepped aside" : "answered", text).toBe("answered");
      expect(scanned, text).toStrictEqual(expected);
    }
  });
});
