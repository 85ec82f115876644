// What chartroom's diff predicts the engine does to each child of a
// helm.v4.Chart, keyed as `chart Kind.group namespace/name`, beside the
// same key for a step of `pulumi preview --json`: the two compared are the
// promise that the review is the deploy.
import type { DiffReport, EngineStep } from "../../src/diff/model.js";
import type { ExampleProject, PreviewStep } from "./engine.js";

/** Pulumi's op for each of chartroom's steps (a recreated child is a new URN; the old one's delete is not counted here). */
export const OP: Record<EngineStep, string> = {
  create: "create",
  update: "update",
  replace: "replace",
  delete: "delete",
  recreate: "create",
  fails: "update",
  skipped: "same",
  same: "same",
};

/**
 * Run `chartroom diff` for each chart (to `to[chart]`, with more values
 * files in `values[chart]`) and collect the op each object and each
 * every-render churn gets, with the reports themselves.
 */
export async function predictSteps(
  project: ExampleProject,
  stack: string,
  targets: { chart: string; to: string; values?: string[] }[],
): Promise<{ predicted: Map<string, string>; reports: DiffReport[] }> {
  const predicted = new Map<string, string>();
  const reports: DiffReport[] = [];
  for (const { chart, to, values = [] } of targets) {
    const diff = await project.chartroom([
      "diff",
      chart,
      "--to",
      to,
      "--stack",
      stack,
      "--show-bookkeeping",
      "--format",
      "json",
      ...values.flatMap((file) => ["-f", file]),
    ]);
    if (diff.code === 1) throw new Error(`chartroom diff ${chart} failed:\n${diff.stderr}`);
    const report = JSON.parse(diff.stdout) as DiffReport;
    reports.push(report);
    for (const charted of report.charts) {
      for (const churn of charted.unstable.churn) predicted.set(`${chart} ${churn.display}`, OP[churn.step]);
      for (const object of charted.objects) predicted.set(`${chart} ${object.display}`, OP[object.step]);
    }
  }
  return { predicted, reports };
}

/** `chart Kind.group namespace/name` from a child's URN type and name. */
export function displayOfStep(step: PreviewStep): string {
  const [, apiVersion = "", kind = ""] = step.type.split(":");
  const group = apiVersion.startsWith("core/") ? "" : apiVersion.split("/")[0];
  const [chart = "", where = ""] = step.name.split(/:(.*)/s);
  return `${chart} ${kind}${group === "" || group === undefined ? "" : `.${group}`} ${where}`;
}
