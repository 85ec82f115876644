import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE, ChartroomError, formatError, InternalError } from "../../src/errors/index.js";
import { errorTable, readmeSection } from "../../scripts/error-table.js";
import { ROOT } from "../helpers/platform.js";

const SRC = join(ROOT, "src");

async function sources(dir = SRC): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(path)));
    else if (path.endsWith(".ts")) out.push(path);
  }
  return out;
}

describe("the error catalogue", () => {
  it("knows every code the code throws", async () => {
    const thrown = new Set<string>();
    for (const file of await sources()) {
      for (const match of (await readFile(file, "utf8")).matchAll(/new ChartroomError\(\s*"([A-Z_]+)"/g)) thrown.add(match[1] as string);
    }
    expect(thrown.size).toBeGreaterThan(20);
    expect([...thrown].filter((code) => !Object.hasOwn(CATALOGUE, code))).toStrictEqual([]);
  });

  it("is the README's table of error codes (npm run docs writes it)", async () => {
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    expect(readmeSection(readme)).toBe(errorTable());
  });

  it("throws every code it catalogues (none kept for nothing)", async () => {
    let text = "";
    for (const file of await sources()) if (!file.endsWith(join("errors", "catalogue.ts"))) text += await readFile(file, "utf8");
    expect(Object.keys(CATALOGUE).filter((code) => !text.includes(`"${code}"`))).toStrictEqual([]);
  });

  it("gives each code an exit code, a meaning and a default hint", () => {
    for (const [code, entry] of Object.entries(CATALOGUE)) {
      expect([1, 2], code).toContain(entry.exit);
      expect(entry.meaning.length, code).toBeGreaterThan(10);
      expect(entry.hint.length, code).toBeGreaterThan(5);
    }
  });

  it("fills in the catalogue's hint when the thrower gives none", () => {
    expect(new ChartroomError("LOCK_STALE", "stale").hint).toBe(CATALOGUE.LOCK_STALE.hint);
    expect(new ChartroomError("LOCK_STALE", "stale", { hint: "run this" }).hint).toBe("run this");
  });

  it("throws no plain Error: a user's mistake has a code, a bug is an InternalError", async () => {
    const plain: string[] = [];
    for (const file of await sources()) {
      const text = await readFile(file, "utf8");
      if (/new (Type|Range)?Error\(/.test(text)) plain.push(relative(SRC, file));
    }
    expect(plain).toStrictEqual([]);
  });

  it("tells a bug apart from a user's mistake, and both from anything else", () => {
    const bug = new InternalError("no source for repository x");
    expect([ChartroomError.isInstance(bug), InternalError.isInternal(bug), bug.code]).toStrictEqual([true, true, "INTERNAL"]);
    expect(InternalError.isInternal(new ChartroomError("USAGE", "x"))).toBe(false);
    expect(formatError(bug)).toBe(`error INTERNAL: no source for repository x\n  hint: ${CATALOGUE.INTERNAL.hint}`);
  });
});
