import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChartroomError } from "../../src/errors/index.js";
import { readFileSyncFor } from "../../src/util/fs.js";
import { tempDir } from "../helpers/tmp.js";

function refusal(path: string): ChartroomError {
  try {
    readFileSyncFor(path, "the values file", { optional: true });
  } catch (error) {
    if (ChartroomError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`expected ${path} to be refused`);
}

// An optional file is looked for with a stat before it is opened: what only
// an absent file may be is undefined, and every other failure is still named.
describe("reading an optional file", () => {
  it("gives undefined for a file that is not there, or a link to nothing", async () => {
    const dir = await tempDir();
    await symlink(join(dir, "gone.yaml"), join(dir, "link.yaml"));
    expect(readFileSyncFor(join(dir, "absent.yaml"), "the values file", { optional: true })).toBeUndefined();
    expect(readFileSyncFor(join(dir, "link.yaml"), "the values file", { optional: true })).toBeUndefined();
  });

  it("reads a file that is there, through a link too", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "a.yaml"), "a: 1\n");
    await symlink(join(dir, "a.yaml"), join(dir, "link.yaml"));
    expect(readFileSyncFor(join(dir, "link.yaml"), "the values file", { optional: true })?.toString()).toBe("a: 1\n");
  });

  it("names a file standing where a folder should be, a loop of links, a folder and a pipe", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "chart"), "");
    await symlink(join(dir, "loop-b"), join(dir, "loop-a"));
    await symlink(join(dir, "loop-a"), join(dir, "loop-b"));
    await mkdir(join(dir, "folder.yaml"));
    execFileSync("mkfifo", [join(dir, "pipe.yaml")]);
    expect(refusal(join(dir, "chart", "values.yaml")).message).toContain("has a file where a folder should be");
    expect(refusal(join(dir, "loop-a")).message).toContain("is a loop of symbolic links");
    expect(refusal(join(dir, "folder.yaml")).message).toContain("is a folder, not a file");
    expect(refusal(join(dir, "pipe.yaml")).message).toContain("is not a regular file");
  });

  it("still says a file that must be there does not exist", async () => {
    const dir = await tempDir();
    expect(() => readFileSyncFor(join(dir, "absent.yaml"), "the lock")).toThrow(/the lock does not exist/);
  });
});
