// Every `$ npx chartroom …` the README shows runs here, in a fresh copy of the
// example platform, and the lines the README prints under it must appear, in
// order and contiguous, in what the command really prints. A README example
// that needs a change first says so in an HTML comment above its block:
// <!-- readme-test: before "lock --frozen" replace in chartroom.config.ts "~1.0.0" with "^1.0.0" -->
// README_UPDATE=1 writes each command's real output into the README instead
// (then read the change: a shortened example stays a contiguous slice).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, copyPlatform, editFile, ROOT } from "../helpers/platform.js";

interface Example {
  line: number;
  command: string;
  expected: string[];
  /** Index of the first output line (after comments continued under the command). */
  start: number;
}

interface Block {
  line: number;
  examples: Example[];
  edits: { before: string; file: string; from: string; to: string }[];
}

const EDIT = /<!-- readme-test: before "([^"]+)" replace in (\S+) "((?:[^"\\]|\\.)*)" with "((?:[^"\\]|\\.)*)" -->/g;

/** The README's fenced blocks that show chartroom commands, with their outputs and set-up. */
export function readmeBlocks(text: string): Block[] {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  let open: Block | undefined;
  let comments: string[] = [];
  lines.forEach((line, index) => {
    if (line.startsWith("```")) {
      if (open === undefined) {
        open = { line: index + 1, examples: [], edits: [...comments.join("\n").matchAll(EDIT)].map(([, before = "", file = "", from = "", to = ""]) => ({ before, file, from: unescape(from), to: unescape(to) })) };
      } else {
        if (open.examples.length > 0) blocks.push(open);
        open = undefined;
        comments = [];
      }
      return;
    }
    if (open === undefined) {
      if (line.startsWith("<!-- readme-test")) comments.push(line);
      else if (line.trim() !== "") comments = [];
      return;
    }
    const command = /^\$ npx chartroom (.*?)(\s{2,}#.*)?$/.exec(line);
    const last = open.examples.at(-1);
    if (command !== null) open.examples.push({ line: index + 1, command: command[1] ?? "", expected: [], start: index + 1 });
    else if (/^\s+#/.test(line) && last !== undefined && last.expected.length === 0) last.start = index + 1; // a comment continued under a command
    else last?.expected.push(line);
  });
  return blocks;
}

/** A directive's text with `\n` for a line break and `\"` for a quote. */
function unescape(text: string): string {
  return text.replace(/\\n/g, "\n").replace(/\\"/g, '"');
}

/** `lock webapp` → ["lock", "webapp"]; quotes keep spaces. */
function argv(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? "");
}

function trimmed(lines: string[]): string[] {
  const out = lines.map((line) => line.trimEnd());
  while (out.at(-1) === "") out.pop();
  return out;
}

function containsRun(actual: string[], expected: string[]): boolean {
  if (expected.length === 0) return true;
  for (let start = 0; start + expected.length <= actual.length; start++) {
    if (expected.every((line, i) => actual[start + i] === line)) return true;
  }
  return false;
}

const README = join(ROOT, "README.md");
const blocks = readmeBlocks(readFileSync(README, "utf8"));
const UPDATE = process.env.README_UPDATE === "1";
const updates: { example: Example; actual: string[] }[] = [];

describe("every chartroom command the README shows", () => {
  afterAll(() => {
    if (!UPDATE) return;
    const lines = readFileSync(README, "utf8").split("\n");
    for (const { example, actual } of updates.sort((a, b) => b.example.start - a.example.start)) {
      lines.splice(example.start, trimmed(example.expected).length, ...actual);
    }
    writeFileSync(README, lines.join("\n"));
  });

  it("finds the README's examples", () => {
    expect(blocks.flatMap((block) => block.examples).length).toBeGreaterThanOrEqual(12);
  });

  for (const block of blocks) {
    it(`README.md:${block.line}: ${block.examples.map((example) => `chartroom ${example.command}`).join("; ")}`, async () => {
      const dir = await copyPlatform();
      for (const example of block.examples) {
        for (const edit of block.edits.filter((item) => item.before === example.command)) {
          await editFile(join(dir, edit.file), (text) => {
            expect(text, `${edit.file} holds "${edit.from}"`).toContain(edit.from);
            return text.replace(edit.from, edit.to);
          });
        }
        // The helm a user of this checkout gets: the pinned package (not HELM_BIN, not PATH).
        const result = await cli(dir, argv(example.command), { HELM_BIN: "", PATH: "/usr/bin:/bin" });
        // The README shows where the platform lives as /work/platform.
        const printed = `${result.output}${result.errors}`.replaceAll(dir, "/work/platform");
        const actual = trimmed(printed.split("\n"));
        const expected = trimmed(example.expected);
        if (UPDATE) {
          updates.push({ example, actual });
          continue;
        }
        expect(containsRun(actual, expected), `README.md:${example.line} \`chartroom ${example.command}\` printed:\n${actual.join("\n")}`).toBe(true);
      }
    }, 120_000);
  }
});
