import { describe, expect, it } from "vitest";
import { chartSpec } from "../../src/config/normalise.js";
import type { ChartSpec } from "../../src/config/types.js";
import { outdatedRow, updateType } from "../../src/versions/outdated.js";
import type { LockedChart } from "../../src/lockfile/schema.js";
import { findStale, staleReasons } from "../../src/lockfile/stale.js";
import type { ChartVersion } from "../../src/model/charts.js";

const repository = { name: "local", kind: "file" as const, url: "file://./charts", plainHttp: false, timeoutMs: 1000 };

function spec(key: string, range: string, extra: Partial<ChartSpec> = {}): ChartSpec {
  return chartSpec({ key, repository, range, namespace: "ns", ...extra });
}

function pin(version: string, extra: Partial<LockedChart> = {}): LockedChart {
  return {
    repository: repository.url,
    chart: "app",
    range: "^1.0.0",
    version,
    digest: "sha256:00",
    url: `app-${version}.tgz`,
    chartApiVersion: "v2",
    schema: null,
    crds: [],
    dependencies: [],
    hooks: {},
    engine: { name: "chart", reasons: [] },
    ...extra,
  };
}

const versions = (...list: string[]): ChartVersion[] => list.map((version) => ({ name: "app", version, urls: [] }));

describe("updateType", () => {
  it.each([
    ["1.0.0", "1.0.1", "patch"],
    ["1.0.0", "1.1.0", "minor"],
    ["1.0.0", "2.0.0", "major"],
    ["1.0.0", "2.0.0-rc.1", "major"],
    ["1.0.0-rc.1", "1.0.0-rc.2", "prerelease"],
    ["1.0.0", "1.0.0", undefined],
  ])("%s → %s is %s", (from, to, expected) => {
    expect(updateType(from, to)).toBe(expected);
  });
});

describe("outdatedRow", () => {
  it("reports current, wanted in range, latest and the size of the step to latest", () => {
    const row = outdatedRow(spec("app", "~1.0.0"), pin("1.0.0"), versions("2.0.0", "1.1.0", "1.0.1", "1.0.0"));
    expect(row).toStrictEqual({
      chart: "app",
      repository: "file://./charts",
      current: "1.0.0",
      wanted: "1.0.1",
      latest: "2.0.0",
      updateType: "major",
      outdated: true,
    });
  });

  it("is not outdated when the pin is the latest", () => {
    const row = outdatedRow(spec("app", "^1.0.0"), pin("1.1.0"), versions("1.1.0", "1.0.0"));
    expect(row.outdated).toBe(false);
    expect(row.updateType).toBeUndefined();
  });

  it("counts a chart that is not locked as outdated", () => {
    const row = outdatedRow(spec("app", "^1.0.0"), undefined, versions("1.0.0"));
    expect(row).toMatchObject({ current: undefined, wanted: "1.0.0", outdated: true });
  });
});

describe("staleness", () => {
  it.each([
    ["range", spec("app", "^2.0.0", { chart: "app" }), pin("1.0.0"), "range changed (^1.0.0 → ^2.0.0)"],
    ["chart name", spec("app", "^1.0.0", { chart: "other" }), pin("1.0.0"), "chart name changed (app → other)"],
    ["repository", spec("app", "^1.0.0", { repository: { ...repository, url: "https://charts.example.test" } }), pin("1.0.0"), "repository changed"],
    ["prerelease", spec("app", "^1.0.0", { prerelease: true }), pin("1.0.0"), "prerelease changed (false → true)"],
  ])("reports a changed %s", (_, declared, locked, reason) => {
    expect(staleReasons(declared, locked).join()).toContain(reason);
  });

  it("accepts a pin that still answers its declaration", () => {
    expect(staleReasons(spec("app", "^1.0.0"), pin("1.2.0"))).toStrictEqual([]);
  });

  it("reports a pin outside its range even when the range text is unchanged", () => {
    expect(staleReasons(spec("app", "^1.0.0"), pin("2.0.0"))).toStrictEqual(["pinned 2.0.0 does not satisfy ^1.0.0"]);
  });

  it("lists added and removed charts, sorted", () => {
    const lock = { lockfileVersion: "1.0", charts: { gone: pin("1.0.0", { chart: "gone" }), app: pin("1.0.0") } };
    expect(findStale([spec("app", "^1.0.0"), spec("new", "^1.0.0")], lock)).toStrictEqual([
      { chart: "gone", reason: "removed from the config, still in the lock" },
      { chart: "new", reason: "added to the config, not in the lock" },
    ]);
  });

  it("treats a missing lock as every chart added", () => {
    expect(findStale([spec("app", "^1")], null)).toStrictEqual([{ chart: "app", reason: "added to the config, not in the lock" }]);
  });
});
