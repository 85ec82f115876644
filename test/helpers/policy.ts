import type { PolicyRule } from "../../src/model/policy.js";
import { runPolicies, type PolicyChart } from "../../src/policy/run.js";
import { emptySettings } from "../../src/policy/settings.js";
import { parseManifest } from "../../src/render/manifest.js";

/** One chart's manifest as the rules see it. */
export function policyChart(
  key: string,
  yaml: string,
  options: { namespace?: string; engine?: PolicyChart["engine"]; dropHooks?: boolean; lockedImages?: ReadonlyMap<string, string> } = {},
): PolicyChart {
  const engine = options.engine ?? "chart";
  return {
    key,
    engine,
    dropHooks: options.dropHooks ?? false,
    values: {},
    objects: parseManifest(yaml, options.namespace ?? "web", key),
    ...(options.lockedImages === undefined ? {} : { lockedImages: options.lockedImages }),
  };
}

/** Each finding of `rules` over `charts` for one stack: rule, severity, object, path, message. */
export function findingsOf(rules: readonly PolicyRule[], charts: PolicyChart[], options: { production?: boolean } = {}): string[][] {
  return runPolicies({ stack: "dev", kubeVersion: "1.31.0", charts, rules, settings: emptySettings(), today: "2026-11-30", ...options }).map((found) => [
    found.rule,
    found.severity,
    found.object ?? "",
    found.path ?? "",
    found.message,
  ]);
}
