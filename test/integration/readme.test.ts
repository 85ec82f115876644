// Every `$ …` command the README shows runs here, in order, in a fresh copy
// of the example platform: `$ npx chartroom …` in-process, and the lines the
// README prints under it must appear, in order and contiguous, in what the
// command really prints; an edit the example makes on the way (`$ sed …`,
// `$ cat >> file <<'EOF'` with its here-document) runs in sh and must succeed. Nothing is
// done to the platform that the README does not show.
// README_UPDATE=1 writes each command's real output into the README instead
// (then read the change: a shortened example stays a contiguous slice).
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { cli, copyPlatform, ROOT } from "../helpers/platform.js";

const run = promisify(execFile);

interface Example {
  line: number;
  command: string;
  /** A shell step (an edit), run with sh; its here-document included. */
  shell?: string;
  expected: string[];
  /** Index of the first output line (after comments continued under the command). */
  start: number;
}

interface Block {
  line: number;
  examples: Example[];
}

/** The README's fenced blocks that show chartroom commands, with their outputs and set-up. */
function readmeBlocks(text: string): Block[] {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  let open: Block | undefined;
  let heredoc: Example | undefined;
  lines.forEach((line, index) => {
    if (heredoc !== undefined) {
      heredoc.shell += `\n${line}`;
      if (line === "EOF") heredoc = undefined;
      return;
    }
    if (line.startsWith("```")) {
      if (open === undefined) {
        open = { line: index + 1, examples: [] };
      } else {
        if (open.examples.some((example) => example.shell === undefined)) blocks.push(open);
        open = undefined;
      }
      return;
    }
    if (open === undefined) return;
    const command = /^\$ npx chartroom (.*?)(\s{2,}#.*)?$/.exec(line);
    const last = open.examples.at(-1);
    if (command !== null) open.examples.push({ line: index + 1, command: command[1] ?? "", expected: [], start: index + 1 });
    else if (/^\$ (sed|cat|printf|echo) /.test(line)) {
      const step: Example = { line: index + 1, command: line.slice(2), shell: line.slice(2), expected: [], start: index + 1 };
      open.examples.push(step);
      if (line.includes("<<'EOF'")) heredoc = step;
    } else if (/^\s+#/.test(line) && last !== undefined && last.expected.length === 0)
      last.start = index + 1; // a comment continued under a command
    else last?.expected.push(line);
  });
  return blocks;
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
    it(`README.md:${block.line}: ${block.examples.map((example) => (example.shell === undefined ? `chartroom ${example.command}` : example.command.split("\n")[0])).join("; ")}`, async () => {
      const dir = await copyPlatform();
      for (const example of block.examples) {
        if (example.shell !== undefined) {
          await run("sh", ["-c", example.shell], { cwd: dir });
          continue;
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
    });
  }
});
