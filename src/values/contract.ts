import { isRecord } from "../util/json.js";
import { sameValue } from "../util/tree.js";
import { unknownKeys, withSubchartDefaults, type ValuesContract } from "./check.js";
import { coalesce, type Values } from "./coalesce.js";
import { resolveRef, schemaAt, schemaType, typeName } from "./known.js";
import { isSecretPath } from "./secret-keys.js";

/** What a version change does to the values the platform sets: a key the new version ignores, a new required key, a type change, a changed default. */
export interface ContractChange {
  /**
   * `ignored`: the platform sets a key the new version no longer knows (Helm ignores it silently);
   * `required`: the new version requires a key nothing sets; `type`: a key the platform sets
   * changed type; `default`: the default of a key the platform does not set changed.
   */
  kind: "ignored" | "required" | "type" | "default";
  path: string;
  detail: string;
  hint?: string;
}

/** What a version change does to the values contract, for the values this platform sets. */
export function contractDiff(user: Values, before: ValuesContract, after: ValuesContract): ContractChange[] {
  return [...ignored(user, before, after), ...required(user, before, after), ...typeChanges(user, before, after), ...defaultChanges(user, before, after)];
}

function ignored(user: Values, before: ValuesContract, after: ValuesContract): ContractChange[] {
  const wasUnknown = new Set(unknownKeys(user, before, []).map((found) => found.path));
  const oldDefaults = withSubchartDefaults(before);
  const newDefaults = withSubchartDefaults(after);
  return unknownKeys(user, after, [])
    .filter((found) => !wasUnknown.has(found.path))
    .map((found) => {
      const renamed = renamedTo(found.path.split("."), oldDefaults, newDefaults);
      return {
        kind: "ignored" as const,
        path: found.path,
        detail: "set by the platform, unknown to the new version: Helm will ignore it and render the default",
        hint: renamed !== undefined ? `${renamed} is new in this version with the same default: was it renamed?` : found.hint,
      };
    });
}

/** A key new at the same level whose default equals the old key's default. */
function renamedTo(path: string[], oldDefaults: Values, newDefaults: Values): string | undefined {
  const parentPath = path.slice(0, -1);
  const oldParent = at(oldDefaults, parentPath);
  const newParent = at(newDefaults, parentPath);
  const key = path.at(-1) as string;
  if (!isRecord(oldParent) || !isRecord(newParent) || !Object.hasOwn(oldParent, key)) return undefined;
  const added = Object.keys(newParent).filter((name) => !Object.hasOwn(oldParent, name) && sameValue(newParent[name], oldParent[key]));
  return added.length === 1 ? [...parentPath, added[0]].join(".") : undefined;
}

function required(user: Values, before: ValuesContract, after: ValuesContract): ContractChange[] {
  const old = new Set(requiredPaths(before.schema));
  const values = coalesce(user, withSubchartDefaults(after));
  return requiredPaths(after.schema)
    .filter((path) => !old.has(path) && at(values, path.split(".")) === undefined)
    .map((path) => ({
      kind: "required" as const,
      path,
      detail: "newly required by the chart's schema, and nothing sets it",
      hint: `set ${path} in the chart's values`,
    }));
}

function requiredPaths(schema: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown, path: string[], depth: number) => {
    const resolved = resolveRef(schema, node);
    if (!isRecord(resolved) || depth > 12) return;
    if (Array.isArray(resolved.required)) for (const key of resolved.required) if (typeof key === "string") out.push([...path, key].join("."));
    if (isRecord(resolved.properties)) for (const [key, child] of Object.entries(resolved.properties)) walk(child, [...path, key], depth + 1);
  };
  walk(schema, [], 0);
  return out.sort();
}

function typeChanges(user: Values, before: ValuesContract, after: ValuesContract): ContractChange[] {
  const oldDefaults = withSubchartDefaults(before);
  const newDefaults = withSubchartDefaults(after);
  const out: ContractChange[] = [];
  for (const path of setPaths(user)) {
    const was = typeOf(before.schema, oldDefaults, path);
    const now = typeOf(after.schema, newDefaults, path);
    if (was !== undefined && now !== undefined && was !== now) {
      out.push({
        kind: "type",
        path: path.join("."),
        detail: `the platform sets it; its type changed from ${was} to ${now}`,
        hint: "check the value still means what it did",
      });
    }
  }
  return out;
}

function typeOf(schema: unknown, defaults: Values, path: string[]): string | undefined {
  let node: unknown = schema;
  for (const key of path) node = node === undefined ? undefined : schemaAt(schema, node, key);
  const declared = node === undefined ? undefined : schemaType(schema, node);
  if (declared !== undefined) return declared === "integer" ? "number" : declared;
  const value = at(defaults, path);
  if (value === undefined || value === null) return undefined;
  const name = typeName(value);
  return name === "integer" ? "number" : name;
}

function defaultChanges(user: Values, before: ValuesContract, after: ValuesContract): ContractChange[] {
  const set = setPaths(user).map((path) => path.join("."));
  const isSet = (path: string) => set.some((prefix) => path === prefix || path.startsWith(`${prefix}.`));
  const oldLeaves = leaves(withSubchartDefaults(before));
  const out: ContractChange[] = [];
  for (const [path, value] of leaves(withSubchartDefaults(after))) {
    if (!oldLeaves.has(path) || isSet(path)) continue;
    const previous = oldLeaves.get(path);
    if (sameValue(previous, value)) continue;
    // A default under a secret-looking key is a secret like any other: never printed.
    const secret = isSecretPath(path.split("."));
    out.push({
      kind: "default",
      path,
      detail: secret ? "default changed (a secret: not shown)" : `default changed from ${short(previous)} to ${short(value)}`,
    });
  }
  return out;
}

/** Every path the user sets: leaves and the maps above them. */
function setPaths(user: Values, prefix: string[] = []): string[][] {
  const out: string[][] = [];
  for (const [key, value] of Object.entries(user)) {
    const path = [...prefix, key];
    out.push(path);
    if (isRecord(value)) out.push(...setPaths(value, path));
  }
  return out;
}

function leaves(values: Values, prefix = "", out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [key, value] of Object.entries(values)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (isRecord(value) && Object.keys(value).length > 0) leaves(value, path, out);
    else out.set(path, value);
  }
  return out;
}

function at(values: unknown, path: readonly string[]): unknown {
  let node = values;
  for (const key of path) node = isRecord(node) ? node[key] : undefined;
  return node;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
