import type { Engine } from "../config/types.js";
import type { EngineChoice } from "../lock/schema.js";

/** Hook events that run at install/upgrade/delete; `test` hooks only run under `helm test`. */
export function lifecycleHooks(hooks: Record<string, string[]>): string[] {
  return Object.keys(hooks).filter((event) => event !== "test" && !event.startsWith("test-")).sort();
}

/**
 * Pure: which Pulumi engine a chart gets and why. A declared engine wins;
 * `auto` picks helm.v3.Release when the chart has lifecycle hooks, because
 * helm.v4.Chart renders with hooks disabled and drops those objects silently.
 */
export function chooseEngine(declared: Engine, hooks: Record<string, string[]>, found: "templates" | "rendered" = "templates"): EngineChoice {
  const lifecycle = lifecycleHooks(hooks);
  const verb = found === "rendered" ? "renders" : "declares";
  const objects = found === "rendered" ? ` (${[...new Set(lifecycle.flatMap((event) => hooks[event] ?? []))].join(", ")})` : "";
  const hookNote = lifecycle.length > 0 ? `the chart ${verb} ${lifecycle.join(", ")} hooks${objects}` : `the chart ${verb} no lifecycle hooks`;
  if (declared === "chart") {
    return { name: "chart", reasons: ["engine: chart is declared in chartroom.config.ts", hookNote] };
  }
  if (declared === "release") {
    return { name: "release", reasons: ["engine: release is declared in chartroom.config.ts", hookNote] };
  }
  if (lifecycle.length > 0) {
    return {
      name: "release",
      reasons: [`${hookNote}; helm.v4.Chart would drop them without a word, helm.v3.Release runs them`],
    };
  }
  return {
    name: "chart",
    reasons: [`${hookNote}; helm.v4.Chart makes each object a Pulumi resource with its own diff`],
  };
}
