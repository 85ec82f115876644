import { isRecord } from "../util/json.js";
import { compilePattern } from "../util/re2.js";
import { sameValue } from "../util/tree.js";

// A custom resource against its CRD's openAPIV3Schema, read as the API server
// reads a structural schema rather than compiled: walking the object costs
// what the object is worth, where compiling an operator's schemas of several
// hundred KB cost seconds a run. What the API server does before it
// validates is done here too: a null where the schema is not `nullable` is
// pruned, fields the schema does not name are pruned (not refused),
// `x-kubernetes-int-or-string` takes either, patterns are RE2 (Go's regexp).
// `format` and CEL rules (`x-kubernetes-validations`) are left to the server.

/** One problem: the dotted path to the field (`(object)` for the whole) and what is wrong. */
export interface FieldProblem {
  path: string;
  message: string;
}

type Schema = Record<string, unknown>;

const TYPES = new Set(["object", "array", "string", "integer", "number", "boolean"]);
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf"] as const;
// A schema built to make the walk explode (anyOf inside anyOf…) is the server's to judge, not a hang here.
const MAX_STEPS = 200_000;

/**
 * The problems of `value` under `schema` (a CRD version's openAPIV3Schema),
 * or undefined when chartroom cannot judge: the schema is not one the API
 * server would take (an unknown type, a pattern RE2 refuses, `$ref`, a
 * tuple `items`) or judging would take too long. apiVersion, kind and
 * metadata are the API server's own, not the CRD author's.
 */
export function structuralProblems(schema: Schema, value: unknown): FieldProblem[] | undefined {
  if (!judgeable(schema)) return undefined;
  const root = {
    ...schema,
    properties: { ...record(schema.properties), apiVersion: { type: "string" }, kind: { type: "string" }, metadata: { type: "object" } },
  };
  const walk: Walk = { problems: [], steps: 0 };
  try {
    check(root, value, [], walk);
  } catch (error) {
    if (error instanceof TooMuchWork) return undefined;
    throw error;
  }
  return walk.problems;
}

class TooMuchWork extends Error {}

interface Walk {
  problems: FieldProblem[];
  steps: number;
}

function record(value: unknown): Schema {
  return isRecord(value) ? value : {};
}

// Each schema object is judged once (both sides of a diff share nothing, but one side's custom resources do).
const judged = new WeakMap<Schema, boolean>();

/** Whether every schema node is one the walk understands; only judged schemas are walked. */
export function judgeable(schema: Schema): boolean {
  const known = judged.get(schema);
  if (known !== undefined) return known;
  const answer = nodeJudgeable(schema, new WeakSet());
  judged.set(schema, answer);
  return answer;
}

// Each node once: a schema written with YAML aliases shares nodes, and a walk of every path through them could take forever.
function nodeJudgeable(node: unknown, seen: WeakSet<Schema>): boolean {
  if (!isRecord(node)) return false;
  if (seen.has(node)) return true;
  seen.add(node);
  if (node.$ref !== undefined || Array.isArray(node.items)) return false;
  if (node.type !== undefined && !(typeof node.type === "string" && TYPES.has(node.type))) return false;
  if (node.pattern !== undefined && (typeof node.pattern !== "string" || "error" in compilePattern(node.pattern))) return false;
  const children: unknown[] = [...Object.values(record(node.properties))];
  if (node.items !== undefined) children.push(node.items);
  if (isRecord(node.additionalProperties)) children.push(node.additionalProperties);
  if (node.not !== undefined) children.push(node.not);
  for (const key of SUBSCHEMA_LISTS) {
    if (node[key] === undefined) continue;
    if (!Array.isArray(node[key])) return false;
    children.push(...node[key]);
  }
  return children.every((child) => nodeJudgeable(child, seen));
}

function place(path: readonly (string | number)[]): string {
  return path.length === 0 ? "(object)" : path.join(".");
}

/** A null the schema does not allow is pruned by the API server, as if the field were not there. */
function pruned(schema: Schema, value: unknown): boolean {
  return value === null && schema.nullable !== true;
}

function check(schema: Schema, value: unknown, path: (string | number)[], walk: Walk): void {
  if (++walk.steps > MAX_STEPS) throw new TooMuchWork();
  if (value === null) return;
  const problem = (message: string, at = path) => walk.problems.push({ path: place(at), message });
  if (!typeFits(schema, value)) {
    problem(schema["x-kubernetes-int-or-string"] === true ? "must be integer or string" : `must be ${String(schema.type)}`);
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => sameValue(allowed, value))) problem("must be equal to one of the allowed values");
  if (typeof value === "string") checkString(schema, value, problem);
  else if (typeof value === "number") checkNumber(schema, value, problem);
  else if (Array.isArray(value)) checkArray(schema, value, path, walk, problem);
  else if (isRecord(value)) checkObject(schema, value, path, walk, problem);
  for (const sub of (schema.allOf ?? []) as Schema[]) check(sub, value, path, walk);
  const fits = (sub: Schema) => {
    const inner: Walk = { problems: [], steps: walk.steps };
    check(sub, value, path, inner);
    walk.steps = inner.steps;
    return inner.problems.length === 0;
  };
  if (Array.isArray(schema.anyOf) && !(schema.anyOf as Schema[]).some(fits)) problem("must match a schema in anyOf");
  if (Array.isArray(schema.oneOf) && (schema.oneOf as Schema[]).filter(fits).length !== 1) problem("must match exactly one schema in oneOf");
  if (isRecord(schema.not) && fits(schema.not)) problem("must NOT be valid");
}

function typeFits(schema: Schema, value: unknown): boolean {
  if (schema["x-kubernetes-int-or-string"] === true) return typeof value === "string" || Number.isInteger(value);
  switch (schema.type) {
    case undefined:
      return true;
    case "object":
      return isRecord(value);
    case "array":
      return Array.isArray(value);
    case "integer":
      return Number.isInteger(value);
    default:
      return typeof value === schema.type;
  }
}

type Problem = (message: string, at?: (string | number)[]) => void;

function checkString(schema: Schema, value: string, problem: Problem): void {
  // Lengths in characters (code points), as Go counts runes.
  const length = [...value].length;
  if (typeof schema.maxLength === "number" && length > schema.maxLength) problem(`must NOT have more than ${schema.maxLength} characters`);
  if (typeof schema.minLength === "number" && length < schema.minLength) problem(`must NOT have fewer than ${schema.minLength} characters`);
  if (typeof schema.pattern === "string") {
    const pattern = compilePattern(schema.pattern);
    if (!("error" in pattern) && !pattern.test(value)) problem(`must match pattern "${schema.pattern}"`);
  }
}

function checkNumber(schema: Schema, value: number, problem: Problem): void {
  // OpenAPI 3.0: exclusiveMaximum/exclusiveMinimum are flags on maximum/minimum.
  if (typeof schema.maximum === "number") {
    if (schema.exclusiveMaximum === true ? value >= schema.maximum : value > schema.maximum)
      problem(`must be ${schema.exclusiveMaximum === true ? "<" : "<="} ${schema.maximum}`);
  }
  if (typeof schema.minimum === "number") {
    if (schema.exclusiveMinimum === true ? value <= schema.minimum : value < schema.minimum)
      problem(`must be ${schema.exclusiveMinimum === true ? ">" : ">="} ${schema.minimum}`);
  }
  if (typeof schema.multipleOf === "number" && schema.multipleOf > 0 && !Number.isInteger(value / schema.multipleOf))
    problem(`must be multiple of ${schema.multipleOf}`);
}

function checkArray(schema: Schema, value: unknown[], path: (string | number)[], walk: Walk, problem: Problem): void {
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems) problem(`must NOT have more than ${schema.maxItems} items`);
  if (typeof schema.minItems === "number" && value.length < schema.minItems) problem(`must NOT have fewer than ${schema.minItems} items`);
  if (schema.uniqueItems === true && value.some((item, i) => value.slice(i + 1).some((other) => sameValue(item, other))))
    problem("must NOT have duplicate items");
  if (isRecord(schema.items)) for (const [i, item] of value.entries()) check(schema.items, item, [...path, i], walk);
}

function checkObject(schema: Schema, value: Schema, path: (string | number)[], walk: Walk, problem: Problem): void {
  const properties = record(schema.properties);
  const count = Object.keys(value).length;
  if (typeof schema.maxProperties === "number" && count > schema.maxProperties) problem(`must NOT have more than ${schema.maxProperties} properties`);
  if (typeof schema.minProperties === "number" && count < schema.minProperties) problem(`must NOT have fewer than ${schema.minProperties} properties`);
  for (const name of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof name !== "string") continue;
    const field = value[name];
    if (field === undefined || pruned(record(properties[name]), field)) problem(`must have required property '${name}'`);
  }
  for (const [name, field] of Object.entries(value)) {
    const declared = properties[name];
    if (isRecord(declared)) check(declared, field, [...path, name], walk);
    else if (schema.additionalProperties === false) problem("must NOT have additional properties", [...path, name]);
    else if (isRecord(schema.additionalProperties)) check(schema.additionalProperties, field, [...path, name], walk);
  }
}
