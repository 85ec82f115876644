// A render's values go to an owner-only temporary folder that is gone when
// the render is, whatever helm did; the folder is removed file by file,
// without Node's recursive removal, when it holds only what was written.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as promises from "node:fs/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { helmTemplate } from "../../src/render/template.js";
import { makeTempDir, removeTempDir } from "../../src/util/temp.js";
import { templateRequestOf } from "../helpers/render-input.js";

vi.mock("node:fs/promises", async (original) => {
  const actual = await original<typeof import("node:fs/promises")>();
  return { ...actual, rm: vi.fn(actual.rm) };
});
const rm = vi.mocked(promises.rm);

const request = templateRequestOf({
  values: [
    { name: "a.yaml", text: "a: 1\n", values: { a: 1 } },
    { name: "b.yaml", text: "b: 2\n", values: { b: 2 } },
  ],
});

/** The values files helm was given, each checked to be there while it ran. */
function valuesFiles(args: string[]): string[] {
  const files = args.flatMap((arg, i) => (args[i - 1] === "--values" ? [arg] : []));
  for (const file of files) expect(existsSync(file), file).toBe(true);
  return files;
}

describe("a render's temporary values folder", () => {
  afterEach(() => rm.mockClear());

  it("is gone after the render, removed file by file", async () => {
    let given: string[] = [];
    await helmTemplate(request, async (_file, args) => {
      given = valuesFiles(args);
      return { code: 0, stdout: "", stderr: "" };
    });
    expect(given).toHaveLength(2);
    expect(existsSync(dirname(given[0] ?? ""))).toBe(false);
    // (The first folder of a process also sweeps those of processes gone, with rm.)
    expect(rm).not.toHaveBeenCalledWith(dirname(given[0] ?? ""), expect.anything());
  });

  it("is gone after a failed render", async () => {
    let given: string[] = [];
    await expect(
      helmTemplate(request, async (_file, args) => {
        given = valuesFiles(args);
        return { code: 1, stdout: "", stderr: "Error: template: c/templates/x.yaml:1:2: boom" };
      }),
    ).rejects.toThrow(/helm template/);
    expect(existsSync(dirname(given[0] ?? ""))).toBe(false);
  });

  it("is gone, recursively, when something else was written there", async () => {
    let dir = "";
    await helmTemplate(request, async (_file, args) => {
      dir = dirname(valuesFiles(args)[0] ?? "");
      writeFileSync(join(dir, "extra.yaml"), "x: 1\n");
      return { code: 0, stdout: "", stderr: "" };
    });
    expect(existsSync(dir)).toBe(false);
    expect(rm).toHaveBeenCalledWith(dir, { recursive: true, force: true });
  });

  it("is removed when a file it was said to hold is already gone, and with nested folders when no files are named", async () => {
    const dir = await makeTempDir("test");
    writeFileSync(join(dir, "0.yaml"), "a: 1\n");
    await removeTempDir(dir, [join(dir, "0.yaml"), join(dir, "1.yaml")]);
    expect(existsSync(dir)).toBe(false);
    const nested = await makeTempDir("test");
    await promises.mkdir(join(nested, "a", "b"), { recursive: true });
    writeFileSync(join(nested, "a", "b", "c"), "");
    await removeTempDir(nested);
    expect(existsSync(nested)).toBe(false);
    expect(readdirSync(dirname(dir)).filter((name) => name.startsWith(`chartroom-${process.pid}-test-`))).toStrictEqual([]);
  });
});
