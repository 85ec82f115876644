import type { EngineStep } from "../diff/model.js";
import { ENGINES } from "../engine/records.js";
import type { EngineChoice } from "../model/engine.js";

/** What the lock knows about a chart's pin, as the report shows it. */
export interface PinFacts {
  repository: string;
  chart: string;
  range: string;
  version: string;
  appVersion?: string;
  digest: string;
  manifestDigest?: string;
  schema: { digest: string; dialect?: string } | null;
  crds: string[];
  /** `version` is the range Chart.yaml asks for; `vendoredVersion` what the archive ships. */
  dependencies: { name: string; version: string; vendored: boolean; vendoredVersion?: string }[];
  /** Hook event → template files declaring it. */
  hooks: Record<string, string[]>;
  /** Per stack: hook event → rendered objects. */
  renderedHooks?: Record<string, Record<string, string[]>>;
}

/** `chartroom explain`: the engine a chart gets and why, with what the lock knows about it. */
export interface ExplainReport {
  report: "explain";
  format: 1;
  chart: string;
  engine: EngineChoice;
  pin: PinFacts;
  /** Lifecycle hooks (test hooks excluded) the chart renders in any stack. */
  lifecycleHooks: string[];
  /** Per stack: objects changed at every run by fields that differ at each render, and what the engine does to them. */
  churn: Record<string, { object: string; fields: string[]; step: EngineStep }[]>;
  /** The Helm the engine renders and installs with (the project's @pulumi/kubernetes provider's), when it installs one. */
  engineHelm?: string;
}

function lines(report: ExplainReport): string[] {
  const { pin, engine } = report;
  const out = [`${report.chart}: ${ENGINES[engine.name].display}`, ...engine.reasons.map((reason) => `  - ${reason}`), ""];
  out.push(`pinned      ${pin.chart} ${pin.version} (range ${pin.range}) from ${pin.repository}`);
  out.push(`digest      ${pin.digest}`);
  if (pin.manifestDigest !== undefined) out.push(`manifest    ${pin.manifestDigest}`);
  if (pin.appVersion !== undefined) out.push(`appVersion  ${pin.appVersion}`);
  out.push(
    `schema      ${pin.schema === null ? "none (values are checked for unknown keys against the defaults only)" : `${pin.schema.digest}${pin.schema.dialect ? ` (${pin.schema.dialect})` : ""}`}`,
  );
  out.push(`CRDs        ${pin.crds.length === 0 ? "none" : pin.crds.join(", ")}`);
  if (report.engineHelm !== undefined) out.push(`engine      ${report.engineHelm}`);
  out.push(`depends on  ${pin.dependencies.length === 0 ? "nothing" : pin.dependencies.map(dependencyText).join(", ")}`);
  out.push("", "hooks by stack:");
  const stacks = pin.renderedHooks ?? { templates: pin.hooks };
  for (const [stack, events] of Object.entries(stacks)) {
    const entries = Object.entries(events);
    out.push(`  ${stack}:${entries.length === 0 ? " none" : ""}`);
    for (const [event, objects] of entries)
      out.push(`    ${event}${event === "test" || event.startsWith("test-") ? " (helm test only)" : ""}: ${objects.join(", ")}`);
  }
  if (report.lifecycleHooks.length > 0 && ENGINES[engine.name].hooks === "dropped")
    out.push("", `warning: ${ENGINES[engine.name].display} never runs these hooks (dropHooks: true accepts that)`);
  const churn = Object.entries(report.churn).filter(([, objects]) => objects.length > 0);
  if (churn.length > 0) {
    out.push("", "changes on every render:");
    for (const [stack, objects] of churn) {
      for (const object of objects)
        out.push(
          `  ${stack}: ${object.object}: ${object.fields.join(", ")} → ${ENGINES[engine.name].display} ${object.step === "replace" ? "replaces it at every run (against a cluster every `pulumi up` after the first fails on it)" : "updates it at every run"}`,
        );
    }
    out.push("  pin the value in values or an existing Secret");
  }
  return out;
}

export function explainText(report: ExplainReport): string {
  return lines(report).join("\n");
}

export function explainMarkdown(report: ExplainReport): string {
  const [title = "", ...rest] = lines(report);
  return `### ${title}\n\n\`\`\`\n${rest.join("\n").trim()}\n\`\`\``;
}

function dependencyText(d: PinFacts["dependencies"][number]): string {
  if (d.vendoredVersion !== undefined) return `${d.name} ${d.vendoredVersion} (vendored; Chart.yaml asks for ${d.version})`;
  return `${d.name} ${d.version}${d.vendored ? " (vendored)" : ""}`;
}
