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
 * rendering the rest of the stack: the changed ones and the charts that
 * share a namespace with them (the rules look across charts within a
 * namespace); every chart when a CustomResourceDefinition changed (a custom
 * resource anywhere may follow it). `chartroom check` runs every chart.
 */
export function policyScope(reports: readonly ChartReport[], projects: readonly (Project | null)[]): ReadonlySet<string> | undefined {
  const changed = new Set(reports.map((report) => report.chart));
  const namespaces = new Set<string>();
  for (const report of reports) {
    for (const object of report.objects) {
      // ids are group/Kind/namespace/name
      const [group, kind, namespace = ""] = object.id.split("/");
      if (group === "apiextensions.k8s.io" && kind === "CustomResourceDefinition") return undefined;
      namespaces.add(namespace);
    }
  }
  const specs = projects.flatMap((project) => project?.config.charts ?? []);
  for (const spec of specs) if (changed.has(spec.key)) namespaces.add(spec.namespace);
  return new Set([...changed, ...specs.filter((spec) => namespaces.has(spec.namespace)).map((spec) => spec.key)]);
}

/** A chart at one side of a diff: its pin in a project (null when the project does not declare it). */
export function sideOf(project: Project, key: string): Side | null {
  const spec = project.config.charts.find((chart) => chart.key === key);
  if (spec === undefined) return null;
  return { project, spec, target: { pin: requirePin(project, spec) } };
}
