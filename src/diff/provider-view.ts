import { isRecord } from "../util/json.js";
import type { FieldView } from "../util/tree.js";
import type { RenderedObject } from "../model/objects.js";
import { isCustomResource } from "../render/kinds.js";

/**
 * An object as the Kubernetes provider sends it, for comparing: Pulumi drops
 * null fields of every object (its inputs skip nulls), and the provider's
 * typed round trip of built-in kinds drops empty maps and lists (their fields
 * are `omitempty`). A field the engine never sends is never a change.
 * The diff does not build it (providerFields below): this whole view is what
 * that walk is held to (test/unit/provider-view.test.ts).
 */
export function providerView(object: Pick<RenderedObject, "group" | "body">): Record<string, unknown> {
  return prune(object.body, !isCustomResource(object)) as Record<string, unknown>;
}

/**
 * The same view for the diff's walk (util/tree.ts), which skips what the
 * provider drops as it meets it: no copy of either side is made, and a
 * change shows its values pruned. Pruning every object of both sides first
 * cost a warm diff of an operator chart a third of its time.
 */
export function providerFields(object: Pick<RenderedObject, "group">): FieldView {
  return isCustomResource(object) ? AS_SENT : AS_SENT_TYPED;
}

// One view per kind of object, made once: the diff asks for one per object compared.
const AS_SENT: FieldView = { absent: (value) => value === null, shown: (value) => prune(value, false) };
const AS_SENT_TYPED: FieldView = { absent: vanishes, shown: (value) => prune(value, true) };

/** Whether the provider drops a field of a built-in kind with this value: null, or a list or map that is empty once pruned. */
function vanishes(value: object | null): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field !== "object" || !vanishes(field)) return false;
  }
  return true;
}

function prune(value: unknown, dropEmpty: boolean): unknown {
  if (typeof value !== "object" || value === null) return value;
  return Array.isArray(value) ? pruneList(value, dropEmpty) : isRecord(value) ? pruneRecord(value, dropEmpty) : value;
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
