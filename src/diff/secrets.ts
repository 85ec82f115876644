import { isRecord } from "../util/json.js";
import { sealedBytes, secretBytes } from "../util/sealed.js";
import type { Segment } from "../util/tree-path.js";
import type { FieldChange } from "../util/tree.js";

export type SecretState = "added" | "removed" | "changed" | "unchanged";

export interface MaskedValue {
  masked: true;
  bytes: number;
}

/** Bytes a Secret value holds: `data` is base64, `stringData` is text; a sealed value says. */
function byteLength(value: unknown, field: string): number {
  return sealedBytes(value) ?? secretBytes(value, field).length;
}

const masked = (value: unknown, field: string): MaskedValue => ({ masked: true, bytes: byteLength(value, field) });

/**
 * Replace every Secret value in a change by its byte length. A change of a
 * whole `data` map becomes one change per key, so the report can say which
 * keys were added, removed or changed without showing any of them.
 */
export type MaskedChange = FieldChange & { secret: SecretState };

/** A path into a Secret's values (`data…` or `stringData…`). */
export function isSecretValuePath(path: readonly Segment[]): boolean {
  const first = path[0];
  return first !== undefined && "key" in first && (first.key === "data" || first.key === "stringData");
}

export function maskSecretChange(change: FieldChange): MaskedChange[] {
  const [first, second] = change.path;
  if (first === undefined || !("key" in first) || !isSecretValuePath(change.path)) return [];
  const field = first.key;
  if (second !== undefined) {
    const state: SecretState = change.op === "add" ? "added" : change.op === "remove" ? "removed" : "changed";
    return [
      {
        path: change.path.slice(0, 2),
        op: change.op,
        before: change.op === "add" ? undefined : masked(change.before, field),
        after: change.op === "remove" ? undefined : masked(change.after, field),
        secret: state,
      },
    ];
  }
  const before = isRecord(change.before) ? change.before : {};
  const after = isRecord(change.after) ? change.after : {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.flatMap((key): MaskedChange[] => {
    const path: Segment[] = [first, { key }];
    if (!Object.hasOwn(before, key)) return [{ path, op: "add" as const, after: masked(after[key], field), secret: "added" as const }];
    if (!Object.hasOwn(after, key)) return [{ path, op: "remove" as const, before: masked(before[key], field), secret: "removed" as const }];
    if (before[key] === after[key]) return [];
    return [{ path, op: "change" as const, before: masked(before[key], field), after: masked(after[key], field), secret: "changed" as const }];
  });
}

/** A Secret body with every value replaced by its byte length. */
export function maskSecretBody(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const field of ["data", "stringData"]) {
    const values = body[field];
    if (!isRecord(values)) continue;
    out[field] = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, `<${byteLength(value, field)} bytes, hidden>`]));
  }
  return out;
}

/** The Secret values present and equal on both sides, by byte length. */
export function unchangedSecretValues(before: Record<string, unknown>, after: Record<string, unknown>): { path: string; bytes: number }[] {
  const out: { path: string; bytes: number }[] = [];
  for (const field of ["data", "stringData"]) {
    const old = before[field];
    const now = after[field];
    if (!isRecord(old) || !isRecord(now)) continue;
    for (const key of Object.keys(now).sort()) {
      if (Object.hasOwn(old, key) && old[key] === now[key]) out.push({ path: `${field}.${key}`, bytes: byteLength(now[key], field) });
    }
  }
  return out;
}
