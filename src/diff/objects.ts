import { displayName, namedAs, templateSlot, type RenderedObject } from "../model/objects.js";
import { pairBySlot } from "../util/pairs.js";
import { hitsImmutable, immutablePrefixes, isBookkeeping, isSecret, leaves } from "./classify.js";
import { hitsForceNew, pulumiForceNew } from "../engine/force-new.js";
import { consequences, ENGINES } from "../engine/records.js";
import { engineStep } from "../engine/steps.js";
import type { EngineName } from "../model/engine.js";
import type { ChangeTag, EngineStep, ObjectReport, ReportedChange } from "./model.js";
import { formatPath, startsWith } from "../util/tree-path.js";
import { isSecretValuePath, maskSecretBody, maskSecretChange, unchangedSecretValues } from "./secrets.js";
import { diffValues, type FieldChange } from "../util/tree.js";
import { providerFields } from "./provider-view.js";
import { byText } from "../util/order.js";
import { lineDiff } from "./lines.js";

export interface DiffOptions {
  /** `id path` strings that change between two renders of the same inputs. */
  unstable: ReadonlySet<string>;
  showSecrets: boolean;
  /** The chart's engine: it decides which changes replace an object. */
  engine: EngineName;
  /** The stack is deployed without a cluster (renderYamlToDirectory): replacements run create-first. */
  offline?: boolean;
  /** Lines of context around each change of a long value shown line by line. @default 3 */
  context?: number;
}

const RENAME_SIMILARITY = 0.7;

/** Per-object differences between two renders, before noise is folded away. */
export function diffObjects(before: readonly RenderedObject[], given: readonly RenderedObject[], options: DiffOptions): ObjectReport[] {
  const after = alignGenerated(before, given);
  const old = new Map(before.map((object) => [object.id, object]));
  const next = new Map(after.map((object) => [object.id, object]));
  const reports: ObjectReport[] = [];
  for (const object of after) {
    const previous = old.get(object.id);
    if (previous !== undefined) {
      const report = compare(previous, object, options);
      if (report !== undefined) reports.push(report);
    }
  }
  const added = after.filter((object) => !old.has(object.id));
  const deleted = before.filter((object) => !next.has(object.id));
  const renamed = pairRenames(deleted, added);
  for (const [from, to] of renamed) {
    // Created anew under its new name: nothing of it is replaced in place.
    const { replacement: _replaced, ...report } = compare(from, to, options) ?? base(to, "update", "same");
    reports.push({ ...report, action: "rename", step: "recreate", renamedFrom: { id: from.id, display: displayName(from) } });
  }
  const paired = new Set([...renamed].flatMap(([from, to]) => [from.id, to.id]));
  for (const object of added) if (!paired.has(object.id)) reports.push({ ...base(object, "add", "create"), body: safeBody(object, options) });
  for (const object of deleted) if (!paired.has(object.id)) reports.push({ ...base(object, "delete", "delete"), body: safeBody(object, options) });
  return reports.sort((a, b) => byText(a.id, b.id));
}

/**
 * An object whose name is random on every render (a test Pod named with
 * randAlphaNum) is the same object on both sides when its kind, namespace,
 * template and name pattern are: the after side takes the before side's
 * name, so it is compared, not reported as renamed.
 */
export function alignGenerated(before: readonly RenderedObject[], after: readonly RenderedObject[]): readonly RenderedObject[] {
  const lonely = (list: readonly RenderedObject[], other: readonly RenderedObject[]) => {
    const ids = new Set(other.map((object) => object.id));
    return list.filter((object) => object.generatedName !== undefined && !ids.has(object.id));
  };
  const twins = pairBySlot(lonely(after, before), lonely(before, after), (object) => `${templateSlot(object)} ${object.generatedName ?? ""}`);
  if (twins.size === 0) return after;
  return after.map((object) => {
    const twin = twins.get(object);
    return twin === undefined ? object : namedAs(object, twin);
  });
}

function base(object: RenderedObject, action: ObjectReport["action"], step: EngineStep): ObjectReport {
  const report: ObjectReport = { id: object.id, display: displayName(object), action, step, apiVersion: object.apiVersion, changes: [] };
  if (object.source !== undefined) report.source = object.source;
  if (object.hook !== undefined) report.hook = object.hook;
  return report;
}

function safeBody(object: RenderedObject, options: DiffOptions): Record<string, unknown> {
  return isSecret(object) && !options.showSecrets ? maskSecretBody(object.body) : object.body;
}

function compare(before: RenderedObject, after: RenderedObject, options: DiffOptions): ObjectReport | undefined {
  // As the engine sends them: a null (or, for built-in kinds, an empty map or list) is no field at all.
  const raw = diffValues(before.body, after.body, providerFields(after)).filter((change) => !isName(change));
  if (raw.length === 0) return undefined;
  // Helm creates hook objects anew on each run (their delete policy removes
  // the old one), so an immutable field on a hook is not a replacement.
  const prefixes = after.hook === undefined ? immutablePrefixes(before, after) : [];
  const forceNew = after.hook === undefined && ENGINES[options.engine].replacesOnForceNew ? pulumiForceNew(after) : [];
  const secret = isSecret(after) && !options.showSecrets;
  const changes: ReportedChange[] = [];
  const replaceFields = new Set<string>();
  const seen = { immutable: false, forceNew: false };
  for (const change of raw) {
    const immutable = hitsImmutable(change.path, prefixes);
    const replaces = hitsForceNew(change.path, forceNew);
    if (immutable !== undefined) seen.immutable = true;
    if (replaces !== undefined) seen.forceNew = true;
    for (const shown of secret && isSecretValuePath(change.path) ? maskSecretChange(change) : [change]) {
      const path = formatPath(shown.path);
      const tags: ChangeTag[] = [];
      if (isBookkeeping(shown.path)) tags.push("bookkeeping");
      if (options.unstable.has(`${after.id} ${path}`) || options.unstable.has(`${before.id} ${path}`)) tags.push("unstable");
      if (immutable !== undefined) tags.push("immutable");
      if (replaces !== undefined) tags.push("replaces");
      // Noise that forces a replacement still replaces, on every run: it is named, not counted.
      if (!tags.includes("unstable")) for (const field of [immutable, replaces]) if (field !== undefined) replaceFields.add(field.join("."));
      changes.push(reported(shown, path, tags, options.context));
    }
  }
  const step = engineStep(options.engine, { action: "update", forceNew: seen.forceNew, immutable: seen.immutable, changed: true });
  const report: ObjectReport = { ...base(after, replaceFields.size > 0 ? "replace" : "update", step), changes };
  if (secret && changes.some((change) => change.secret !== undefined)) {
    const unchanged = unchangedSecretValues(before.body, after.body);
    if (unchanged.length > 0) report.unchangedSecrets = unchanged;
  }
  if (replaceFields.size > 0) {
    // Each engine's own story: the provider replaces on its fields, Helm fails on the API server's.
    const told = consequences({ ...seen, offline: options.offline === true });
    report.replacement = {
      fields: [...replaceFields].sort(),
      consequences: told,
      ...(seen.forceNew ? { order: "create-first" as const } : {}),
    };
  }
  return report;
}

/** `metadata.name`, read from the segments: formatting every change's path for this cost an operator upgrade's diff a tenth of what it allocated. */
function isName(change: FieldChange): boolean {
  // Stryker disable next-line ConditionalExpression: a name is a string, so no change reaches below metadata.name.
  return change.path.length === 2 && startsWith(change.path, ["metadata", "name"]);
}

function reported(change: FieldChange & { secret?: ReportedChange["secret"] }, path: string, tags: ChangeTag[], context?: number): ReportedChange {
  const out: ReportedChange = { path, op: change.op, tags };
  if (change.before !== undefined) out.before = change.before;
  if (change.after !== undefined) out.after = change.after;
  if (change.secret !== undefined) out.secret = change.secret;
  // A Secret's values are never shown, line by line no more than whole.
  const lines = change.op === "change" && change.secret === undefined ? lineDiff(change.before, change.after, context) : undefined;
  if (lines !== undefined) out.lines = lines;
  return out;
}

/** Same kind and namespace, another name, mostly the same content: a rename. */
function pairRenames(deleted: RenderedObject[], added: RenderedObject[]): Map<RenderedObject, RenderedObject> {
  const pairs = new Map<RenderedObject, RenderedObject>();
  const taken = new Set<RenderedObject>();
  for (const from of deleted) {
    let best: { object: RenderedObject; score: number } | undefined;
    const fromLeaves = contentLeaves(from);
    for (const to of added) {
      if (taken.has(to) || to.group !== from.group || to.kind !== from.kind || to.namespace !== from.namespace) continue;
      const toLeaves = contentLeaves(to);
      let common = 0;
      for (const leaf of fromLeaves) if (toLeaves.has(leaf)) common++;
      const score = common / Math.max(fromLeaves.size, toLeaves.size, 1);
      if (score >= RENAME_SIMILARITY && (best === undefined || score > best.score)) best = { object: to, score };
    }
    if (best !== undefined) {
      pairs.set(from, best.object);
      taken.add(best.object);
    }
  }
  return pairs;
}

/** What an object holds, less its name and the labels every chart version rewrites. */
function contentLeaves(object: RenderedObject): Set<string> {
  const all = leaves(object.body);
  for (const leaf of all) {
    if (leaf.startsWith(".metadata.name=") || /\.labels\.(helm\.sh\/chart|app\.kubernetes\.io\/version)=/.test(leaf) || /\.annotations\.checksum\//.test(leaf))
      all.delete(leaf);
  }
  return all;
}
