import { chooseEngine, lifecycleHooks, mergeStacks } from "../../deploy/engine.js";
import type { LockedChart } from "../../lock/schema.js";
import type { Command } from "../command.js";
import { requirePin } from "../diffing.js";
import { openSession, requireChart } from "../session.js";

const ENGINE = { chart: "helm.v4.Chart", release: "helm.v3.Release" };

export const explainCommand: Command = {
  name: "explain",
  summary: "why a chart gets its engine: hooks by stack, CRDs, schema, pins",
  usage: "chartroom explain <chart>",
  help: ["Shows, from charts.lock.json, the Pulumi engine a chart gets and why, the hook", "events it renders per stack, its CRDs, schema, dependencies and pins."],
  options: {},
  async run(context, args) {
    const session = await openSession(context, args);
    const spec = requireChart(session, args.positionals[0], "explain");
    const pin = requirePin(session, spec);
    const hooks = pin.renderedHooks === undefined ? pin.hooks : mergeStacks(pin.renderedHooks);
    const engine = chooseEngine(spec, hooks, pin.renderedHooks === undefined ? "templates" : "rendered");
    if (args.format === "json") return { output: JSON.stringify({ chart: spec.key, engine, pin }, null, 2), exitCode: 0 };
    return { output: describe(spec.key, engine, pin, lifecycleHooks(hooks).length > 0), exitCode: 0 };
  },
};

function describe(key: string, engine: { name: "chart" | "release"; reasons: string[] }, pin: LockedChart, hasHooks: boolean): string {
  const lines = [`${key}: ${ENGINE[engine.name]}`, ...engine.reasons.map((reason) => `  - ${reason}`), ""];
  lines.push(`pinned      ${pin.chart} ${pin.version} (range ${pin.range}) from ${pin.repository}`);
  lines.push(`digest      ${pin.digest}`);
  if (pin.manifestDigest !== undefined) lines.push(`manifest    ${pin.manifestDigest}`);
  if (pin.appVersion !== undefined) lines.push(`appVersion  ${pin.appVersion}`);
  lines.push(`schema      ${pin.schema === null ? "none (values are checked for unknown keys against the defaults only)" : `${pin.schema.digest}${pin.schema.dialect ? ` (${pin.schema.dialect})` : ""}`}`);
  lines.push(`CRDs        ${pin.crds.length === 0 ? "none" : pin.crds.join(", ")}`);
  lines.push(`depends on  ${pin.dependencies.length === 0 ? "nothing" : pin.dependencies.map((d) => `${d.name} ${d.version}${d.vendored ? " (vendored)" : ""}`).join(", ")}`);
  lines.push("", "hooks by stack:");
  const stacks = pin.renderedHooks ?? { templates: pin.hooks };
  for (const [stack, events] of Object.entries(stacks)) {
    const entries = Object.entries(events);
    lines.push(`  ${stack}:${entries.length === 0 ? " none" : ""}`);
    for (const [event, objects] of entries) lines.push(`    ${event}${event === "test" || event.startsWith("test-") ? " (helm test only)" : ""}: ${objects.join(", ")}`);
  }
  if (hasHooks && engine.name === "chart") lines.push("", "warning: helm.v4.Chart never runs these hooks (dropHooks: true accepts that)");
  const unstable = Object.entries(pin.unstable ?? {}).filter(([, paths]) => paths.length > 0);
  if (unstable.length > 0) {
    lines.push("", "changes on every render:");
    for (const [stack, paths] of unstable) lines.push(`  ${stack}: ${paths.join(", ")}`);
    if (engine.name === "chart") lines.push("  under helm.v4.Chart each of these is an update on every `pulumi up`: pin the value in values or an existing Secret");
  }
  return lines.join("\n");
}
