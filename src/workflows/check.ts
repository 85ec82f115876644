import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { CheckReport } from "../report/check.js";
import { mapLimit } from "../util/pool.js";
import { checkValues, type ValuesFinding } from "../values/check.js";
import { readValuesLayers } from "../values/layers.js";
import { SchemaCache } from "../values/schema.js";
import { contractFor } from "./archives.js";
import type { Project } from "./project.js";
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
}

export async function check(project: Project, options: CheckOptions = {}): Promise<CheckReport> {
  const schemas = new SchemaCache();
  const charts = selectCharts(project, options.charts);
  const stacks = stacksFor(project, options.stack);
  const results = await mapLimit(charts, 8, async (spec) => {
    const contract = await contractFor(project, spec, { pin: requirePin(project, spec) });
    const found: ValuesFinding[] = [];
    for (const stack of stacks) {
      const layers = await readValuesLayers(project.config.dir, spec.key, stack?.name);
      found.push(...checkValues({ chart: spec.key, stack: stackName(stack), contract, layers, schemas }).findings);
    }
    project.progress(`checked ${spec.key}`);
    return found;
  });
  const findings = [...(await orphanedValues(project)), ...results.flat()];
  return { report: "check", format: 1, checked: charts.length * stacks.length, findings, failed: findings.some((found) => found.severity === "error") };
}

/**
 * Values files no declared chart or stack reads: a folder for an undeclared
 * chart, `values/web/production.yaml` when the stack is `prod`. Helm never
 * sees them, so a change there would pass review and change nothing.
 */
async function orphanedValues(project: Project): Promise<ValuesFinding[]> {
  const root = join(project.config.dir, "values");
  const charts = new Set(project.config.charts.map((spec) => spec.key));
  const stacks = new Set(project.config.stacks.map((stack) => stack.name));
  const out: ValuesFinding[] = [];
  const unread = (chart: string, path: string, message: string, hint: string): ValuesFinding => ({ chart, stack: "*", severity: "error", rule: "values-file-unread", path, message, hint, position: { file: path, line: 1, column: 1 } });
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
