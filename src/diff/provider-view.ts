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

function prune(value: unknown, dropEmpty: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => prune(item, dropEmpty));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  let changed = false;
  for (const [key, item] of Object.entries(value)) {
    if (item === null) {
      changed = true;
      continue;
    }
    const pruned = prune(item, dropEmpty);
    if (dropEmpty && ((Array.isArray(pruned) && pruned.length === 0) || (isRecord(pruned) && Object.keys(pruned).length === 0))) {
      changed = true;
      continue;
    }
    if (pruned !== item) changed = true;
    out[key] = pruned;
  }
  return changed ? out : value;
}
