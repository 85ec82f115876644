import type { Finding } from "../model/findings.js";
import type { SubchartValues } from "../model/charts.js";
import { isRecord } from "../util/json.js";
import { nearest } from "../util/nearest.js";
import { coalesce, mergeLayers, subchartSection, subchartView, type Values } from "./coalesce.js";
import { extractDeferred } from "./deferred.js";
import { schemaAt, schemaIsOpen, schemaKeys, typeName } from "./known.js";
import { positionOf, type ParsedLayer } from "./layers.js";
import type { SchemaCache, SchemaError } from "./schema.js";
import type { SchemaProblem } from "./schema-guard.js";
import { byText } from "../util/order.js";

/** What a chart version says about its values: defaults, schema, subcharts. */
export interface ValuesContract {
  defaults: Values;
  schema?: unknown;
  schemaDigest?: string;
  subcharts: SubchartValues[];
  /** Values paths the chart's templates read (`a.b`, subcharts' under their key; `*`: the values are handed on whole). */
  reads?: readonly string[];
}

/** One problem with a chart's values: the rule, the key, where it was written, and a hint. Values are never printed. */
/** A values finding: the shared finding model, always about a values key. */
export interface ValuesFinding extends Finding {
  /** Dotted path of the value, e.g. `service.port`. */
  path: string;
}

export interface CheckInput {
  chart: string;
  stack: string;
  contract: ValuesContract;
  layers: readonly ParsedLayer[];
  /** Values given in code (highest precedence); Outputs as deferred markers. */
  code?: Values;
  schemas: SchemaCache;
}

export interface CheckResult {
  findings: ValuesFinding[];
  /** The coalesced values Helm would render with (deferred values as placeholders). */
  values: Values;
  /** User values merged (files and code), before the chart's defaults. */
  user: Values;
  deferred: string[][];
}

/**
 * Validate like Helm does (the coalesced values against the chart's schema,
 * each subchart's part against its own schema, honouring `$schema`), and find
 * keys the user sets that neither defaults nor schema know. Values are never
 * printed: a values file may hold secrets.
 */
export function checkValues(input: CheckInput): CheckResult {
  const { values: code, deferred } = extractDeferred(input.code ?? {});
  const user = mergeLayers([...input.layers.map((layer) => layer.values), code]);
  const values = coalesce(user, withSubchartDefaults(input.contract));
  const findings: ValuesFinding[] = [];
  const isDeferred = (path: readonly string[]) => deferred.some((d) => d.length <= path.length && d.every((key, i) => key === path[i]));
  const report = (found: ValuesFinding) => {
    if (!isDeferred(found.path.split("."))) findings.push(found);
  };
  if (input.contract.schema !== undefined) {
    const { validate, problems } = input.schemas.prepare(input.contract.schema, input.contract.schemaDigest);
    findings.push(...problems.map((problem) => guardFinding(input, problem, [])));
    if (!validate(values)) for (const error of validate.errors ?? []) report(schemaFinding(input, error, [], values));
  }
  for (const sub of input.contract.subcharts) checkSubchart(input, sub, user, input.contract.defaults, [], report);
  // Keys are known at plan time even when their values are not: never deferred.
  const flagged = new Set(findings.filter((found) => found.rule === "additionalProperties").map((found) => found.path));
  for (const found of unknownKeys(user, input.contract, [])) {
    if (!flagged.has(found.path))
      findings.push({ ...found, chart: input.chart, stack: input.stack, position: positionOf(input.layers, found.path.split(".")) });
  }
  return { findings: findings.sort((a, b) => byText(a.path, b.path) || byText(a.rule, b.rule)), values, user, deferred };
}

/** The chart's defaults with each subchart's defaults under its key, as the user sees them. */
export function withSubchartDefaults(contract: Pick<ValuesContract, "defaults" | "subcharts">): Values {
  const nested: Values = {};
  for (const sub of contract.subcharts) nested[sub.key] = withSubchartDefaults(sub);
  return coalesce(contract.defaults, nested);
}

function checkSubchart(
  input: CheckInput,
  sub: SubchartValues,
  parentUser: Values,
  parentDefaults: Values,
  prefix: string[],
  report: (found: ValuesFinding) => void,
): void {
  const view = subchartView(parentUser, parentDefaults, sub.key, sub.defaults);
  const path = [...prefix, sub.key];
  if (sub.schemaDocument !== undefined) {
    const { validate, problems } = input.schemas.prepare(sub.schemaDocument, sub.schemaDigest);
    for (const problem of problems) report(guardFinding(input, problem, path));
    if (!validate(view)) for (const error of validate.errors ?? []) report(schemaFinding(input, error, path, view));
  }
  const section = subchartSection(parentUser, parentDefaults, sub.key);
  for (const inner of sub.subcharts) checkSubchart(input, inner, section, sub.defaults, path, report);
}

/**
 * A reference chartroom will not fetch, or a pattern RE2 refuses: an error,
 * since Helm would fetch it (or refuse the chart) at install. An unknown
 * meta-schema is a warning: the values are still validated whole (Helm 3
 * reads the schema as draft-07 too); only Helm 4 fetches it. Named by the
 * schema file (a subchart's under charts/) and the place in it.
 */
function guardFinding(input: CheckInput, problem: SchemaProblem, subchart: string[]): ValuesFinding {
  const file = [...subchart.map((key) => `charts/${key}/`), "values.schema.json"].join("");
  const what =
    problem.kind === "external-ref" || problem.kind === "meta-schema"
      ? `references ${JSON.stringify(problem.value)}`
      : problem.kind === "pattern"
        ? `has the pattern ${JSON.stringify(problem.value)}`
        : "is not a valid schema";
  return {
    chart: input.chart,
    stack: input.stack,
    severity: problem.kind === "meta-schema" ? "warning" : "error",
    rule:
      problem.kind === "external-ref" || problem.kind === "meta-schema"
        ? "schema-external-ref"
        : problem.kind === "pattern"
          ? "schema-pattern"
          : "schema-invalid",
    path: `${file}${problem.pointer}`,
    message: `the chart's ${file} ${what}: ${problem.reason}`,
    hint:
      problem.kind === "external-ref"
        ? "ask the chart's maintainers to inline the referenced schema; chartroom validates without that part"
        : problem.kind === "meta-schema"
          ? "nothing to do where Helm 3 deploys the chart; Helm 4 renders it only where it can fetch that URL (ask the chart's maintainers for a json-schema.org meta-schema)"
          : problem.kind === "pattern"
            ? "ask the chart's maintainers for a pattern Go's regexp accepts; chartroom validates without it"
            : "Helm refuses a chart whose schema is invalid: pin another version, or ask its maintainers",
  };
}

function schemaFinding(input: CheckInput, error: SchemaError, prefix: string[], root: Values): ValuesFinding {
  const path = [
    ...prefix,
    ...error.instancePath
      .split("/")
      .slice(1)
      .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~")),
  ];
  const params = error.params as Record<string, unknown>;
  const at = (extra: string[] = []) => {
    const full = [...path, ...extra];
    return { path: full.join("."), position: positionOf(input.layers, full) };
  };
  const base = { chart: input.chart, stack: input.stack, severity: "error" as const, rule: error.keyword };
  switch (error.keyword) {
    case "type":
      return {
        ...base,
        ...at(),
        message: `expected ${String(params.type)}, got ${typeName(valueAt(root, path.slice(prefix.length)))}`,
        hint: `set a value of type ${String(params.type)}`,
      };
    case "enum":
      return { ...base, ...at(), message: "not one of the values the chart allows", hint: `allowed: ${allowedList(params.allowedValues as unknown[])}` };
    case "required":
      return {
        ...base,
        ...at([String(params.missingProperty)]),
        message: "required by the chart's schema, but not set",
        hint: `set ${[...path, String(params.missingProperty)].join(".")} in values/${input.chart}/values.yaml`,
      };
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const match = nearest(
        key,
        Object.keys(
          isRecord((error.parentSchema as Record<string, unknown> | undefined)?.properties)
            ? ((error.parentSchema as Record<string, unknown>).properties as object)
            : {},
        ),
      );
      return {
        ...base,
        ...at([key]),
        message: "not allowed by the chart's schema (additionalProperties: false): Helm refuses these values",
        hint: match === undefined ? "remove it" : `did you mean "${[...path, match].join(".")}"?`,
      };
    }
    default:
      return { ...base, ...at(), message: error.message ?? error.keyword };
  }
}

/** The first values an enum allows, and how many more (a chart may list hundreds of thousands). */
function allowedList(values: readonly unknown[]): string {
  const shown = values
    .slice(0, 10)
    .map((value) => JSON.stringify(value))
    .join(", ");
  return values.length > 10 ? `${shown}, … (${values.length} in all)` : shown;
}

/** The templates' reads as prefixes: is a path read (or below a read), or above something read? */
function readIndex(reads: readonly string[]): { whole: boolean; at(path: readonly string[]): "taken" | "inside" | undefined } {
  const taken = new Set(reads);
  const above = new Set<string>();
  for (const read of reads) {
    const parts = read.split(".");
    for (let i = 1; i < parts.length; i++) above.add(parts.slice(0, i).join("."));
  }
  return {
    whole: taken.has("*"),
    at(path) {
      for (let i = 1; i <= path.length; i++) if (taken.has(path.slice(0, i).join("."))) return "taken";
      return above.has(path.join(".")) ? "inside" : undefined;
    },
  };
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) node = isRecord(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined;
  return node;
}

type Unknown = Pick<ValuesFinding, "severity" | "rule" | "path" | "message" | "hint">;

/**
 * Keys the user sets that neither the defaults nor the schema know. Maps
 * whose default is empty (`podAnnotations: {}`) and schema nodes with
 * additionalProperties or patternProperties are open: anything goes below.
 */
export function unknownKeys(user: Values, contract: ValuesContract, prefix: string[]): Unknown[] {
  const out: Unknown[] = [];
  const defaults = withSubchartDefaults(contract);
  const reads = readIndex(contract.reads ?? []);
  if (reads.whole) return out;
  const walk = (node: Values, known: unknown, schemaRoot: unknown, schema: unknown, path: string[]) => {
    const knownMap = isRecord(known) ? known : undefined;
    if (path.length > 0 && knownMap !== undefined && Object.keys(knownMap).length === 0) return;
    if (schemaIsOpen(schemaRoot, schema)) return;
    const candidates = [...Object.keys(knownMap ?? {}), ...schemaKeys(schemaRoot, schema)];
    for (const [key, value] of Object.entries(node)) {
      if (path.length === 0 && key === "global") continue;
      const sub = contract.subcharts.find((item) => path.length === 0 && item.key === key);
      const childSchema = sub !== undefined && sub.schemaDocument !== undefined ? sub.schemaDocument : schemaAt(schemaRoot, schema, key);
      const childRoot = sub !== undefined && sub.schemaDocument !== undefined ? sub.schemaDocument : schemaRoot;
      const read = reads.at([...path, key]);
      // A template reads this key, or a map above it (`toYaml .Values.extraEnv`): all of it is taken.
      if (read === "taken") continue;
      const isKnown = (knownMap !== undefined && Object.hasOwn(knownMap, key)) || childSchema !== undefined || read === "inside";
      if (!isKnown) {
        if (knownMap === undefined && schema === undefined) continue;
        const match = nearest(key, candidates);
        out.push({
          severity: "error",
          rule: "unknown-key",
          path: [...prefix, ...path, key].join("."),
          message: "the chart does not know this key: Helm ignores it and renders the default",
          hint: match === undefined ? "remove it, or check the chart's values.yaml" : `did you mean "${[...path, match].join(".")}"?`,
        });
        continue;
      }
      if (isRecord(value)) walk(value, knownMap?.[key], childRoot, childSchema, [...path, key]);
    }
  };
  walk(user, defaults, contract.schema, contract.schema, []);
  return out;
}
