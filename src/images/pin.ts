import type { RenderedObject } from "../model/objects.js";
import { imagesOf, type ImageField, type ImageUse } from "./extract.js";
import { pinnedReference } from "./reference.js";

// Deploying what was reviewed: each image reference rewritten to
// `repo:tag@sha256:<locked digest>`, the same rewrite in chartroom's render
// (so the diff shows it) and in the engine (a transform, a post-renderer).

/** The digest locked for each image reference as written. */
export type LockedDigests = ReadonlyMap<string, string>;

/** What pinning left as it was, and why: never a silent gap. */
export interface Unpinned {
  object: RenderedObject;
  use: ImageUse;
  why: "not-locked" | "not-an-image" | "hook-under-release";
}

/** A copy of the object with every image it names pinned to its locked digest (the object itself is left alone). */
export function pinObject(
  object: RenderedObject,
  digests: LockedDigests,
  fields: readonly ImageField[] = [],
): { object: RenderedObject; unpinned: Unpinned[] } {
  const { body, unpinned } = pinBody(object, digests, fields);
  return { object: body === object.body ? object : { ...object, body }, unpinned: unpinned.map((use) => ({ object, ...use })) };
}

/**
 * The body with every image pinned, copied only along the paths it changes
 * (the rest is shared, so values the engine wraps, such as secrets, pass as they are).
 */
export function pinBody(
  object: Pick<RenderedObject, "group" | "kind" | "body">,
  digests: LockedDigests,
  fields: readonly ImageField[] = [],
): { body: Record<string, unknown>; unpinned: Omit<Unpinned, "object">[] } {
  let body = object.body;
  const unpinned: Omit<Unpinned, "object">[] = [];
  for (const use of imagesOf(object, fields)) {
    const digest = use.reference?.digest ?? digests.get(use.written);
    if (use.reference === undefined) unpinned.push({ use, why: "not-an-image" });
    else if (digest === undefined) unpinned.push({ use, why: "not-locked" });
    else if (use.reference.digest === undefined) body = copiedWith(body, use.at, pinnedReference(use.written, digest)) as Record<string, unknown>;
  }
  return { body, unpinned };
}

/** Every object pinned; under helm.v3.Release hooks stay as they are, since Helm 3 post-renders no hook. */
export function pinObjects(
  objects: readonly RenderedObject[],
  digests: LockedDigests,
  options: { fields?: readonly ImageField[]; hooksUnpinned?: boolean } = {},
): { objects: RenderedObject[]; unpinned: Unpinned[] } {
  const out: RenderedObject[] = [];
  const unpinned: Unpinned[] = [];
  for (const object of objects) {
    if (object.hook !== undefined && options.hooksUnpinned === true) {
      for (const use of imagesOf(object, options.fields)) if (use.reference?.digest === undefined) unpinned.push({ object, use, why: "hook-under-release" });
      out.push(object);
      continue;
    }
    const pinned = pinObject(object, digests, options.fields);
    out.push(pinned.object);
    unpinned.push(...pinned.unpinned);
  }
  return { objects: out, unpinned };
}

function copiedWith(node: unknown, path: readonly (string | number)[], value: string): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return value;
  const copy = (Array.isArray(node) ? [...node] : { ...(node as Record<string, unknown>) }) as Record<string | number, unknown>;
  copy[step] = copiedWith(copy[step], rest, value);
  return copy;
}
