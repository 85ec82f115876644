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

  it("reports each change with its exact reason, and nothing else", () => {
    expect(staleReasons(spec("app", "^1.0.0", { prerelease: true }), pin("1.0.0"))).toStrictEqual(["prerelease changed (false → true)"]);
    expect(staleReasons(spec("app", "^1.0.0"), pin("1.0.0", { prerelease: true }))).toStrictEqual(["prerelease changed (true → false)"]);
    expect(staleReasons(spec("app", "^1.0.0", { prerelease: true }), pin("1.0.0", { prerelease: true }))).toStrictEqual([]);
    expect(staleReasons(spec("app", "^1.0.0", { digest: "sha256:aa" }), pin("1.0.0"))).toStrictEqual(["digest pin changed (none → sha256:aa)"]);
    expect(staleReasons(spec("app", "^1.0.0"), pin("1.0.0", { pinnedDigest: "sha256:aa" }))).toStrictEqual(["digest pin changed (sha256:aa → none)"]);
    expect(staleReasons(spec("app", "^1.0.0", { digest: "sha256:aa" }), pin("1.0.0", { pinnedDigest: "sha256:aa" }))).toStrictEqual([]);
    // A changed declaration is reported alone: the pin's version and engine are not judged against it.
    expect(staleReasons(spec("app", "^2.0.0"), pin("1.0.0", { engine: { name: "release", reasons: [] } }))).toStrictEqual(["range changed (^1.0.0 → ^2.0.0)"]);
  });

  it("reports an engine choice the declaration no longer leads to, judging hooks by what the stacks render", () => {
    const migration = { "pre-upgrade": ["Job.batch ns/migrate"] };
    // The lock's rendered hooks say the chart needs a Release; it was locked as a Chart.
    expect(staleReasons(spec("app", "^1.0.0"), pin("1.0.0", { renderedHooks: { dev: {}, prod: migration } }))).toStrictEqual([
      "engine choice changed (chart → release)",
    ]);
    // Rendered hooks win over what the templates show.
    expect(staleReasons(spec("app", "^1.0.0"), pin("1.0.0", { hooks: migration, renderedHooks: { dev: {} } }))).toStrictEqual([]);
    expect(staleReasons(spec("app", "^1.0.0"), pin("1.0.0", { hooks: migration }))).toStrictEqual(["engine choice changed (chart → release)"]);
    expect(staleReasons(spec("app", "^1.0.0", { engine: "release" }), pin("1.0.0"))).toStrictEqual(["engine choice changed (chart → release)"]);
    expect(staleReasons(spec("app", "^1.0.0"), pin("1.0.0", { engine: undefined as never }))).toStrictEqual(["engine choice changed (none → chart)"]);
    // A declared engine chart that would drop hooks is the engine's own error, not a staleness reason.
    expect(() => staleReasons(spec("app", "^1.0.0", { engine: "chart" }), pin("1.0.0", { hooks: migration }))).toThrow(
      expect.objectContaining({ code: "ENGINE_DROPS_HOOKS" }),
    );
  });

  it("asks for a lock again when provenance is to be verified and the pin records no signer", () => {
    const verify = { keyring: "/p/keyring.gpg" };
    expect(staleReasons(spec("app", "^1.0.0", { verify }), pin("1.0.0"))).toStrictEqual([
      "provenance to be verified (verify was added), not verified in the lock",
    ]);
    expect(staleReasons(spec("app", "^1.0.0", { verify }), pin("1.0.0", { signer: "Platform Team" } as never))).toStrictEqual([]);
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
