import { createHmac } from "node:crypto";

// A Secret value as chartroom keeps it outside memory: a keyed digest and a
// byte count. Equal values seal equally under one key (so a diff still says
// "changed" or "unchanged"), and the byte count is what reports show.

const PATTERN = /^<sealed hmac-sha256:([0-9a-f]{64}) (\d+) bytes( not base64)?>$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * `<sealed hmac-sha256:… N bytes>` for the value's bytes (`data` values are
 * base64; one that is not says so, for the schema check that cannot see it).
 */
export function sealValue(value: unknown, field: string, key: Buffer): string {
  if (typeof value === "string" && PATTERN.test(value)) return value;
  const bytes = secretBytes(value, field);
  const broken = field === "data" && !(typeof value === "string" && BASE64.test(value));
  return `<sealed hmac-sha256:${sealDigest(bytes, key)} ${bytes.length} bytes${broken ? " not base64" : ""}>`;
}

/** Whether a sealed `data` value was not base64 when it was sealed. */
export function sealedNotBase64(value: unknown): boolean {
  return typeof value === "string" && PATTERN.exec(value)?.[3] !== undefined;
}

/** The keyed digest of a value's bytes. */
export function sealDigest(bytes: Buffer | string, key: Buffer): string {
  return createHmac("sha256", key).update(bytes).digest("hex");
}

/** The bytes of a sealed value, or undefined when it is not sealed. */
export function sealedBytes(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const match = PATTERN.exec(value);
  return match === null ? undefined : Number(match[2]);
}

/** The digest in a sealed value, or undefined. */
export function sealedDigest(value: unknown): string | undefined {
  return typeof value === "string" ? PATTERN.exec(value)?.[1] : undefined;
}

/** A Secret value's bytes: `data` is base64, `stringData` is text. */
export function secretBytes(value: unknown, field: string): Buffer {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? "");
  return field === "data" ? Buffer.from(text, "base64") : Buffer.from(text);
}
