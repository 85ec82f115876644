import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { generateIndex } from "../../bench/lib/generate-index.js";
import { parseIndex, parseIndexFully } from "../../src/sources/helm-index/file.js";
import { scanIndex } from "../../src/sources/helm-index/scan.js";
import { ROOT } from "../helpers/platform.js";

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function randomIndex(seed: number): string {
  const next = random(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)] as T;
  const entries: Record<string, unknown[]> = {};
  for (let c = 0; c < 1 + Math.floor(next() * 4); c++) {
    const list: unknown[] = [];
    for (let v = 0; v < 1 + Math.floor(next() * 5); v++) {
      const entry: Record<string, unknown> = {
        name: `c${c}`,
        version: pick([`${v}.${c}.0`, `${v}.0.0-rc.${c}`, `1.${v}`, `v${v}.1.0`, `${v}.1.0+build.${c}`]),
        urls: pick([[`c${c}-${v}.tgz`], [`https://cdn.example.test/c${c}-${v}.tgz`, `c${c}-${v}.tgz`], []]),
        description: pick(["plain text", "with: colon inside", "multi\nline\ntext", "it's quoted", "# not a comment", "ends with #hash"]),
        maintainers: [{ name: "a", email: "a@example.test" }],
        annotations: { "example.test/notes": pick(["- a\n- b\n", "x"]) },
      };
      if (next() < 0.5) entry.appVersion = pick(["1.0", "2.3.4", "true", "0.1"]);
      if (next() < 0.5) entry.digest = pick(["abc123", "DEADBEEF"]);
      if (next() < 0.3) entry.deprecated = pick([true, false]);
      if (next() < 0.5) entry.created = "2026-01-02T03:04:05.999999999Z";
      list.push(entry);
    }
    entries[`c${c}`] = list;
  }
  return stringify(
    { apiVersion: "v1", entries, generated: "2026-01-01T00:00:00Z" },
    {
      indentSeq: next() < 0.5,
      indent: pick([2, 4]),
      defaultStringType: pick(["PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE"] as const),
      defaultKeyType: "PLAIN",
      lineWidth: pick([0, 40]),
    },
  );
}

describe("scanIndex", () => {
  it("answers exactly what the full YAML parse answers, across writer styles", () => {
    let scanned = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const text = randomIndex(seed);
      if (scanIndex(text) !== undefined) scanned++;
      expect(parseIndex(text, "x"), `seed ${seed}`).toStrictEqual(parseIndexFully(text, "x"));
    }
    // The fast path must actually be taken for most plain indexes.
    expect(scanned).toBeGreaterThan(100);
  });

  it("reads the example repository and the benchmark index on the fast path", async () => {
    const example = await readFile(join(ROOT, "charts", "index.yaml"), "utf8");
    const generated = generateIndex({ charts: 3, versionsPerChart: 7 }).text;
    for (const text of [example, generated]) {
      expect(scanIndex(text)).toBeDefined();
      expect(parseIndex(text, "x")).toStrictEqual(parseIndexFully(text, "x"));
    }
  });

  it.each([
    ["flow style urls", "apiVersion: v1\nentries:\n  a:\n  - version: 1.0.0\n    urls: [a.tgz]\n"],
    ["an anchor", "apiVersion: v1\nentries:\n  a:\n  - &x version: 1.0.0\n"],
    ["an escaped string", 'apiVersion: v1\nentries:\n  a:\n  - version: "1.0\\u002e0"\n'],
    ["a tab", "apiVersion: v1\nentries:\n  a:\n  -\tversion: 1.0.0\n"],
    ["a duplicate key", "apiVersion: v1\nentries:\n  a:\n  - version: 1.0.0\n    version: 2.0.0\n"],
    ["a duplicate chart", "apiVersion: v1\nentries:\n  a:\n  - version: 1.0.0\n  a:\n  - version: 2.0.0\n"],
    ["a trailing comment on a kept value", "apiVersion: v1\nentries:\n  a:\n  - version: 1.0.0 # latest\n"],
    ["flow entries", "apiVersion: v1\nentries: {}\n"],
    ["a second document", "---\napiVersion: v1\nentries:\n  a:\n  - version: 1.0.0\n"],
  ])("steps aside for %s", (_, text) => {
    expect(scanIndex(text)).toBeUndefined();
  });
});
