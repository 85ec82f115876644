import { isRecord } from "../util/json.js";
import type { RenderedObject } from "../model/objects.js";
import { isCustomResource } from "../render/kinds.js";

/**
 * An object as the Kubernetes provider sends it, for comparing: Pulumi drops
 * null fields of every object (its inputs skip nulls), and the provider's
 * typed round trip of built-in kinds drops empty maps and lists (their fields
 * are `omitempty`). A field the engine never sends is never a change.
 */
export function providerView(object: Pick<RenderedObject, "group" | "body">): Record<string, unknown> {
  return prune(object.body, !isCustomResource(object)) as Record<string, unknown>;
}

// Both sides of a diff share the blocks they render alike (the manifest reader
// hands out one object for equal text): a block with nothing to prune is
// itself, so the diff passes over it at once, and a block pruned is pruned
// once, both sides getting the same result. Only those are remembered: a
// warm run's sides come from the cache and share nothing, and remembering
// every node of them cost half of the pruning.
const pruned = { keep: new WeakMap<object, unknown>(), drop: new WeakMap<object, unknown>() };

function prune(value: unknown, dropEmpty: boolean): unknown {
  if (typeof value !== "object" || value === null) return value;
  const memo = dropEmpty ? pruned.drop : pruned.keep;
  const known = memo.get(value);
  if (known !== undefined) return known;
  const out = Array.isArray(value) ? pruneList(value, dropEmpty) : isRecord(value) ? pruneRecord(value, dropEmpty) : value;
  // Stryker disable next-line ConditionalExpression: remembering a block given back as itself changes no result, only the time.
  if (out !== value) memo.set(value, out);
  return out;
}

/** A new list only when an item changed. */
function pruneList(list: unknown[], dropEmpty: boolean): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item = prune(list[i], dropEmpty);
    if (out === undefined && item !== list[i]) out = list.slice(0, i);
    out?.push(item);
  }
  return out ?? list;
}

/** A new record only when a field is dropped or changed: nulls, and (for built-in kinds) empty maps and lists. */
function pruneRecord(record: Record<string, unknown>, dropEmpty: boolean): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = record[key];
    const kept = item === null ? undefined : prune(item, dropEmpty);
    const drop = item === null || (dropEmpty && isEmpty(kept));
    if (out === undefined && (drop || kept !== item)) {
      out = {};
      for (const earlier of keys.slice(0, i)) out[earlier] = record[earlier];
    }
    if (out !== undefined && !drop) out[key] = kept;
  }
  return out ?? record;
}

function isEmpty(value: unknown): boolean {
  return (Array.isArray(value) && value.length === 0) || (isRecord(value) && Object.keys(value).length === 0);
}
