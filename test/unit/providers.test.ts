import { describe, expect, it } from "vitest";
import { describeEngineHelm, EMBEDDED_HELM, providerFacts } from "../../src/engine/providers.js";

describe("the provider releases chartroom knows", () => {
  it.each([
    ["4.12.0", "3.14.3"],
    ["4.17.0", "3.15.3"],
    ["4.23.0", "3.17.3"],
    ["4.25.0", "3.18.6"],
    ["4.29.0", "3.20.2"],
    ["4.32.0", "3.20.2"],
  ])("knows the Helm @pulumi/kubernetes %s embeds: %s", (version, helm) => {
    expect(providerFacts(version).helm).toBe(helm);
  });

  it("covers every release from helm.v4.Chart's first on", () => {
    expect(Object.keys(EMBEDDED_HELM).length).toBe(32);
  });

  it.each([
    ["4.28.0", "server-side apply", false],
    ["4.29.0", "client-side create", false],
    ["4.30.0", "client-side create", true],
  ])("knows how %s creates objects (%s) and whether it keeps null values", (version, create, nulls) => {
    expect([providerFacts(version).create, providerFacts(version).keepsNullValues]).toStrictEqual([create, nulls]);
  });

  it("says plainly when a release is not in the table", () => {
    expect(describeEngineHelm(providerFacts("4.25.0"))).toBe("Helm 3.18.6 (@pulumi/kubernetes 4.25.0)");
    expect(describeEngineHelm(providerFacts("4.34.2"))).toBe(
      "an unknown Helm: @pulumi/kubernetes 4.34.2 is newer than chartroom's table of provider releases (it ends at 4.32.0)",
    );
    expect(providerFacts("4.11.0").chartV4).toBe(false);
  });
});
