// Regenerates src/policy/data/kubernetes-fields.json: the field names of
// every built-in Kubernetes kind and of the objects nested in it, from the
// schema of the Pulumi Kubernetes provider pinned in engine/kubernetes/go.mod.
// The policy rule `object-schema` reports fields that are not in it; types
// and required fields come from kubernetes-models, whose schemas keep what
// this one loses (a Quantity is a string here, a string or number there).
//
//   npx tsx scripts/kubernetes-fields.ts
//
// Needs Go (it asks `go mod download` where the provider module is).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fieldLines } from "../src/policy/rules/fields.js";

const ROOT = resolve(import.meta.dirname, "..");
const MODULE = "github.com/pulumi/pulumi-kubernetes/provider/v4";

interface Property {
  type?: string;
  $ref?: string;
  items?: Property;
  additionalProperties?: Property;
  oneOf?: Property[];
}
interface SchemaType {
  type?: string;
  properties?: Record<string, Property>;
}

const download = JSON.parse(execFileSync("go", ["mod", "download", "-json", MODULE], { cwd: join(ROOT, "engine", "kubernetes"), encoding: "utf8" })) as {
  Dir: string;
  Version: string;
};
const schema = JSON.parse(readFileSync(join(download.Dir, "cmd", "pulumi-resource-kubernetes", "schema.json"), "utf8")) as {
  resources: Record<string, SchemaType>;
  types: Record<string, SchemaType>;
};
const goMod = readFileSync(join(download.Dir, "go.mod"), "utf8");
const api = /k8s\.io\/api v0\.(\d+)\.\d+/.exec(goMod)?.[1];
if (api === undefined) throw new Error("no k8s.io/api in the provider's go.mod");

const PREFIX = "kubernetes:";
const lookup = (ref: string): SchemaType | undefined => schema.types[ref.replace(`#/types/${PREFIX}`, PREFIX)];
const nameOf = (ref: string) => ref.replace(`#/types/${PREFIX}`, "");

// Field codes: "" a value whose keys are not checked (a scalar, a free
// object); a type name; "[T" a list of T; "{T" a map of T.
function code(property: Property, wanted: string[]): string {
  if (property.$ref !== undefined) {
    if (!property.$ref.startsWith("#/types/") || lookup(property.$ref)?.type === "string") return ""; // Any, Json, a string enum
    if (property.$ref.endsWith(":JSONSchemaProps")) return ""; // Pulumi renames its x-kubernetes-* keys
    wanted.push(nameOf(property.$ref));
    return nameOf(property.$ref);
  }
  if (property.type === "array" && property.items !== undefined) return nest("[", code(property.items, wanted));
  if (property.type === "object" && property.additionalProperties !== undefined) return nest("{", code(property.additionalProperties, wanted));
  return "";
}

const nest = (prefix: string, inner: string) => (inner === "" ? "" : `${prefix}${inner}`);

const types: Record<string, Record<string, string>> = {};
const kinds: Record<string, string> = {};
const wanted: string[] = [];

function add(name: string, type: SchemaType, resource: boolean): void {
  const fields: Record<string, string> = {};
  for (const [field, property] of Object.entries(type.properties ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    // status is written by controllers; a chart that ships one is not wrong for it.
    fields[field] = resource && field === "status" ? "" : code(property, wanted);
  }
  types[name] = fields;
}

for (const [token, resource] of Object.entries(schema.resources).sort(([a], [b]) => a.localeCompare(b))) {
  const [, groupVersion = "", kind = ""] = token.split(":");
  if (
    kind.endsWith("Patch") ||
    kind.endsWith("List") ||
    groupVersion.startsWith("helm.sh") ||
    groupVersion.startsWith("yaml") ||
    groupVersion.startsWith("kustomize")
  )
    continue;
  const apiVersion = groupVersion.startsWith("core/") ? groupVersion.slice("core/".length) : groupVersion;
  const name = `${groupVersion}:${kind}`;
  kinds[`${apiVersion} ${kind}`] = name;
  add(name, resource, true);
}
while (wanted.length > 0) {
  const name = wanted.pop() ?? "";
  if (types[name] !== undefined) continue;
  const type = schema.types[`${PREFIX}${name}`];
  if (type === undefined) throw new Error(`the schema refers to ${name}, which it does not define`);
  add(name, type, false);
}

// Each type's fields as the table holds them: one `name code` per line (src/policy/rules/fields.ts reads a type on first use).
const sorted = Object.fromEntries(
  Object.entries(types)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, fields]) => [name, fieldLines(fields)]),
);
const out = {
  source: `${MODULE}@${download.Version} cmd/pulumi-resource-kubernetes/schema.json (k8s.io/api v0.${api}: Kubernetes 1.${api})`,
  kubernetes: `1.${api}`,
  kinds,
  types: sorted,
};
const file = join(ROOT, "src", "policy", "data", "kubernetes-fields.json");
writeFileSync(file, `${JSON.stringify(out)}\n`);
console.log(`${Object.keys(kinds).length} kinds, ${Object.keys(sorted).length} types → ${file}`);
