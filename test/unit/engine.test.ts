import { describe, expect, it } from "vitest";
import { chooseEngine, lifecycleHooks, mergeStacks } from "../../src/engine/choice.js";
import { ChartroomError } from "../../src/errors/index.js";

const spec = (extra: Partial<{ engine: "auto" | "chart" | "release"; dropHooks: boolean; helmRelease: boolean }> = {}) => ({
  key: "app",
  engine: "auto" as const,
  dropHooks: false,
  helmRelease: false,
  ...extra,
});
const MIGRATION = { "pre-install": ["Job.batch ns/migrate"], "pre-upgrade": ["Job.batch ns/migrate"], test: ["Pod ns/probe"] };

describe("chooseEngine", () => {
  it("gives its reasons in words explain prints, naming rendered hook objects", () => {
    expect(lifecycleHooks({ test: [], "test-success": [], "post-install": [], "pre-install": [] })).toStrictEqual(["post-install", "pre-install"]);
    expect(chooseEngine(spec(), MIGRATION, "rendered").reasons).toStrictEqual([
      "the chart renders pre-install, pre-upgrade hooks (Job.batch ns/migrate); helm.v4.Chart would drop them without a word, helm.v3.Release runs them",
    ]);
    expect(chooseEngine(spec(), MIGRATION).reasons).toStrictEqual([
      "the chart declares pre-install, pre-upgrade hooks; helm.v4.Chart would drop them without a word, helm.v3.Release runs them",
    ]);
    expect(chooseEngine(spec(), { test: ["Pod ns/probe"] }, "rendered").reasons).toStrictEqual([
      "the chart renders no lifecycle hooks; helm.v4.Chart makes each object a Pulumi resource with its own diff",
    ]);
    expect(chooseEngine(spec({ engine: "chart" }), {}).reasons).toStrictEqual([
      "engine: chart is declared in chartroom.config.ts",
      "the chart declares no lifecycle hooks",
    ]);
    expect(chooseEngine(spec({ engine: "chart", dropHooks: true }), MIGRATION).reasons).toStrictEqual([
      "engine: chart is declared in chartroom.config.ts",
      "the chart declares pre-install, pre-upgrade hooks",
      "dropHooks: true accepts that helm.v4.Chart never runs them",
    ]);
    expect(chooseEngine(spec({ engine: "release" }), {}).reasons).toStrictEqual([
      "engine: release is declared in chartroom.config.ts",
      "the chart declares no lifecycle hooks",
    ]);
    expect(chooseEngine(spec({ helmRelease: true }), {}).reasons).toStrictEqual([
      "helmRelease: true: other tooling needs a real Helm release (helm list, helm rollback)",
      "the chart declares no lifecycle hooks",
    ]);
    const refused = (() => {
      try {
        chooseEngine(spec({ engine: "chart" }), MIGRATION, "rendered");
      } catch (error) {
        return error as { details?: string[]; place?: unknown };
      }
      return undefined;
    })();
    expect(refused?.details).toStrictEqual(["pre-install: Job.batch ns/migrate", "pre-upgrade: Job.batch ns/migrate"]);
    expect(refused?.place).toStrictEqual({ chart: "app", key: "charts.app.engine" });
  });

  it("counts a hook that one stack renders, whichever stack it is (helm.v4.Chart would drop it there)", () => {
    const cases: Record<string, Record<string, string[]>>[] = [
      { dev: {}, prod: MIGRATION },
      { prod: MIGRATION, dev: {} },
      { a: {}, b: {}, c: { "post-install": ["Job.batch ns/seed"] } },
    ];
    for (const rendered of cases) {
      expect(chooseEngine(spec(), mergeStacks(rendered), "rendered").name, JSON.stringify(rendered)).toBe("release");
    }
    expect(mergeStacks({ dev: { test: ["Pod ns/a"] }, prod: { test: ["Pod ns/b"], "pre-upgrade": ["Job.batch ns/m"] } })).toStrictEqual({
      test: ["Pod ns/a", "Pod ns/b"],
      "pre-upgrade": ["Job.batch ns/m"],
    });
  });

  it("picks helm.v3.Release for a chart that renders lifecycle hooks, naming them", () => {
    const choice = chooseEngine(spec(), MIGRATION, "rendered");
    expect(choice.name).toBe("release");
    expect(choice.reasons[0]).toBe(
      "the chart renders pre-install, pre-upgrade hooks (Job.batch ns/migrate); helm.v4.Chart would drop them without a word, helm.v3.Release runs them",
    );
  });

  it("picks helm.v4.Chart when the only hooks are test hooks", () => {
    expect(chooseEngine(spec(), { test: ["Pod ns/probe"] }).name).toBe("chart");
  });

  it("picks helm.v3.Release when other tooling needs a real release", () => {
    expect(chooseEngine(spec({ helmRelease: true }), {})).toStrictEqual({
      name: "release",
      reasons: ["helmRelease: true: other tooling needs a real Helm release (helm list, helm rollback)", "the chart declares no lifecycle hooks"],
    });
  });

  it("lets a declared engine win and says so", () => {
    expect(chooseEngine(spec({ engine: "release" }), {})).toStrictEqual({
      name: "release",
      reasons: ["engine: release is declared in chartroom.config.ts", "the chart declares no lifecycle hooks"],
    });
  });

  it("refuses engine chart on a chart with hooks, listing the hooks that would be lost", () => {
    let error: unknown;
    try {
      chooseEngine(spec({ engine: "chart" }), MIGRATION, "rendered");
    } catch (caught) {
      error = caught;
    }
    expect(ChartroomError.isInstance(error) && error.code).toBe("ENGINE_DROPS_HOOKS");
    expect((error as ChartroomError).details).toStrictEqual(["pre-install: Job.batch ns/migrate", "pre-upgrade: Job.batch ns/migrate"]);
    expect((error as ChartroomError).hint).toContain("dropHooks: true");
  });

  it("accepts engine chart on a chart with hooks when dropHooks acknowledges it", () => {
    const choice = chooseEngine(spec({ engine: "chart", dropHooks: true }), MIGRATION, "rendered");
    expect(choice.name).toBe("chart");
    expect(choice.reasons).toContain("dropHooks: true accepts that helm.v4.Chart never runs them");
  });
});
