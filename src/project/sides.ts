import { availableParallelism } from "node:os";
import type { StackSpec } from "../config/types.js";
import type { ChartReport } from "../diff/model.js";
import type { Side } from "./compare.js";
import type { Project } from "./project.js";
import { renderInputsKey } from "./rendering.js";
import { requirePin } from "./select.js";

/** Whether both sides render from the same inputs (so the same objects): such a pair is not rendered. */
export async function sameInputs(
  before: Side | null,
  after: Side | null,
  beforeStack: StackSpec | undefined,
  afterStack: StackSpec | undefined,
): Promise<boolean> {
  // A post-renderer is a program whose bytes the key does not hold: always compared.
  if (before === null || after === null || before.spec.postRenderer !== undefined || after.spec.postRenderer !== undefined) return false;
  const [was, now] = await Promise.all([
    renderInputsKey(before.project, { spec: before.spec, stack: beforeStack, target: before.target }),
    renderInputsKey(after.project, { spec: after.spec, stack: afterStack, target: after.target }),
  ]);
  return was !== undefined && was === now;
}

/** Renders at once: one per core, at least two (helm waits on the disk as much as on the CPU). */
export function renderPool(): number {
  return Math.max(2, availableParallelism());
}

/**
 * The charts whose policy findings a change can move, found without
 * rendering the rest of the stack: the changed ones, the charts that share a
 * namespace with them (the rules look across charts within a namespace),
 * and when a CustomResourceDefinition changed, the charts whose custom
 * resources belong to its group, as the lock records them per stack (a
 * chart whose pin records none is taken too). `chartroom check` runs every
 * chart.
 */
export function policyScope(reports: readonly ChartReport[], projects: readonly (Project | null)[], stack: string): ReadonlySet<string> {
  const changed = new Set(reports.map((report) => report.chart));
  const namespaces = new Set<string>();
  const groups = new Set<string>();
  for (const report of reports) {
    for (const object of report.objects) {
      // ids are group/Kind/namespace/name; a CRD is named <plural>.<group>.
      const [group, kind, namespace = "", name = ""] = object.id.split("/");
      if (group === "apiextensions.k8s.io" && kind === "CustomResourceDefinition") groups.add(name.slice(name.indexOf(".") + 1));
      namespaces.add(namespace);
    }
  }
  const specs = projects.flatMap((project) => project?.config.charts ?? []);
  for (const spec of specs) if (changed.has(spec.key)) namespaces.add(spec.namespace);
  const rendersGroup = (key: string) =>
    projects.some((project) => {
      const recorded = project?.lock?.charts[key]?.customResourceGroups?.[stack];
      return project?.config.charts.some((spec) => spec.key === key) === true && (recorded === undefined || recorded.some((group) => groups.has(group)));
    });
  const inScope = (key: string, namespace: string) => changed.has(key) || namespaces.has(namespace) || (groups.size > 0 && rendersGroup(key));
  return new Set(specs.filter((spec) => inScope(spec.key, spec.namespace)).map((spec) => spec.key));
}

/** A chart at one side of a diff: its pin in a project (null when the project does not declare it). */
export function sideOf(project: Project, key: string): Side | null {
  const spec = project.config.charts.find((chart) => chart.key === key);
  if (spec === undefined) return null;
  return { project, spec, target: { pin: requirePin(project, spec) } };
}
