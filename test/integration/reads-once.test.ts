// One run reads and parses each values file once, however many services
// (render keys, rendering, values checks, policies) ask for it.
import { createRequire, syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { check, openProject } from "../../src/index.js";
import { copyPlatform } from "../helpers/platform.js";
import { helm } from "../helpers/helm.js";
import { tempDir } from "../helpers/tmp.js";

// The fs module object itself: named imports of node:fs follow it after syncBuiltinESMExports.
const fs = createRequire(import.meta.url)("node:fs") as typeof import("node:fs");

afterEach(() => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
});

describe("a run of check", () => {
  it("opens each values file of a chart and stack once", async () => {
    const dir = await copyPlatform();
    const env = { ...process.env, CHARTROOM_CACHE: await tempDir(), HELM_BIN: await helm(4), CHARTROOM_TODAY: "2026-11-30" };
    const project = await openProject({ dir, env });
    const opens = vi.spyOn(fs, "openSync");
    syncBuiltinESMExports();
    await check(project, { charts: ["webapp"], stack: "dev" });
    const opened = (name: string) => opens.mock.calls.filter(([path]) => String(path) === join(dir, name)).length;
    expect(opened("values/webapp/values.yaml")).toBe(1);
    expect(opened("values/webapp/dev.yaml")).toBe(1);
  });
});
