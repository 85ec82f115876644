import type { LockedChart } from "./schema.js";

/** The digests a pin's images record, by reference as written, over all its stacks. */
export function lockedDigests(pin: LockedChart | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const images of Object.values(pin?.images ?? {})) for (const image of images) if (image.digest !== undefined) out.set(image.image, image.digest);
  return out;
}
