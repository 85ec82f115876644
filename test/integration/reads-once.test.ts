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
    const stats = vi.spyOn(fs, "statSync");
    syncBuiltinESMExports();
    await check(project, { charts: ["webapp"], stack: "dev" });
    const calls = (spy: typeof opens | typeof stats, name: string) => spy.mock.calls.filter(([path]) => String(path) === join(dir, name)).length;
    // Looked for once each: a file that is there is opened once, an absent one (the example has no dev.yaml) is found absent by one stat.
    expect([calls(stats, "values/webapp/values.yaml"), calls(opens, "values/webapp/values.yaml")]).toStrictEqual([1, 1]);
    expect([calls(stats, "values/webapp/dev.yaml"), calls(opens, "values/webapp/dev.yaml")]).toStrictEqual([1, 0]);
  });
});
