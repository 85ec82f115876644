import type { LockedChart, LockedImage } from "./schema.js";

/** A pin's image uses that have a digest, by reference as written, over all its stacks. */
export function lockedUses(pin: LockedChart | undefined): Map<string, LockedImage> {
  const out = new Map<string, LockedImage>();
  for (const images of Object.values(pin?.images ?? {})) for (const image of images) if (image.digest !== undefined) out.set(image.image, image);
  return out;
}

/** The digests a pin's images record, by reference as written, over all its stacks. */
export function lockedDigests(pin: LockedChart | undefined): Map<string, string> {
  return new Map([...lockedUses(pin)].map(([written, image]) => [written, image.digest as string]));
}
