import { describe, expect, it } from "vitest";
import { normaliseConfig } from "../../src/config/normalise.js";
import { helmRange, meetsConstraint } from "../../src/util/helm-range.js";

describe("Helm version constraints", () => {
  it("reads commas as AND and ~> as ~, and refuses what node-semver cannot say", () => {
    expect(helmRange(">=1.2.3, <2.0.0")).toBe(">=1.2.3 <2.0.0");
    expect(helmRange("~> 1.2")).toBe("~ 1.2");
    expect(helmRange("!=1.0.0")).toBeUndefined();
    expect(helmRange("not a range")).toBeUndefined();
    expect(meetsConstraint("1.9.0", ">=1.2.3, <2.0.0", false)).toBe(true);
    expect(meetsConstraint("2.0.0", ">=1.2.3, <2.0.0", false)).toBe(false);
  });

  it("are accepted in the config, and a bad one is named with examples", () => {
    const config = (version: string) => ({ repositories: { r: "file://./charts" }, charts: { a: { repository: "r", version, namespace: "a" } } });
    expect(normaliseConfig(config(">=1.2.3, <2.0.0"), "/p/chartroom.config.ts").charts[0]?.range).toBe(">=1.2.3, <2.0.0");
    expect(() => normaliseConfig(config("!=1.0.0"), "/p/chartroom.config.ts")).toThrow(/not a version constraint/);
  });
});
