import type { ChartSpec } from "../config/types.js";
import { countActions } from "../diff/report.js";
import { ChartroomError } from "../errors/index.js";
import type { ObjectAction } from "../diff/model.js";
import { staleReasons } from "../lockfile/stale.js";
import type { PlanReport, PlanRow } from "../report/plan.js";
import { mapLimit } from "../util/pool.js";
import { outdatedRow } from "../versions/outdated.js";
import { offlineRefusal } from "../engine/offline.js";
import { archiveFor, inspectionOf } from "../project/archives.js";
import { liveReviewer } from "../project/cluster.js";
import { type CompareOptions, compareSides, versionTarget } from "../project/compare.js";
import { policyFindings, stackCharts, startPolicies } from "../project/policies.js";
import type { Project } from "../project/project.js";
import { selectCharts, sourceOf, stackName, stacksFor } from "../project/select.js";
import { movedError, resolveImages, unlockedUses } from "../project/images.js";
import type { LockedChart } from "../lockfile/schema.js";

type Live = NonNullable<CompareOptions["live"]>;

/** Options of `plan`. */
export interface PlanOptions {
  /** Chart keys; all when empty. */
  charts?: readonly string[];
  /**
   * Render the pin and the next version of each outdated chart and count what changes.
   * @default true
   */
  diff?: boolean;
  /**
   * Review each next version against each stack's own cluster too (its
   * `cluster` in the config; stacks without one are not reviewed live).
   * @default false
   */
  cluster?: boolean;
}

/**
 * `chartroom plan`: each chart's pin verified against the lock (from the
 * cache or the repository), compared with what the repository offers, and
 * for outdated charts what the next version does per stack. Problems are
 * reported per chart, not thrown.
 */
export async function plan(project: Project, options: PlanOptions = {}): Promise<PlanReport> {
  startPolicies(project);
  const charts = selectCharts(project, options.charts);
  const reviewers = new Map<string, Live>();
  if (options.cluster === true) {
    const named = stacksFor(project).filter((stack) => stack?.cluster !== undefined);
    if (named.length === 0) {
      throw new ChartroomError("USAGE", "plan --cluster reviews each stack against the cluster it names, and no stack names one", {
        hint: "set stacks.<name>.cluster: { kubeconfig, context? } in the config (or use diff --cluster --kubeconfig <file>)",
      });
    }
    for (const stack of named) if (stack !== undefined) reviewers.set(stack.name, await liveReviewer(project, [stack], {}));
  }
  let done = 0;
  const rows = await mapLimit(charts, 4, async (spec) => {
    const row = await planRow(project, spec);
    if (options.diff !== false) await addNext(project, row, spec, reviewers);
    project.progress(`[${++done}/${charts.length}] checked ${spec.key}`);
    return row;
  });
  await countFindings(project, rows);
  await recheckImages(project, rows);
  return { report: "plan", format: 1, charts: rows };
}

/**
 * Every locked image tag asked again: one that names another digest now is
 * IMAGE_MOVED on its chart, an image the lock does not record is stale, one
 * whose registry did not answer is a note.
 */
async function recheckImages(project: Project, rows: PlanRow[]): Promise<void> {
  const lock = project.lock;
  const verified = rows.filter((row) => row.verified && row.problems.length === 0);
  if (lock === null || verified.length === 0) return;
  const pins = Object.fromEntries(
    verified.flatMap((row) => (Object.hasOwn(lock.charts, row.chart) ? [[row.chart, lock.charts[row.chart] as LockedChart]] : [])),
  );
  const outcome = await resolveImages(project, pins, pins, { recheck: true });
  const byChart = new Map(verified.map((row) => [row.chart, row]));
  for (const moved of outcome.moved) byChart.get(moved.chart)?.problems.push(`IMAGE_MOVED: ${movedError(project, [moved]).message}`);
  for (const use of unlockedUses(project, lock, outcome)) byChart.get(use.chart)?.problems.push(`stale: ${use.message}`);
  for (const gap of outcome.unresolved) {
    const spec = project.config.charts.find((item) => item.key === gap.chart);
    if (spec?.pinImages === true)
      byChart.get(gap.chart)?.problems.push(`IMAGE_UNLOCKED: ${gap.image} (${gap.stack}) has no locked digest, and the chart pins its images: ${gap.why}`);
  }
  for (const gap of outcome.unchecked) {
    const row = byChart.get(gap.chart);
    if (row !== undefined) row.notes = [...(row.notes ?? []), `image ${gap.image} (${gap.stack}) not rechecked: ${gap.why}`];
  }
}

/** Policy findings of the pins, counted per chart; skipped while any chart cannot be rendered from its pin. */
async function countFindings(project: Project, rows: PlanRow[]): Promise<void> {
  if (project.config.charts.some((spec) => project.lock?.charts[spec.key] === undefined) || rows.some((row) => row.problems.length > 0)) return;
  const counts = new Map(rows.map((row) => [row.chart, { errors: 0, warnings: 0 }]));
  for (const stack of stacksFor(project)) {
    for (const found of await policyFindings(project, stack, await stackCharts(project, stack))) {
      const count = counts.get(found.chart);
      if (count === undefined) continue;
      if (found.severity === "error") count.errors++;
      if (found.severity === "warning") count.warnings++;
    }
  }
  for (const row of rows) row.findings = counts.get(row.chart);
}

async function planRow(project: Project, spec: ChartSpec): Promise<PlanRow> {
  const pin = project.lock?.charts[spec.key];
  const row: PlanRow = { chart: spec.key, namespace: spec.namespace, range: spec.range, verified: false, problems: [] };
  if (pin === undefined) {
    row.problems.push("not locked: run `chartroom lock`");
    return row;
  }
  Object.assign(row, { pinned: pin.version, digest: pin.digest, engine: pin.engine.name });
  row.problems.push(...staleReasons(spec, pin).map((reason) => `stale: ${reason}`));
  try {
    const versions = await sourceOf(project, spec).listVersions(spec.chart);
    row.outdated = outdatedRow(spec, pin, versions);
    const archive = await archiveFor(project, spec, { pin }, versions);
    row.verified = true;
    const offline = offlineRefusal(pin.engine.name, (await inspectionOf(project, archive, spec.key)).kubeVersion);
    if (offline !== undefined) row.notes = [offline];
  } catch (error) {
    if (!ChartroomError.isInstance(error)) throw error;
    row.problems.push(`${error.code}: ${error.message}`);
  }
  return row;
}

async function addNext(project: Project, row: PlanRow, spec: ChartSpec, reviewers: ReadonlyMap<string, Live>): Promise<void> {
  const outdated = row.outdated;
  const pin = project.lock?.charts[spec.key];
  if (!row.verified || outdated === undefined || pin === undefined) return;
  const next = [outdated.wanted, outdated.latest].find((version) => version !== undefined && version !== pin.version);
  if (next === undefined) return;
  try {
    const version = await versionTarget(project, spec, next);
    const stacks: Record<string, Record<ObjectAction, number>> = {};
    const contract: Record<string, number> = {};
    const live: NonNullable<NonNullable<PlanRow["next"]>["live"]> = {};
    for (const stack of stacksFor(project)) {
      const reviewer = reviewers.get(stackName(stack));
      const report = await compareSides({ project, spec, target: { pin } }, { project, spec, target: { version } }, stack, {
        showSecrets: false,
        showBookkeeping: false,
        ...(reviewer === undefined ? {} : { live: reviewer }),
      });
      stacks[stackName(stack)] = countActions(report);
      contract[stackName(stack)] = report.contract.filter((change) => change.kind !== "default").length;
      if (report.live !== undefined) live[stackName(stack)] = Object.fromEntries(Object.entries(report.live.counts).filter(([outcome]) => outcome !== "same"));
    }
    row.next = { version: next, stacks, contract, ...(Object.keys(live).length === 0 ? {} : { live }) };
  } catch (error) {
    if (!ChartroomError.isInstance(error)) throw error;
    row.problems.push(`rendering ${next}: ${error.code}: ${error.message}`);
  }
}
