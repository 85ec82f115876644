import { isRecord } from "../util/json.js";

// A chart's schema becomes TypeScript in a file the user commits and tsc
// compiles: nothing the chart author wrote may become code. The generator is
// given a copy holding only what shapes a type, with every text escaped:
//  - type keywords only (no tsType, tsEnumNames, $id, formats, examples…);
//  - `$ref` only to the schema's own definitions;
//  - enum and const values only as JSON scalars (literal types), long enums
//    as their value types;
//  - descriptions that cannot close their comment, no `default` or `title`.

/** Schema keywords whose value is one schema. */
const ONE = ["additionalProperties", "items", "additionalItems", "not", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems"];
/** Schema keywords whose value is a list of schemas. */
const MANY = ["anyOf", "oneOf", "allOf", "prefixItems"];
/** Schema keywords whose value maps names to schemas. */
const MAPS = ["properties", "patternProperties", "definitions", "$defs"];

/** An enum longer than this is typed by its values' types, not as a union of each value. */
export const MAX_ENUM_LITERALS = 200;
/** The most schema nodes a chart's schema may give the generator. */
export const MAX_NODES = 50_000;

export class SchemaTooLarge extends Error {}

/** The schema reduced to what types are made of, safe to hand to json-schema-to-typescript. */
export function safeSchema(schema: unknown): unknown {
  const budget = { nodes: 0 };
  return clean(schema, budget, 0);
}

function clean(node: unknown, budget: { nodes: number }, depth: number): unknown {
  if (typeof node === "boolean") return node;
  if (!isRecord(node)) return {};
  if (++budget.nodes > MAX_NODES || depth > 128) throw new SchemaTooLarge(`more than ${MAX_NODES} schema nodes or 128 levels`);
  const out: Record<string, unknown> = {};
  const type = node.type;
  if (typeof type === "string" && TYPES.has(type)) out.type = type;
  else if (Array.isArray(type)) {
    const types = type.filter((item): item is string => typeof item === "string" && TYPES.has(item));
    if (types.length > 0) out.type = types;
  }
  if (Array.isArray(node.required)) out.required = node.required.filter((key) => typeof key === "string");
  if (typeof node.$ref === "string" && /^#\/(definitions|\$defs)\/[^#]*$/.test(node.$ref)) out.$ref = node.$ref;
  if (Array.isArray(node.enum)) Object.assign(out, enumOf(node.enum));
  if (isScalar(node.const)) out.const = node.const;
  if (typeof node.description === "string") out.description = comment(node.description);
  if (node.deprecated === true) out.deprecated = true;
  for (const key of ONE) {
    const value = node[key];
    if (typeof value === "boolean" || isRecord(value)) out[key] = clean(value, budget, depth + 1);
    else if (key === "items" && Array.isArray(value)) out.items = value.map((item) => clean(item, budget, depth + 1));
  }
  for (const key of MANY) {
    const value = node[key];
    if (Array.isArray(value)) out[key] = value.map((item) => clean(item, budget, depth + 1));
  }
  for (const key of MAPS) {
    const value = node[key];
    if (!isRecord(value)) continue;
    out[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, clean(item, budget, depth + 1)]));
  }
  return out;
}

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

/** Scalars as literals; objects and lists in an enum, or very long enums, as the types of their values. */
function enumOf(values: readonly unknown[]): Record<string, unknown> {
  if (values.length <= MAX_ENUM_LITERALS && values.every(isScalar)) return { enum: [...values] };
  const types = [
    ...new Set(values.map((value) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? "number" : typeof value))),
  ].filter((name) => TYPES.has(name));
  return types.length === 0 ? {} : { type: types.length === 1 ? types[0] : types };
}

/** Text fit for a block comment: nothing that closes or opens one, no control characters; at most 2,000 characters. */
export function comment(text: string): string {
  // Block comments do not nest: only a closing `*` + `/` matters, written `*\/`.
  const flat = text
    .slice(0, 2000)
    .replace(/\*\//g, "*\\/")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/g, " ");
  return flat;
}
