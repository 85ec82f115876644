import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { ChartroomError } from "../errors/index.js";
import type { Finding } from "../model/findings.js";
import type { CheckReport } from "../report/check.js";
import { mapLimit } from "../util/pool.js";
import { checkValues, type ValuesFinding } from "../values/check.js";
import { SchemaCache } from "../values/schema.js";
import { offlineRefusal } from "../engine/offline.js";
import { archiveFor, contractFor, inspectionOf } from "./archives.js";
import { policyChart, policyFindings, startPolicies } from "./policies.js";
import { type Project, valuesLayers } from "./project.js";
import type { StackSpec } from "../config/types.js";
import { requirePin, selectCharts, stackName, stacksFor } from "./select.js";

/**
 * `chartroom check`: coalesce each chart's defaults with the platform's
 * values files as Helm does, validate against the pinned version's schema,
 * find keys the chart does not know, and values files nothing reads.
 */
export interface CheckOptions {
  /** Chart keys; all when empty. */
  charts?: readonly string[];
  /** One stack; every declared stack when absent. */
  stack?: string;
  /**
   * Values files nothing reads are errors (else warnings).
   * @default false
   */
  strict?: boolean;
}

export async function check(project: Project, options: CheckOptions = {}): Promise<CheckReport> {
  startPolicies(project);
  const schemas = new SchemaCache();
  const charts = selectCharts(project, options.charts);
  const stacks = stacksFor(project, options.stack);
  const values = await mapLimit(charts, 8, async (spec) => {
    const pin = requirePin(project, spec);
    const contract = await contractFor(project, spec, { pin });
    const found: ValuesFinding[] = [];
    const offline = offlineRefusal(pin.engine.name, (await inspectionOf(project, await archiveFor(project, spec, { pin }), spec.key)).kubeVersion);
    // Information for every stack: an error where the stack is declared offline (its render fails then).
    if (offline !== undefined) found.push({ chart: spec.key, stack: "*", severity: "info", rule: "engine-offline", path: "Chart.yaml#kubeVersion", message: offline, hint: "deploy it with a provider that reaches the cluster, or pin a version that accepts v1.20" });
    for (const stack of stacks) {
      const layers = await valuesLayers(project, spec.key, stack?.name);
      found.push(...checkValues({ chart: spec.key, stack: stackName(stack), contract, layers, schemas }).findings);
    }
    project.progress(`checked ${spec.key}`);
    return found;
  });
  // Policies see every chart of a stack together; findings are kept for the charts asked about.
  const keys = new Set(charts.map((spec) => spec.key));
  const policies: Finding[] = [];
  for (const stack of stacks) {
    project.progress(`policies for stack ${stackName(stack)}`);
    policies.push(...(await stackPolicies(project, stack)).filter((found) => keys.has(found.chart)));
  }
  const findings: Finding[] = [...(await orphanedValues(project, options.strict === true ? "error" : "warning")), ...values.flat(), ...policies];
  return { report: "check", format: 1, checked: charts.length * stacks.length, findings, failed: findings.some((found) => found.severity === "error") };
}

/**
 * The stack's charts rendered for the rules. A chart helm refuses to render
 * (values that break its schema, a template's `fail`) is a finding, not a
 * crash; the stack's rules then do not run, since a rule missing one chart's
 * objects would report false findings on the others.
 */
async function stackPolicies(project: Project, stack: StackSpec | undefined): Promise<Finding[]> {
  const name = stackName(stack);
  const rendered = await mapLimit(project.config.charts, 8, (spec) =>
    policyChart(project, spec, stack).then(
      (chart) => ({ chart }),
      (error: unknown) => {
        if (ChartroomError.isInstance(error) && error.code === "HELM_FAILED") return { failed: { key: spec.key, error } };
        throw error;
      },
    ),
  );
  const failed = rendered.flatMap((item) => ("failed" in item ? [item.failed] : []));
  if (failed.length === 0) return policyFindings(project, stack, rendered.flatMap((item) => ("chart" in item ? [item.chart] : [])));
  return failed.map(({ key, error }): Finding => ({
    rule: "render-failed",
    severity: "error",
    chart: key,
    stack: name,
    message: `${[error.message.replace(/:$/, ""), ...helmSays(error)].join(": ")}; the policies of stack ${name} wait until every chart renders`,
    hint: `fix what helm names (\`chartroom render ${key} --stack ${name}\` shows all of it)`,
  }));
}


/** What helm said, in a few lines: enough to see why; `chartroom render` shows it all. */
function helmSays(error: ChartroomError): string[] {
  const said = error.details.filter((line) => line.startsWith("helm: ")).map((line) => line.slice("helm: ".length).trim());
  return said.length === 0 ? [] : [said.slice(0, 4).join(" ")];
}

/**
 * Values files no declared chart or stack reads: a folder for an undeclared
 * chart, `values/web/production.yaml` when the stack is `prod`. Helm never
 * sees them, so a change there would pass review and change nothing.
 */
async function orphanedValues(project: Project, severity: "error" | "warning"): Promise<ValuesFinding[]> {
  const root = join(project.config.dir, "values");
  const charts = new Set(project.config.charts.map((spec) => spec.key));
  const stacks = new Set(project.config.stacks.map((stack) => stack.name));
  const out: ValuesFinding[] = [];
  const unread = (chart: string, path: string, message: string, hint: string): ValuesFinding => ({ chart, stack: "*", severity, rule: "values-file-unread", path, message, hint, position: { file: path, line: 1, column: 1 } });
  const folders = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of folders) {
    if (!entry.isDirectory()) {
      if (/\.ya?ml$/.test(entry.name)) out.push(unread(entry.name.replace(/\.ya?ml$/, ""), `values/${entry.name}`, "a values file must be in the chart's folder: nothing reads this one", `move it to values/<chart>/values.yaml`));
      continue;
    }
    const files = (await readdir(join(root, entry.name), { withFileTypes: true })).filter((file) => file.isFile() && /\.ya?ml$/.test(file.name));
    for (const file of files) {
      const path = `values/${entry.name}/${file.name}`;
      const stack = file.name.replace(/\.ya?ml$/, "");
      if (!charts.has(entry.name)) out.push(unread(entry.name, path, `values/${entry.name}/ belongs to no declared chart: nothing reads it`, `declared charts: ${[...charts].join(", ")}`));
      else if (file.name.endsWith(".yml")) out.push(unread(entry.name, path, "chartroom reads .yaml files, not .yml: nothing reads this one", `rename it to values/${entry.name}/${stack}.yaml`));
      else if (stack !== "values" && !stacks.has(stack)) out.push(unread(entry.name, path, `no stack is called "${stack}": nothing reads this file`, `declared stacks: ${[...stacks].join(", ") || "(none)"}`));
    }
  }
  return out;
}
