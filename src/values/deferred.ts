import { isRecord } from "../util/json.js";

// A registered symbol: markers made by another copy of the package still count.
const DEFERRED = Symbol.for("chartroom.deferred");

/** A value given in code that is not known yet (a Pulumi Output at plan time). */
export interface DeferredValue {
  readonly [DEFERRED]: true;
  readonly secret: boolean;
}

export function deferredValue(secret = false): DeferredValue {
  return { [DEFERRED]: true, secret } as DeferredValue;
}

export function isDeferred(value: unknown): value is DeferredValue {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[DEFERRED] === true;
}

/** Paths of deferred values, and the values with each replaced by a placeholder the schema may refuse (those errors are dropped). */
export function extractDeferred(values: Record<string, unknown>): { values: Record<string, unknown>; deferred: string[][] } {
  const deferred: string[][] = [];
  const walk = (node: unknown, path: string[]): unknown => {
    if (isDeferred(node)) {
      deferred.push(path);
      return "<deferred>";
    }
    if (isRecord(node)) return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, [...path, key])]));
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, String(i)]));
    return node;
  };
  return { values: walk(values, []) as Record<string, unknown>, deferred };
}
