import type { ChartSpec } from "../config/types.js";
import { ChartroomError } from "../errors/index.js";
import type { EngineChoice, EngineName } from "../model/engine.js";

/** What a chart is treated as before its engine is known: what `auto` picks for a chart without hooks. */
export const UNLOCKED_ENGINE: EngineName = "chart";

/** The one rule for a chart's engine: as declared, else as its pin records (undefined before the first lock). */
export function engineOf(spec: Pick<ChartSpec, "engine">, pin: { engine: { name: EngineName } } | undefined): EngineName | undefined {
  return spec.engine !== "auto" ? spec.engine : pin?.engine.name;
}

/** Hook events that run at install/upgrade/delete; `test` hooks only run under `helm test`. */
export function lifecycleHooks(hooks: Record<string, string[]>): string[] {
  return Object.keys(hooks)
    .filter((event) => event !== "test" && !event.startsWith("test-"))
    .sort();
}

/**
 * Pure: which Pulumi engine a chart gets and why. A declared engine wins,
 * but `chart` on a chart with lifecycle hooks is refused unless the
 * declaration accepts losing them (`dropHooks`). `auto` picks helm.v3.Release
 * when the chart has lifecycle hooks (helm.v4.Chart renders with hooks
 * disabled and drops those objects silently) or when other tooling needs a
 * real Helm release (`helmRelease`); otherwise helm.v4.Chart.
 */
export function chooseEngine(
  spec: Pick<ChartSpec, "key" | "engine" | "dropHooks" | "helmRelease">,
  hooks: Record<string, string[]>,
  found: "templates" | "rendered" = "templates",
): EngineChoice {
  const lifecycle = lifecycleHooks(hooks);
  const verb = found === "rendered" ? "renders" : "declares";
  const objects = (events: string[]) => [...new Set(events.flatMap((event) => hooks[event] ?? []))];
  const named = found === "rendered" && lifecycle.length > 0 ? ` (${objects(lifecycle).join(", ")})` : "";
  const hookNote = lifecycle.length > 0 ? `the chart ${verb} ${lifecycle.join(", ")} hooks${named}` : `the chart ${verb} no lifecycle hooks`;
  if (spec.engine === "chart") {
    if (lifecycle.length > 0 && !spec.dropHooks) {
      throw new ChartroomError("ENGINE_DROPS_HOOKS", `charts.${spec.key} declares engine "chart", but helm.v4.Chart would drop the chart's hooks`, {
        place: { chart: spec.key, key: `charts.${spec.key}.engine` },
        details: lifecycle.map((event) => `${event}: ${(hooks[event] ?? []).join(", ")}`),
        hint: 'use engine: "release" (or "auto"), or set dropHooks: true to accept that these never run',
      });
    }
    const reasons = ["engine: chart is declared in chartroom.config.ts", hookNote];
    if (lifecycle.length > 0) reasons.push("dropHooks: true accepts that helm.v4.Chart never runs them");
    return { name: "chart", reasons };
  }
  if (spec.engine === "release") {
    return { name: "release", reasons: ["engine: release is declared in chartroom.config.ts", hookNote] };
  }
  if (lifecycle.length > 0) {
    return { name: "release", reasons: [`${hookNote}; helm.v4.Chart would drop them without a word, helm.v3.Release runs them`] };
  }
  if (spec.helmRelease) {
    return { name: "release", reasons: ["helmRelease: true: other tooling needs a real Helm release (helm list, helm rollback)", hookNote] };
  }
  return { name: "chart", reasons: [`${hookNote}; helm.v4.Chart makes each object a Pulumi resource with its own diff`] };
}

/** Hook events of every stack together: a hook in any stack decides the engine. */
export function mergeStacks(hooks: Record<string, Record<string, string[]>>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const byEvent of Object.values(hooks)) {
    for (const [event, objects] of Object.entries(byEvent)) out[event] = [...new Set([...(out[event] ?? []), ...objects])].sort();
  }
  return out;
}
