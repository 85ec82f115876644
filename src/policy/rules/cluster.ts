import * as semver from "../../util/semver.js";
import type { KubernetesObject, PolicyRule, RuleResult } from "../../model/policy.js";
import { list, record, text } from "../objects.js";
import { sealedBytes, sealedNotBase64 } from "../../util/sealed.js";
import { REMOVED_APIS } from "../removed-apis.js";
import { structuralProblems } from "../structural.js";

// The target cluster: what its API server will refuse.

export const removedApi: PolicyRule = {
  id: "removed-api",
  description: "No object uses an API version removed at or before the stack's Kubernetes version.",
  severity: "error",
  check(objects, context) {
    const version = semver.coerce(context.kubeVersion ?? "");
    if (version === null) return [];
    const out: RuleResult[] = [];
    for (const object of objects) {
      const removed = REMOVED_APIS.find((entry) => entry.apiVersion === object.apiVersion && (entry.kinds.length === 0 || entry.kinds.includes(object.kind)));
      if (removed === undefined || semver.lt(version, semver.coerce(removed.removedIn) as semver.SemVer)) continue;
      out.push({
        object,
        path: "apiVersion",
        message: `uses ${object.apiVersion}, removed in Kubernetes ${removed.removedIn}; stack ${context.stack} runs ${context.kubeVersion}`,
        hint: `use ${removed.use} (upgrade the chart, or set the chart's API version value)`,
      });
    }
    return out;
  },
};

/** One object's schema problems: `path: message` pairs. */
export type ObjectValidator = (body: unknown) => { path: string; message: string }[];

/**
 * Built-in kinds against the Kubernetes OpenAPI schemas that
 * kubernetes-models 4.5.1 ships (Kubernetes 1.32's, with pod-level
 * `resources`): wrong types, missing required fields. Its validators accept
 * fields they do not know: the rule unknown-field reports those.
 */
export async function loadValidators(objects: readonly KubernetesObject[]): Promise<Map<string, ObjectValidator>> {
  const wanted = [...new Set(objects.map((object) => `${object.apiVersion} ${object.kind}`))];
  const found = await Promise.all(wanted.map((entry) => validatorFor(entry)));
  return new Map(wanted.flatMap((entry, i) => (found[i] === undefined ? [] : [[entry, found[i]] as const])));
}

// Module imports are per process anyway: one promise per kind for the process.
const validators = new Map<string, Promise<ObjectValidator | undefined>>();

/** The validator of one `apiVersion kind`, or undefined for kinds the package does not ship (custom resources). */
export function validatorFor(entry: string): Promise<ObjectValidator | undefined> {
  let hit = validators.get(entry);
  // Stryker disable next-line ConditionalExpression: importing again gives the same validator, only slower.
  if (hit === undefined) {
    hit = importValidator(entry);
    validators.set(entry, hit);
  }
  return hit;
}

async function importValidator(entry: string): Promise<ObjectValidator | undefined> {
  const module = modelModule(entry);
  if (module === undefined) return undefined;
  const loaded = (await import(/* @vite-ignore */ module).catch(() => undefined)) as
    | Record<string, { prototype: { validate(this: unknown): void } }>
    | undefined;
  const Model = loaded?.[entry.slice(entry.indexOf(" ") + 1)];
  if (Model === undefined) return undefined;
  // The model's validate on the body itself: constructing a model deep-copies the object first.
  const validate = Model.prototype.validate;
  return (body) => {
    try {
      validate.call(body);
      return [];
    } catch (error) {
      const errors = (error as { errors?: { instancePath: string; message?: string }[] }).errors ?? [];
      // Stryker disable next-line Regex: an instancePath is empty or starts with its first slash, so the anchor changes nothing.
      return errors.map((e) => ({ path: e.instancePath.replace(/^\//, "").replace(/\//g, ".") || "(object)", message: e.message ?? "is not valid" }));
    }
  };
}

/**
 * The kubernetes-models module of `apiVersion kind`: one kind's (its group's
 * index loads every kind of the group). None where the package cannot hold
 * it. It ships Kubernetes' own groups only, and a custom resource's group has
 * a dot and is not under k8s.io (monitoring.coreos.com): its import would fail
 * only after a search of node_modules, ≈1.9 ms of a cold review for the first
 * such kind. A test holds every group the package ships to this.
 */
export function modelModule(entry: string): string | undefined {
  const [apiVersion = "", kind = ""] = entry.split(" ");
  const module = apiVersion.includes("/") ? apiVersion : "v1";
  // Stryker disable next-line Regex: the package exports only <group>/<version>/<Kind>, so a looser pattern lets through only names
  // whose import fails (or whose module lacks the kind), and no Kubernetes version has two digits after alpha or beta.
  if (!/^[a-z0-9.]*\/?v\d+((alpha|beta)\d+)?$/.test(module) || !/^[A-Z][A-Za-z0-9]*$/.test(kind) || (apiVersion !== "v1" && !apiVersion.includes("/")))
    return undefined;
  const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";
  if (group.includes(".") && !group.endsWith(".k8s.io")) return undefined;
  return `kubernetes-models/${module}/${kind}`;
}

/** The built-in-kind schema rule over validators loaded beforehand (loading is the async part). */
export function objectSchema(validators: ReadonlyMap<string, ObjectValidator>): PolicyRule {
  return {
    id: "object-schema",
    description: "Objects of built-in kinds fit the Kubernetes OpenAPI schema (types, required fields).",
    severity: "error",
    check(objects) {
      const out: RuleResult[] = [];
      for (const object of objects) {
        const validate = validators.get(`${object.apiVersion} ${object.kind}`);
        for (const problem of validate?.(unsealed(object)) ?? [])
          out.push({ object, path: problem.path, message: problem.message, hint: "fix the field in the chart's template or the value that fills it" });
      }
      return out;
    },
  };
}

/**
 * A Secret as the schema should see it: sealed values stand for strings the
 * schema accepts, except `data` values that were not base64 when sealed.
 */
function unsealed(object: KubernetesObject): unknown {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: only core Secrets are sealed, so no other object holds a sealed value to stand in for.
  if (object.group !== "" || object.kind !== "Secret") return object.body;
  const body = { ...object.body };
  for (const field of ["data", "stringData"]) {
    const values = body[field];
    if (typeof values !== "object" || values === null || Array.isArray(values)) continue;
    body[field] = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, sealedBytes(value) === undefined ? value : sealedNotBase64(value) ? "!not base64!" : ""]),
    );
  }
  return body;
}

/** Custom resources against the openAPIV3Schema of a CRD shipped in the same stack. */
export const customResourceSchema: PolicyRule = {
  id: "custom-resource-schema",
  description: "Custom resources fit the openAPIV3Schema of their CustomResourceDefinition when the stack ships it.",
  severity: "error",
  check(objects, context) {
    const schemas = crdSchemas(context.charts);
    const out: RuleResult[] = [];
    for (const object of objects) {
      const schema = schemas.get(`${object.apiVersion} ${object.kind}`);
      for (const problem of schema === undefined ? [] : (structuralProblems(schema, object.body) ?? []))
        out.push({
          object,
          path: problem.path,
          message: `${problem.message} (CustomResourceDefinition schema)`,
          hint: "fix the field so it fits the CRD the stack installs",
        });
    }
    return out;
  },
};

// Once per stack, not once per chart.
const indexed = new WeakMap<ReadonlyMap<string, readonly KubernetesObject[]>, Map<string, Record<string, unknown>>>();

/** The stack's CRD schemas by `group/version Kind` (apiextensions CRDs that name their group and kind). */
function crdSchemas(charts: ReadonlyMap<string, readonly KubernetesObject[]>): Map<string, Record<string, unknown>> {
  const cached = indexed.get(charts);
  // Stryker disable next-line ConditionalExpression: indexing again gives the same schemas, only slower.
  if (cached !== undefined) return cached;
  const out = new Map<string, Record<string, unknown>>();
  for (const crd of [...charts.values()].flat().filter((object) => object.kind === "CustomResourceDefinition" && object.group === "apiextensions.k8s.io")) {
    const spec = record(crd.body.spec);
    const group = text(spec.group);
    const kind = text(record(spec.names).kind);
    for (const version of list(spec.versions)) {
      const schema = record(record(version.schema).openAPIV3Schema);
      if (group === undefined || kind === undefined || Object.keys(schema).length === 0) continue;
      out.set(`${group}/${String(version.name)} ${kind}`, schema);
    }
  }
  indexed.set(charts, out);
  return out;
}
