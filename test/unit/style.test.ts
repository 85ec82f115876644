import { readFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import ts from "typescript";
import { ROOT } from "../helpers/platform.js";

const WIDTH = 160;

/** The file with the text of its literals (strings, templates, regular expressions) and comments blanked: what a formatter can wrap. */
function codeOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const chars = [...text];
  const blank = (start: number, end: number) => {
    for (let i = start; i < end; i++) if (chars[i] !== "\n") chars[i] = "";
  };
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isRegularExpressionLiteral(node) || ts.isTemplateLiteralToken(node)) blank(node.getStart(source), node.getEnd());
    ts.forEachChild(node, visit);
  };
  visit(source);
  const code = chars
    .join("")
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ""))
    .replace(/\/\/.*$/gm, "");
  return code.split("\n");
}

/** The TypeScript files git tracks under `folders`. */
function trackedTypeScript(...folders: string[]): string[] {
  return execFileSync("git", ["ls-files", ...folders], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((name) => name.endsWith(".ts"));
}

describe("the code's shape", () => {
  it(`keeps code within ${WIDTH} columns (biome formats to it; only a long string or comment may run past)`, async () => {
    const files = trackedTypeScript("src", "test", "scripts", "bench", "pulumi");
    expect(files.length).toBeGreaterThan(100);
    const long: string[] = [];
    for (const file of files) {
      const text = await readFile(join(ROOT, file), "utf8");
      const code = codeOf(file, text);
      for (const [i, line] of text.split("\n").entries()) {
        if (line.length > WIDTH && (code[i]?.length ?? 0) > WIDTH) long.push(`${file}:${i + 1} (${line.length})`);
      }
    }
    expect(long).toStrictEqual([]);
  });

  it("orders text by code unit, never by locale (util/order.ts): the same output on every machine", async () => {
    const files = trackedTypeScript("src");
    const uses: string[] = [];
    for (const file of files) {
      const code = codeOf(file, await readFile(join(ROOT, file), "utf8"));
      for (const [i, line] of code.entries()) if (/\blocaleCompare\b|\bIntl\.Collator\b/.test(line)) uses.push(`${file}:${i + 1}`);
    }
    expect(uses).toStrictEqual([]);
  });

  it("takes zod from util/zod.ts as a namespace: zod/mini, English errors set once; classic zod in the bundle cost every CLI run (a warm diff 324 → 359 M instructions), `import { z }` all of it", async () => {
    const elsewhere: string[] = [];
    for (const file of trackedTypeScript("src")) {
      if (file === "src/util/zod.ts") continue;
      const text = await readFile(join(ROOT, file), "utf8");
      for (const [i, line] of text.split("\n").entries())
        if (/from "zod[/"]/.test(line) || (/util\/zod\.js"/.test(line) && !/^import (type )?\* as z from /.test(line))) elsewhere.push(`${file}:${i + 1}`);
    }
    expect(elsewhere).toStrictEqual([]);
    expect(await readFile(join(ROOT, "src/util/zod.ts"), "utf8")).toMatch(/^import \* as z from "zod\/mini";$/m);
  });

  it("takes semver's functions from util/semver, never semver's index, which sets up all its modules at every CLI run", async () => {
    const whole: string[] = [];
    for (const file of trackedTypeScript("src")) {
      const text = await readFile(join(ROOT, file), "utf8");
      for (const [i, line] of text.split("\n").entries()) if (/from "semver"/.test(line)) whole.push(`${file}:${i + 1}`);
    }
    expect(whole).toStrictEqual([]);
  });
});
