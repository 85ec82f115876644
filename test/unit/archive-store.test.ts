import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { diskArchiveStore } from "../../src/store/archives.js";
import { sha256Digest } from "../../src/util/hash.js";

describe("the archive store", () => {
  let dir: string | undefined;
  afterEach(() => (dir === undefined ? undefined : rm(dir, { recursive: true, force: true })));

  it("hashes what it reads again: a damaged or replaced file is a miss, never another chart", async () => {
    dir = await mkdtemp(join(tmpdir(), "chartroom-store-"));
    const store = diskArchiveStore(dir);
    const data = Buffer.from("the archive's bytes");
    const digest = sha256Digest(data);
    await store.put(digest, data);
    expect(await store.get(digest)).toStrictEqual(data);
    await writeFile(store.pathOf(digest), Buffer.from("other bytes under the same name"));
    expect(await store.get(digest)).toBeNull();
    expect(await store.get(sha256Digest(Buffer.from("never stored")))).toBeNull();
  });
});
