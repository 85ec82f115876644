import type { ImageField } from "../images/extract.js";
import { imagesOf } from "../images/extract.js";
import { displayName, type RenderedObject } from "../model/objects.js";
import type { ImageChange } from "./model.js";
import { byText } from "../util/order.js";

/** One side's images: its objects and the digests locked for its references. */
export interface ImageSide {
  objects: readonly RenderedObject[];
  digests?: ReadonlyMap<string, string>;
}

/**
 * The images that change between two sides, per object and container: a
 * tag to another tag, a digest to another digest (a moved tag accepted, or
 * pinImages turned on), one added or gone. Hooks count: their pods run too.
 */
export function imageChanges(before: ImageSide | null, after: ImageSide | null, fields: readonly ImageField[] = []): ImageChange[] {
  const old = usesOf(before, fields);
  const now = usesOf(after, fields);
  const out: ImageChange[] = [];
  for (const [key, to] of now) {
    const from = old.get(key);
    if (from === undefined) out.push({ object: to.object, container: to.container, change: "added", to: to.image });
    else if (from.image.image !== to.image.image || from.image.digest !== to.image.digest)
      out.push({ object: to.object, container: to.container, change: "changed", from: from.image, to: to.image });
  }
  for (const [key, from] of old) if (!now.has(key)) out.push({ object: from.object, container: from.container, change: "removed", from: from.image });
  return out.sort((a, b) => byText(a.object, b.object) || byText(a.container, b.container));
}

/** One image use of a side: where it is, and the reference with its locked digest. */
interface Use {
  object: string;
  container: string;
  image: { image: string; digest?: string };
}

function usesOf(side: ImageSide | null, fields: readonly ImageField[]): Map<string, Use> {
  const out = new Map<string, Use>();
  for (const object of side?.objects ?? []) {
    for (const use of imagesOf(object, fields)) {
      const digest = use.reference?.digest ?? side?.digests?.get(use.written);
      out.set(`${object.id}\u0000${use.container}`, {
        object: displayName(object),
        container: use.container,
        image: { image: use.written, ...(digest === undefined ? {} : { digest }) },
      });
    }
  }
  return out;
}
