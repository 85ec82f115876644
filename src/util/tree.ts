import { entryOf, isRecord } from "./json.js";
import type { Segment } from "./tree-path.js";

export type Op = "add" | "remove" | "change" | "reorder";

/** One field-level difference. `reorder` carries the new order of a keyed list. */
export interface FieldChange {
  path: Segment[];
  op: Op;
  before?: unknown;
  after?: unknown;
  /** For `reorder`: the merge key the orders are written in. */
  key?: string;
}

/**
 * Lists Kubernetes merges by a key (strategic merge patch). Matching by key
 * makes an inserted or reordered container one change, not a cascade.
 */
const MERGE_KEYS: Record<string, string[]> = {
  containers: ["name"],
  initContainers: ["name"],
  ephemeralContainers: ["name"],
  volumes: ["name"],
  env: ["name"],
  volumeMounts: ["mountPath"],
  volumeDevices: ["devicePath"],
  ports: ["name", "containerPort", "port"],
  imagePullSecrets: ["name"],
  hostAliases: ["ip"],
  volumeClaimTemplates: [],
  subjects: ["name"],
};

/**
 * How a side's fields are seen: a field whose value is `absent` is no field
 * at all, and a change reports values as `shown`. The diff of a rendered
 * object sees it as the provider sends it (diff/provider-view.ts) without
 * copying it first.
 */
export interface FieldView {
  /** Asked only of a field whose value is an object, a list or null: a string or number is always a field. */
  absent(value: object | null): boolean;
  shown(value: unknown): unknown;
}

/** One step of the walk: a map key, a list index, or a list item found by its merge key (a segment only when a change is recorded). */
type Step = string | number | Segment;

export function diffValues(before: unknown, after: unknown, view?: FieldView): FieldChange[] {
  const out: FieldChange[] = [];
  // One path stack for the whole walk, made into segments only when a change is recorded:
  // large CRD schemas have tens of thousands of nodes.
  walk(before, after, [], out, view);
  return out;
}

function walk(before: unknown, after: unknown, path: Step[], out: FieldChange[], view: FieldView | undefined): void {
  if (before === after) return;
  if (isRecord(before) && isRecord(after)) {
    for (const key in before) {
      const was = before[key];
      if (absent(was, view)) continue;
      path.push(key);
      if (!Object.hasOwn(after, key) || absent(after[key], view)) out.push({ path: segments(path), op: "remove", before: shown(was, view) });
      else walk(was, after[key], path, out, view);
      path.pop();
    }
    for (const key in after) {
      // A field both sides have was walked above.
      if (Object.hasOwn(before, key) && !absent(before[key], view)) continue;
      if (!absent(after[key], view)) out.push({ path: segments(path, key), op: "add", after: shown(after[key], view) });
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    diffLists(before, after, path, out, view);
    return;
  }
  if (!sameValue(before, after)) out.push({ path: segments(path), op: "change", before: shown(before, view), after: shown(after, view) });
}

function absent(value: unknown, view: FieldView | undefined): boolean {
  return view !== undefined && typeof value === "object" && view.absent(value);
}

function shown(value: unknown, view: FieldView | undefined): unknown {
  return view === undefined ? value : view.shown(value);
}

function segments(path: readonly Step[], last?: Step): Segment[] {
  const out = path.map(segmentOf);
  if (last !== undefined) out.push(segmentOf(last));
  return out;
}

function segmentOf(step: Step): Segment {
  return typeof step === "string" ? { key: step } : typeof step === "number" ? { index: step } : step;
}

function diffLists(before: unknown[], after: unknown[], path: Step[], out: FieldChange[], view: FieldView | undefined): void {
  const last = path.at(-1);
  const key = mergeKey(typeof last === "string" ? last : "", before, after);
  if (key === undefined) {
    if (before.length !== after.length) {
      out.push({ path: segments(path), op: "change", before: shown(before, view), after: shown(after, view) });
      return;
    }
    for (let index = 0; index < before.length; index++) {
      path.push(index);
      walk(before[index], after[index], path, out, view);
      path.pop();
    }
    return;
  }
  const keyOf = (item: unknown) => String((item as Record<string, unknown>)[key]);
  const afterByKey = new Map(after.map((item) => [keyOf(item), item]));
  const beforeByKey = new Map(before.map((item) => [keyOf(item), item]));
  for (const item of before) {
    const id = keyOf(item);
    path.push({ match: key, value: id });
    if (!afterByKey.has(id)) out.push({ path: segments(path), op: "remove", before: shown(item, view) });
    else walk(item, afterByKey.get(id), path, out, view);
    path.pop();
  }
  for (const item of after) {
    const id = keyOf(item);
    if (!beforeByKey.has(id)) out.push({ path: segments(path, { match: key, value: id }), op: "add", after: shown(item, view) });
  }
  // Order after removing and appending; anything else is a reorder.
  const implied = [...before.map(keyOf).filter((id) => afterByKey.has(id)), ...after.map(keyOf).filter((id) => !beforeByKey.has(id))];
  const actual = after.map(keyOf);
  if (implied.some((id, i) => id !== actual[i])) out.push({ path: segments(path), op: "reorder", before: before.map(keyOf), after: actual, key });
}

/** The first candidate key every item has, with no duplicates, on both sides. */
function mergeKey(field: string, before: unknown[], after: unknown[]): string | undefined {
  const candidates = entryOf(MERGE_KEYS, field);
  if (candidates === undefined) return undefined;
  const items = [...before, ...after];
  return candidates.find((key) => {
    if (!items.every((item) => isRecord(item) && (typeof item[key] === "string" || typeof item[key] === "number"))) return false;
    const unique = (list: unknown[]) => new Set(list.map((item) => String((item as Record<string, unknown>)[key]))).size === list.length;
    return unique(before) && unique(after);
  });
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length && ka.every((key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
}

/**
 * The inverse of diffValues: applying its changes to `before` gives `after`.
 * Used by the property test, and by anything that replays a diff.
 */
export function applyChanges(before: unknown, changes: readonly FieldChange[]): unknown {
  let root = structuredClone(before);
  const ordered = [...changes.filter((c) => c.op !== "reorder"), ...changes.filter((c) => c.op === "reorder").reverse()];
  for (const change of ordered) root = applyOne(root, change);
  return root;
}

function applyOne(root: unknown, change: FieldChange): unknown {
  if (change.path.length === 0) return structuredClone(change.after);
  const parentPath = change.path.slice(0, -1);
  const last = change.path.at(-1) as Segment;
  const parent = resolve(root, parentPath);
  if (change.op === "reorder") {
    const list = resolve(root, change.path) as Record<string, unknown>[];
    const order = change.after as string[];
    const key = change.key ?? "name";
    list.sort((a, b) => order.indexOf(String(a[key])) - order.indexOf(String(b[key])));
    return root;
  }
  if ("key" in last) {
    const map = parent as Record<string, unknown>;
    if (change.op === "remove") delete map[last.key];
    else map[last.key] = structuredClone(change.after);
  } else if ("index" in last) {
    (parent as unknown[])[last.index] = structuredClone(change.after);
  } else {
    const list = parent as Record<string, unknown>[];
    const at = list.findIndex((item) => String(item[last.match]) === last.value);
    if (change.op === "remove") list.splice(at, 1);
    else if (change.op === "add") list.push(structuredClone(change.after) as Record<string, unknown>);
    else list[at] = structuredClone(change.after) as Record<string, unknown>;
  }
  return root;
}

function resolve(root: unknown, path: readonly Segment[]): unknown {
  let node = root;
  for (const segment of path) {
    if ("key" in segment) node = (node as Record<string, unknown>)[segment.key];
    else if ("index" in segment) node = (node as unknown[])[segment.index];
    else node = (node as Record<string, unknown>[]).find((item) => String(item[segment.match]) === segment.value);
  }
  return node;
}
