// A folder repository's parsed index is kept in the cache while index.yaml's
// size and time stay the same: the next run reads it back, not the YAML.
import { createHash } from "node:crypto";
import { cp, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { fileSource } from "../../src/sources/file/index.js";
import { cli, copyPlatform, ROOT } from "../helpers/platform.js";
import { tempDir } from "../helpers/tmp.js";

describe("a file:// repository's index", () => {
  it("is parsed once and read back from the cache while index.yaml keeps its size and time", async () => {
    const dir = await tempDir();
    const folder = join(dir, "charts");
    await cp(join(ROOT, "charts"), folder, { recursive: true });
    const cacheRoot = join(dir, ".cache");
    // A whole second: a time set again later is the very same.
    const index = join(folder, "index.yaml");
    await utimes(index, 1_700_000_000, 1_700_000_000);
    const source = () =>
      fileSource({ name: "local", kind: "file", url: pathToFileURL(folder).toString(), path: folder, plainHttp: false, timeoutMs: 30_000 }, { cacheRoot });
    const first = (await source().listVersions("webapp")).map((version) => version.version);
    expect(first).toContain("1.1.0");
    // Same size and time, other bytes: a cache that holds is read back, and these bytes are never parsed.
    const { size } = await stat(index);
    await writeFile(index, "[".repeat(size));
    await utimes(index, 1_700_000_000, 1_700_000_000);
    expect((await source().listVersions("webapp")).map((version) => version.version)).toStrictEqual(first);
    // Another time: parsed again, and refused.
    await utimes(index, 1_700_000_005, 1_700_000_005);
    await expect(source().listVersions("webapp")).rejects.toMatchObject({ code: "INDEX_INVALID" });
    expect((await readFile(index, "utf8")).length).toBe(size);
  });
});

describe("a version the index lists by digest", () => {
  it("is taken from the archive store when it holds those bytes, not fetched and written again", async () => {
    const dir = await copyPlatform();
    const run = () => cli(dir, ["diff", "webapp", "--to", "1.1.0", "--stack", "dev", "-o", "json"]);
    const first = await run();
    expect(first.errors).toBe("");
    const digest = createHash("sha256")
      .update(await readFile(join(dir, "charts", "webapp-1.1.0.tgz")))
      .digest("hex");
    const stored = join(dir, ".cache", "archives", `sha256-${digest}.tgz`);
    const written = await stat(stored);
    const second = await run();
    expect(second.output).toBe(first.output);
    // The same file, not another one renamed over it.
    expect((await stat(stored)).ino).toBe(written.ino);
  });
});
