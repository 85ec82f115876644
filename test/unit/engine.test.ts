import { describe, expect, it } from "vitest";
import { chooseEngine } from "../../src/deploy/engine.js";

describe("chooseEngine", () => {
  it("picks helm.v3.Release for a chart with lifecycle hooks", () => {
    const choice = chooseEngine("auto", { "pre-install": ["templates/job.yaml"], test: ["templates/t.yaml"] });
    expect(choice.name).toBe("release");
    expect(choice.reasons[0]).toContain("pre-install");
  });

  it("picks helm.v4.Chart when the only hooks are test hooks", () => {
    expect(chooseEngine("auto", { test: ["templates/t.yaml"] }).name).toBe("chart");
  });

  it("lets a declared engine win and says so", () => {
    const choice = chooseEngine("release", {});
    expect(choice).toStrictEqual({ name: "release", reasons: ["engine: release is declared in chartroom.config.ts", "the chart declares no lifecycle hooks"] });
  });
});
