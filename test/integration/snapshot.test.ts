// The base of a review, taken from git's objects: every tracked file written
// out as committed, except a folder asked for in memory (values/: a platform
// has hundreds of files there, each costing a millisecond to create on some
// disks), unless a link there would need following.
import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { snapshotAt } from "../../src/vcs/git.js";
import { tempDir } from "../helpers/tmp.js";

const run = promisify(execFile);

async function repository(files: Record<string, string>, links: Record<string, string> = {}): Promise<string> {
  const dir = await tempDir();
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  for (const [path, target] of Object.entries(links)) await symlink(target, join(dir, path));
  const git = (...args: string[]) => run("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.test", ...args]);
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-qm", "base");
  return dir;
}

describe("snapshotAt", () => {
  it("keeps the values folder of the platform in memory, by path under the platform, and writes the rest", async () => {
    const dir = await repository({
      "platform/chartroom.config.ts": "export default {};\n",
      "platform/values/web/values.yaml": "a: 1\n",
      "platform/values/web/prod.yaml": "a: 2\n",
      "platform/values.md": "not the folder\n",
      "values/elsewhere.yaml": "outside the platform\n",
    });
    const snapshot = await snapshotAt(join(dir, "platform"), "HEAD", { inMemory: "values" });
    try {
      expect([...(snapshot.files ?? new Map())].map(([path, bytes]) => [path, bytes.toString()])).toStrictEqual([
        ["values/web/prod.yaml", "a: 2\n"],
        ["values/web/values.yaml", "a: 1\n"],
      ]);
      expect((await readdir(snapshot.dir)).sort()).toStrictEqual(["chartroom.config.ts", "values.md"]);
      expect(await readFile(join(snapshot.root, "values", "elsewhere.yaml"), "utf8")).toBe("outside the platform\n");
    } finally {
      await snapshot.remove();
    }
  });

  it("writes the folder out like the rest when a link in it would need following, and everything without inMemory", async () => {
    const dir = await repository(
      { "chartroom.config.ts": "export default {};\n", "shared.yaml": "a: 1\n", "values/web/values.yaml": "b: 2\n" },
      {
        "values/web/prod.yaml": "../../shared.yaml",
      },
    );
    for (const options of [{ inMemory: "values" }, {}]) {
      const snapshot = await snapshotAt(dir, "HEAD", options);
      try {
        expect(snapshot.files).toBeUndefined();
        expect(await readFile(join(snapshot.dir, "values", "web", "prod.yaml"), "utf8")).toBe("a: 1\n");
        expect(await readFile(join(snapshot.dir, "values", "web", "values.yaml"), "utf8")).toBe("b: 2\n");
      } finally {
        await snapshot.remove();
      }
    }
  });
});
