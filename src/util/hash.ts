import { createHash } from "node:crypto";

export function sha256Hex(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The form used in the lock and in OCI: `sha256:<hex>`. */
export function sha256Digest(data: string | Buffer): string {
  return `sha256:${sha256Hex(data)}`;
}

/** Accepts `sha256:<hex>` or bare hex (as Helm's index.yaml writes it). */
export function normaliseDigest(digest: string): string {
  const hex = digest.startsWith("sha256:") ? digest.slice("sha256:".length) : digest;
  return `sha256:${hex.toLowerCase()}`;
}
