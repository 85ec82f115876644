import { describe, expect, it } from "vitest";
import { ChartroomError } from "../../src/errors/index.js";
import { highestInRange, latestVersion, resolveVersion } from "../../src/versions/resolve.js";
import type { ChartVersion } from "../../src/model/charts.js";

function listing(...specs: string[]): ChartVersion[] {
  return specs.map((spec) => {
    const deprecated = spec.endsWith("!");
    const version = spec.replace(/!$/, "");
    return { name: "app", version, urls: [`app-${version}.tgz`], ...(deprecated ? { deprecated: true } : {}) };
  });
}

const request = (range: string, prerelease = false) => ({ key: "app", chart: "app", range, prerelease, repository: "file://./charts" });

describe("resolveVersion", () => {
  it.each([
    ["^1.0.0", ["1.0.0", "1.2.0", "1.10.0", "2.0.0"], "1.10.0"],
    ["~1.2.0", ["1.2.0", "1.2.5", "1.3.0"], "1.2.5"],
    ["1.x", ["0.9.0", "1.0.0", "1.4.2"], "1.4.2"],
    [">=1 <2", ["2.0.0", "1.9.9", "1.0.0"], "1.9.9"],
    ["1.2.0", ["1.2.0", "1.3.0"], "1.2.0"],
    ["*", ["1.0.0", "3.0.0-rc.1", "2.0.0"], "2.0.0"],
  ])("picks the highest version satisfying %s", (range, versions, expected) => {
    expect(resolveVersion(request(range), listing(...versions)).version).toBe(expected);
  });

  it("skips prereleases unless asked", () => {
    const versions = listing("1.0.0", "1.1.0-beta.1");
    expect(resolveVersion(request("^1.0.0"), versions).version).toBe("1.0.0");
    expect(resolveVersion(request("^1.0.0", true), versions).version).toBe("1.1.0-beta.1");
  });

  it("skips deprecated versions in a range", () => {
    expect(resolveVersion(request("^1.0.0"), listing("1.0.0", "1.1.0!")).version).toBe("1.0.0");
  });

  it("takes a deprecated version pinned exactly", () => {
    expect(resolveVersion(request("1.1.0"), listing("1.0.0", "1.1.0!")).version).toBe("1.1.0");
  });

  it("ignores entries that are not semver", () => {
    expect(resolveVersion(request("^1.0.0"), listing("latest", "1.0.0", "v-next")).version).toBe("1.0.0");
  });

  it("is deterministic whatever the listing order", () => {
    const a = listing("1.0.0", "1.3.0", "1.2.0");
    const b = [...a].reverse();
    expect(resolveVersion(request("^1"), a)).toStrictEqual(resolveVersion(request("^1"), b));
  });

  it("names the range and the available versions when nothing satisfies it", () => {
    const error = catchError(() => resolveVersion(request("^3.0.0"), listing("1.0.0", "2.0.0")));
    expect(error.code).toBe("VERSION_NOT_FOUND");
    expect(error.message).toContain('"^3.0.0"');
    expect(error.details.join()).toContain("2.0.0, 1.0.0");
    expect(error.place.key).toBe("charts.app.version");
  });

  it("does not find an exact version that is not listed", () => {
    expect(catchError(() => resolveVersion(request("1.5.0"), listing("1.0.0"))).code).toBe("VERSION_NOT_FOUND");
  });
});

describe("latestVersion and highestInRange", () => {
  it("returns undefined when nothing matches", () => {
    expect(highestInRange(listing("1.0.0"), "^2", false)).toBeUndefined();
  });

  it("ignores deprecated and prerelease versions for latest", () => {
    expect(latestVersion(listing("1.0.0", "2.0.0!", "3.0.0-alpha.1"), false)?.version).toBe("1.0.0");
    expect(latestVersion(listing("1.0.0", "3.0.0-alpha.1"), true)?.version).toBe("3.0.0-alpha.1");
  });
});

function catchError(fn: () => unknown): ChartroomError {
  try {
    fn();
  } catch (error) {
    if (ChartroomError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a ChartroomError");
}
