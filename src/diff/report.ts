import { displayName, stableDisplayName, type RenderedObject } from "../model/objects.js";
import { hitsForceNew, pulumiForceNew } from "../engine/force-new.js";
import { ENGINES, moveAcross } from "../engine/records.js";
import type { EngineName } from "../model/engine.js";
import type { Finding } from "../model/findings.js";
import {
  type ChartReport,
  type DiffReport,
  type EngineStep,
  LIVE_FAILURES,
  type LiveSection,
  type ObjectAction,
  type ObjectReport,
  type ReportedChange,
  type SchemaSummary,
} from "./model.js";
import { isRecord } from "../util/json.js";
import { parsePath } from "../util/tree-path.js";
import { alignGenerated, diffObjects } from "./objects.js";
import { imageChanges } from "./images.js";
import type { ImageField } from "../images/extract.js";
import { byText } from "../util/order.js";

export interface ChartSide {
  version: string;
  objects: RenderedObject[];
  /** `id path` of fields that change on every render of this side. */
  unstable: ReadonlySet<string>;
  /** The digests locked for this side's image references. */
  digests?: ReadonlyMap<string, string>;
}

export interface ReportOptions {
  showSecrets: boolean;
  showBookkeeping: boolean;
  /** Every field of a CRD's schema change, not the counts per version. */
  showSchemaFields?: boolean;
  /** Lines of context around each change of a long value (a multi-line string, JSON in a string, a list of scalars). @default 3 */
  context?: number;
}

/**
 * One chart and stack: the objects each side renders, compared, with noise
 * folded: bookkeeping changes collapsed to one line (unless asked), changes
 * that happen on every render kept but marked.
 */
export function chartReport(
  meta: { chart: string; stack: string; engine: EngineName; offline?: boolean; imageFields?: readonly ImageField[] },
  before: ChartSide | null,
  after: ChartSide | null,
  options: ReportOptions,
): ChartReport {
  // Noise only where both sides churn: a random value that is now pinned (or
  // a pinned one that is now random) is a real change, made once.
  const unstable = before === null || after === null ? new Set<string>() : new Set([...before.unstable].filter((entry) => after.unstable.has(entry)));
  // What the engine never creates is listed apart, not diffed as deployed.
  const deployed = (object: RenderedObject) => notDeployed(meta.engine, object) === undefined;
  const all = diffObjects((before?.objects ?? []).filter(deployed), (after?.objects ?? []).filter(deployed), {
    unstable,
    showSecrets: options.showSecrets,
    engine: meta.engine,
    offline: meta.offline,
    ...(options.context === undefined ? {} : { context: options.context }),
  });
  const apart = apartObjects(meta.engine, before?.objects ?? [], after?.objects ?? []);
  const bookkeepingFields = new Set<string>();
  let bookkeepingObjects = 0;
  const objects: ObjectReport[] = [];
  for (const report of all) {
    const hidden = report.changes.filter((change) => change.tags.includes("bookkeeping"));
    for (const change of hidden) bookkeepingFields.add(change.path.replace(/^.*?(labels|annotations)/, "$1"));
    const rest = options.showBookkeeping ? report.changes : report.changes.filter((change) => !change.tags.includes("bookkeeping"));
    if (hidden.length > 0 && (!options.showBookkeeping || hidden.length === report.changes.length)) bookkeepingObjects++;
    if (rest.length === 0 && (report.action === "update" || report.action === "replace")) continue;
    // helm upgrade installs crds/ once and never changes them.
    const step = ENGINES[meta.engine].crdsOnUpgrade === "skipped" && isFromCrdsFolder(report.source) ? "skipped" : report.step;
    const summarised = options.showSchemaFields === true ? undefined : summariseSchema(report, rest, after?.objects ?? before?.objects ?? []);
    objects.push(summarised === undefined ? { ...report, changes: rest, step } : { ...report, ...summarised, step });
  }
  const names = new Map([...(before?.objects ?? []), ...(after?.objects ?? [])].map((object) => [object.id, displayName(object)]));
  const unstablePaths = [...unstable]
    .map((entry) => {
      const [id = "", ...path] = entry.split(" ");
      return `${names.get(id) ?? id}: ${path.join(" ")}`;
    })
    .sort();
  return {
    chart: meta.chart,
    stack: meta.stack,
    engine: meta.engine,
    from: before === null ? null : { version: before.version },
    to: after === null ? null : { version: after.version },
    objects,
    apart,
    bookkeeping: { objects: bookkeepingObjects, fields: [...bookkeepingFields].sort() },
    unstable: {
      objects: new Set([...unstable].map((entry) => entry.split(" ")[0])).size,
      paths: unstablePaths,
      ...churnOf(meta.engine, meta.offline === true, churn(meta.engine, unstable, after?.objects ?? [])),
    },
    contract: [],
    images: imageChanges(before, after, meta.imageFields),
    findings: { added: [], resolved: [] },
    notes: [],
  };
}

/**
 * What the engine does at every run to the objects with fields that differ
 * at each render, changed or not in this diff: the engine renders again and
 * sees them change. Under helm.v4.Chart a random Secret value replaces the
 * Secret at every `pulumi up` (and against a cluster that replacement fails).
 */
function churn(engine: EngineName, unstable: ReadonlySet<string>, objects: readonly RenderedObject[]): { id: string; display: string; step: EngineStep }[] {
  const byId = new Map(objects.map((object) => [object.id, object]));
  const steps = new Map<string, EngineStep>();
  for (const entry of unstable) {
    const [id = "", ...rest] = entry.split(" ");
    const object = byId.get(id);
    if (object === undefined) continue;
    const replaces = ENGINES[engine].replacesOnForceNew && hitsForceNew(parsePath(rest.join(" ")), pulumiForceNew(object)) !== undefined;
    if (replaces || !steps.has(id)) steps.set(id, replaces ? "replace" : "update");
  }
  return [...steps].map(([id, step]) => ({ id, display: displayName(byId.get(id) as RenderedObject), step })).sort((a, b) => byText(a.id, b.id));
}

/** The churn, with what the engine's runs do about the objects it replaces. */
function churnOf(
  engine: EngineName,
  offline: boolean,
  items: { id: string; display: string; step: EngineStep }[],
): Pick<ChartReport["unstable"], "churn" | "consequence"> {
  const replaced = items.filter((item) => item.step === "replace").map((item) => item.display);
  const everyRun = ENGINES[engine].everyRun;
  return replaced.length === 0 || everyRun === undefined ? { churn: items } : { churn: items, consequence: everyRun(replaced.join(", "), offline) };
}

/** Why the engine never creates an object, if it does not. */
export function notDeployed(engine: EngineName, object: Pick<RenderedObject, "hook">): string | undefined {
  if (object.hook === undefined) return undefined;
  const record = ENGINES[engine];
  if (record.hooks === "dropped")
    return object.hook.test ? `a test hook: ${record.display} drops every hook` : `a ${object.hook.events.join(",")} hook: ${record.display} drops every hook`;
  return object.hook.test ? "a test hook: only `helm test` creates it" : undefined;
}

/** `<chart>/crds/…` (or a subchart's): Helm installs these once and `helm upgrade` never changes them. */
export function isFromCrdsFolder(source: string | undefined): boolean {
  return source !== undefined && /(^|\/)crds\//.test(source) && !/\/templates\//.test(source);
}

function apartObjects(engine: EngineName, before: readonly RenderedObject[], given: readonly RenderedObject[]): ChartReport["apart"] {
  // A test Pod named at random on every render is the same Pod on both sides.
  const after = alignGenerated(before, given);
  const old = new Map(before.map((object) => [object.id, object]));
  const next = new Map(after.map((object) => [object.id, object]));
  const out: ChartReport["apart"] = [];
  for (const id of [...new Set([...old.keys(), ...next.keys()])].sort()) {
    const object = (next.get(id) ?? old.get(id)) as RenderedObject;
    const reason = notDeployed(engine, object);
    if (reason === undefined) continue;
    const change = !old.has(id)
      ? "add"
      : !next.has(id)
        ? "delete"
        : JSON.stringify(old.get(id)?.body) === JSON.stringify(next.get(id)?.body)
          ? "same"
          : "update";
    out.push({ id, display: stableDisplayName(object), reason, change });
  }
  return out;
}

/** Whether an object counts toward "something changed". */
export function isReal(object: ObjectReport): boolean {
  if (object.action !== "update" || (object.schemaChanges?.length ?? 0) > 0) return true;
  return object.changes.some((change) => !change.tags.includes("unstable") && !change.tags.includes("bookkeeping"));
}

/** An update whose only changes are the labels and annotations every chart version rewrites. */
export function isBookkeepingOnly(object: ObjectReport): boolean {
  return object.action === "update" && object.changes.length > 0 && object.changes.every((change) => change.tags.includes("bookkeeping"));
}

export function diffReport(charts: ChartReport[], unchanged = 0): DiffReport {
  const summary: DiffReport["summary"] = {
    charts: charts.length,
    add: 0,
    delete: 0,
    update: 0,
    replace: 0,
    rename: 0,
    bookkeeping: 0,
    unstable: 0,
    contract: 0,
    findingsAdded: 0,
    findingsResolved: 0,
    unchanged,
  };
  for (const chart of charts) {
    summary.bookkeeping += chart.bookkeeping.objects;
    summary.contract += chart.contract.filter(countsAsChange).length;
    summary.findingsAdded += chart.findings.added.filter((found) => found.severity !== "info").length;
    summary.findingsResolved += chart.findings.resolved.filter((found) => found.severity !== "info").length;
    for (const object of chart.objects) {
      if (isReal(object)) summary[object.action as ObjectAction]++;
      else if (!isBookkeepingOnly(object)) summary.unstable++;
    }
  }
  const changed = charts.some(
    (chart) =>
      chart.objects.some(isReal) ||
      chart.contract.some(countsAsChange) ||
      chart.findings.added.some((found) => found.severity === "error") ||
      (chart.live?.objects.length ?? 0) > 0 ||
      liveStops(chart.live),
  );
  return { report: "diff", format: 2, charts, summary, changed };
}

/** The live review found what the deploy would stop on: a failing outcome, a pod stuck where the engine waits, a right the identity lacks. */
export function liveStops(live: LiveSection | undefined): boolean {
  if (live === undefined) return false;
  return (
    live.objects.some((object) => LIVE_FAILURES.includes(object.outcome)) ||
    live.awaits?.some((awaited) => awaited.failing !== undefined) === true ||
    live.missingRights !== undefined
  );
}

/** A changed default of a key the platform does not set is information, not a finding. */
function countsAsChange(change: { kind: string }): boolean {
  return change.kind !== "default";
}

/** Counted changes of one chart report (noise left out), for one-line summaries. */
export function countActions(chart: ChartReport): Record<ObjectAction, number> {
  const counts: Record<ObjectAction, number> = { add: 0, delete: 0, update: 0, replace: 0, rename: 0 };
  for (const object of chart.objects) if (isReal(object)) counts[object.action]++;
  return counts;
}

export function describeCounts(counts: Record<ObjectAction, number>): string {
  const words: Record<ObjectAction, string> = { add: "added", delete: "deleted", update: "updated", replace: "replaced", rename: "renamed" };
  const parts = (Object.keys(words) as ObjectAction[]).filter((action) => counts[action] > 0).map((action) => `${counts[action]} ${words[action]}`);
  return parts.length === 0 ? "no object changes" : parts.join(", ");
}

/** A finding's identity across the two sides of a change (its message may mention what changed). */
export function findingKey(found: Finding): string {
  return [found.rule, found.chart, found.stack, found.object ?? "", found.path ?? ""].join("\u0000");
}

/** Put each side's policy findings on the chart reports: what the change adds and resolves. */
export function attachFindings(charts: ChartReport[], before: readonly Finding[], after: readonly Finding[]): void {
  const was = new Set(before.map(findingKey));
  const now = new Set(after.map(findingKey));
  const reported = new Set(charts.map((chart) => `${chart.chart}\u0000${chart.stack}`));
  // A chart the change did not touch can still gain or lose findings (a CRD it uses changed):
  // those go with the first changed chart of its stack, naming their own chart.
  const home = (found: Finding) =>
    reported.has(`${found.chart}\u0000${found.stack}`) ? found.chart : charts.find((chart) => chart.stack === found.stack)?.chart;
  for (const chart of charts) {
    const mine = (found: Finding) => found.stack === chart.stack && home(found) === chart.chart;
    chart.findings = {
      added: after.filter((found) => mine(found) && !was.has(findingKey(found))),
      resolved: before.filter((found) => mine(found) && !now.has(findingKey(found))),
    };
  }
}

// A CRD schema change of more fields than this is counted, not listed.
const SCHEMA_FIELDS_LISTED = 12;
const SCHEMA_PATH = /^(spec\.versions\[(\d+)\]\.schema\.openAPIV3Schema)\./;

/**
 * An operator upgrade rewrites thousands of fields of its CRDs' schemas
 * (mostly descriptions): listed one by one they bury the rest of the
 * review and cost more to format than to compute. Each version's schema
 * changes become one line of counts.
 */
function summariseSchema(
  report: ObjectReport,
  changes: ReportedChange[],
  objects: readonly RenderedObject[],
): Pick<ObjectReport, "changes" | "schemaChanges"> | undefined {
  if (!report.id.startsWith("apiextensions.k8s.io/CustomResourceDefinition/")) return undefined;
  const groups = new Map<string, ReportedChange[]>();
  for (const change of changes) {
    const path = SCHEMA_PATH.exec(change.path)?.[1];
    if (path === undefined) continue;
    const group = groups.get(path);
    if (group === undefined) groups.set(path, [change]);
    else group.push(change);
  }
  const large = [...groups].filter(([, group]) => group.length > SCHEMA_FIELDS_LISTED);
  if (large.length === 0) return undefined;
  const versions = objects.find((object) => object.id === report.id)?.body.spec;
  const nameOf = (path: string) => {
    const index = Number(SCHEMA_PATH.exec(`${path}.`)?.[2]);
    const entry = isRecord(versions) && Array.isArray(versions.versions) ? (versions.versions[index] as unknown) : undefined;
    return isRecord(entry) && typeof entry.name === "string" ? entry.name : `#${index}`;
  };
  const summarised = new Set(large.flatMap(([, group]) => group));
  return {
    changes: changes.filter((change) => !summarised.has(change)),
    schemaChanges: large.map(([path, group]) => ({
      path,
      version: nameOf(path),
      added: group.filter((change) => change.op === "add").length,
      removed: group.filter((change) => change.op === "remove").length,
      changed: group.filter((change) => change.op === "change" || change.op === "reorder").length,
      descriptions: group.filter((change) => change.path.endsWith(".description")).length,
    })),
  };
}

/** `spec.versions[0] (v1) schema: 1204 fields changed (1100 descriptions), 41 added, 3 removed` */
export function describeSchemaChanges(summary: SchemaSummary): string {
  const parts = [
    summary.changed > 0 ? `${summary.changed} field(s) changed` : "",
    summary.added > 0 ? `${summary.added} added` : "",
    summary.removed > 0 ? `${summary.removed} removed` : "",
  ].filter((part) => part !== "");
  const descriptions = summary.descriptions > 0 ? ` (${summary.descriptions} of them descriptions)` : "";
  return `${summary.path} (${summary.version}): ${parts.join(", ")}${descriptions}; --show-schema-fields lists them`;
}

/**
 * Objects that leave one chart of a stack and arrive in another (the chart's
 * key renamed, a component moved between charts): to Kubernetes the same
 * object, to the engines a new owner. Each side gets `moved` with what its
 * engine does; reports of several stacks are matched within each stack.
 */
export function markMoves(reports: readonly ChartReport[]): void {
  const deleted = new Map<string, { chart: ChartReport; object: ObjectReport }>();
  for (const chart of reports)
    for (const object of chart.objects) if (object.action === "delete") deleted.set(`${chart.stack} ${object.id}`, { chart, object });
  for (const chart of reports) {
    for (const object of chart.objects) {
      const from = object.action === "add" ? deleted.get(`${chart.stack} ${object.id}`) : undefined;
      if (from === undefined || from.chart === chart) continue;
      const moved = { from: from.chart.chart, to: chart.chart, consequence: moveConsequence(from.chart.engine, chart.engine, from.chart.chart, chart.chart) };
      object.moved = moved;
      from.object.moved = moved;
    }
  }
}

function moveConsequence(before: EngineName, after: EngineName, from: string, to: string): string {
  return before === after ? ENGINES[before].moveWithin(from, to) : moveAcross(before, after, from);
}
