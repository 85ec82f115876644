import { isRecord } from "./json.js";
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

export function diffValues(before: unknown, after: unknown, path: Segment[] = [], out: FieldChange[] = []): FieldChange[] {
  // One path stack for the whole walk, copied only when a change is recorded:
  // large CRD schemas have tens of thousands of nodes.
  walk(before, after, [...path], out);
  return out;
}

function walk(before: unknown, after: unknown, path: Segment[], out: FieldChange[]): void {
  if (before === after) return;
  if (isRecord(before) && isRecord(after)) {
    for (const key in before) {
      path.push({ key });
      if (!Object.hasOwn(after, key)) out.push({ path: [...path], op: "remove", before: before[key] });
      else walk(before[key], after[key], path, out);
      path.pop();
    }
    for (const key in after) {
      if (!Object.hasOwn(before, key)) out.push({ path: [...path, { key }], op: "add", after: after[key] });
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    diffLists(before, after, path, out);
    return;
  }
  if (!sameValue(before, after)) out.push({ path: [...path], op: "change", before, after });
}

function diffLists(before: unknown[], after: unknown[], path: Segment[], out: FieldChange[]): void {
  const last = path.at(-1);
  const field = last !== undefined && "key" in last ? last.key : "";
  const key = mergeKey(field, before, after);
  if (key === undefined) {
    if (before.length !== after.length) {
      out.push({ path: [...path], op: "change", before, after });
      return;
    }
    for (let index = 0; index < before.length; index++) {
      path.push({ index });
      walk(before[index], after[index], path, out);
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
    if (!afterByKey.has(id)) out.push({ path: [...path], op: "remove", before: item });
    else walk(item, afterByKey.get(id), path, out);
    path.pop();
  }
  for (const item of after) {
    const id = keyOf(item);
    if (!beforeByKey.has(id)) out.push({ path: [...path, { match: key, value: id }], op: "add", after: item });
  }
  // Order after removing and appending; anything else is a reorder.
  const implied = [...before.map(keyOf).filter((id) => afterByKey.has(id)), ...after.map(keyOf).filter((id) => !beforeByKey.has(id))];
  const actual = after.map(keyOf);
  if (implied.some((id, i) => id !== actual[i])) out.push({ path: [...path], op: "reorder", before: before.map(keyOf), after: actual, key });
}

/** The first candidate key every item has, with no duplicates, on both sides. */
function mergeKey(field: string, before: unknown[], after: unknown[]): string | undefined {
  const candidates = MERGE_KEYS[field];
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
