import { meetsConstraint } from "../util/helm-range.js";
import type { ChartSpec } from "../config/types.js";
import { chooseEngine, mergeStacks } from "../engine/choice.js";
import type { LockedChart, Lockfile } from "./schema.js";
import { byText } from "../util/order.js";

export interface StaleEntry {
  chart: string;
  reason: string;
}

/** Why a pin no longer answers its declaration; empty when it still does. */
export function staleReasons(spec: ChartSpec, locked: LockedChart | undefined): string[] {
  if (locked === undefined) return ["added to the config, not in the lock"];
  const reasons: string[] = [];
  if (locked.repository !== spec.repository.url) reasons.push(`repository changed (${locked.repository} → ${spec.repository.url})`);
  if (locked.chart !== spec.chart) reasons.push(`chart name changed (${locked.chart} → ${spec.chart})`);
  if (locked.range !== spec.range) reasons.push(`range changed (${locked.range} → ${spec.range})`);
  if ((locked.prerelease === true) !== spec.prerelease) reasons.push(`prerelease changed (${locked.prerelease === true} → ${spec.prerelease})`);
  if (locked.pinnedDigest !== spec.digest) reasons.push(`digest pin changed (${locked.pinnedDigest ?? "none"} → ${spec.digest ?? "none"})`);
  if (reasons.length === 0 && !satisfies(locked.version, spec)) reasons.push(`pinned ${locked.version} does not satisfy ${spec.range}`);
  if (spec.verify !== undefined && locked.signer === undefined) reasons.push("provenance to be verified (verify was added), not verified in the lock");
  if (reasons.length === 0) reasons.push(...engineReasons(spec, locked));
  return reasons;
}

/**
 * The engine the declaration now leads to, against the one the lock
 * recorded. A declaration that would drop hooks throws its own error
 * (ENGINE_DROPS_HOOKS), with the hooks listed.
 */
function engineReasons(spec: ChartSpec, locked: LockedChart): string[] {
  const hooks = locked.renderedHooks === undefined ? locked.hooks : mergeStacks(locked.renderedHooks);
  const choice = chooseEngine(spec, hooks);
  return choice.name === locked.engine?.name ? [] : [`engine choice changed (${locked.engine?.name ?? "none"} → ${choice.name})`];
}

function satisfies(version: string, spec: ChartSpec): boolean {
  return meetsConstraint(version, spec.range, spec.prerelease);
}

/** Every way the lock and the declarations disagree, sorted by chart. */
export function findStale(charts: readonly ChartSpec[], lock: Lockfile | null): StaleEntry[] {
  const locked = lock?.charts ?? {};
  const out: StaleEntry[] = [];
  for (const spec of charts) {
    for (const reason of staleReasons(spec, Object.hasOwn(locked, spec.key) ? locked[spec.key] : undefined)) out.push({ chart: spec.key, reason });
  }
  const declared = new Set(charts.map((spec) => spec.key));
  for (const key of Object.keys(locked)) {
    if (!declared.has(key)) out.push({ chart: key, reason: "removed from the config, still in the lock" });
  }
  return out.sort((a, b) => byText(a.chart, b.chart));
}
