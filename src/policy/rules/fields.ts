import { createRequire } from "node:module";
import * as semver from "../../util/semver.js";
import type { PolicyRule, RuleResult } from "../../model/policy.js";
import { installedFile } from "../../util/installed.js";
import { entryOf, isRecord } from "../../util/json.js";

/**
 * The field names of every built-in kind, from the Pulumi Kubernetes
 * provider's schema (scripts/kubernetes-fields.ts writes it). A field code is
 * "" (its keys are not checked), a type name, "[T" (a list of T) or "{T" (a
 * map of T).
 */
export interface KubernetesFields {
  source: string;
  /** `1.33`: the Kubernetes API the names are from. */
  kubernetes: string;
  /** `apps/v1 Deployment` → its type name. */
  kinds: Record<string, string>;
  /**
   * Type name → its fields, one `name code` per line (`fieldLines`). As
   * text, each read into a map the first time an object reaches it: parsed
   * as 761 objects of as many shapes, the table cost every review that runs
   * the rules ≈3 ms of CPU; as text ≈1 ms, and a chart reaches some sixty types.
   */
  types: Record<string, string>;
}

/** A type's fields as the table holds them. */
export function fieldLines(fields: Readonly<Record<string, string>>): string {
  return Object.entries(fields)
    .map(([name, code]) => `${name} ${code}`)
    .join("\n");
}

/** The table, read on first use (116 kB: only policy runs need it). */
export async function loadKubernetesFields(): Promise<KubernetesFields> {
  // Required, not imported: Node 20 warns on every JSON module import.
  return createRequire(import.meta.url)(installedFile("policy", "data", "kubernetes-fields.json")) as KubernetesFields;
}

// Each table's types read so far.
const readTypes = new WeakMap<KubernetesFields, Map<string, ReadonlyMap<string, string> | undefined>>();

/** A type's fields (name → code), or undefined for a type the table does not have. */
function fieldsOf(table: KubernetesFields, type: string): ReadonlyMap<string, string> | undefined {
  const read = readTypes.get(table) ?? newRead(table);
  // Stryker disable next-line ConditionalExpression: the memo only spares reading a type's text again (the same fields).
  if (read.has(type)) return read.get(type);
  const text = entryOf(table.types, type);
  const fields = text === undefined ? undefined : new Map(text === "" ? [] : text.split("\n").map(fieldOf));
  read.set(type, fields);
  return fields;
}

function newRead(table: KubernetesFields): Map<string, ReadonlyMap<string, string> | undefined> {
  const read = new Map<string, ReadonlyMap<string, string> | undefined>();
  readTypes.set(table, read);
  return read;
}

function fieldOf(line: string): [string, string] {
  const space = line.indexOf(" ");
  return [line.slice(0, space), line.slice(space + 1)];
}

/**
 * Fields the Kubernetes API does not have: a typo (`imagePullPolicey`), a
 * value put one level off (`resources` under the pod instead of the
 * container). The API server drops them, or refuses the object under strict
 * field validation; either way the setting never takes effect.
 */
export function unknownField(table: KubernetesFields): PolicyRule {
  return {
    id: "unknown-field",
    description: `Objects of built-in kinds have only fields the Kubernetes API knows (the ${table.kubernetes} API).`,
    severity: "error",
    check(objects, context) {
      const newer = semver.coerce(context.kubeVersion ?? "");
      const beyond =
        newer !== null && semver.gt(newer, semver.coerce(`${table.kubernetes}.999`) as semver.SemVer)
          ? `; stack ${context.stack} runs ${context.kubeVersion}, newer: if the field is new there, add an exception`
          : "";
      const out: RuleResult[] = [];
      for (const object of objects) {
        const type = table.kinds[`${object.apiVersion} ${object.kind}`];
        if (type === undefined) continue;
        walkType(table, object.body, type, "", (path, key) => {
          out.push({
            object,
            path,
            message: `unknown field "${key}": the Kubernetes ${table.kubernetes} API has no such field here${beyond}`,
            hint: "remove the field or fix its name or indentation in the chart's template or the value that fills it",
          });
        });
      }
      return out;
    },
  };
}

type Report = (path: string, key: string) => void;

function walkType(table: KubernetesFields, value: unknown, type: string, path: string, report: Report): void {
  const fields = fieldsOf(table, type);
  if (fields === undefined || !isRecord(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const at = path === "" ? key : `${path}.${key}`;
    const code = fields.get(key);
    if (code === undefined) report(at, key);
    else walkCode(table, child, code, at, report);
  }
}

function walkCode(table: KubernetesFields, value: unknown, code: string, path: string, report: Report): void {
  if (code === "") return;
  if (code.startsWith("[")) {
    if (!Array.isArray(value)) return;
    for (const [i, item] of value.entries()) {
      walkCode(table, item, code.slice(1), `${path}[${isRecord(item) && typeof item.name === "string" ? `name=${item.name}` : i}]`, report);
    }
  } else if (code.startsWith("{")) {
    if (!isRecord(value)) return;
    for (const [key, item] of Object.entries(value)) walkCode(table, item, code.slice(1), `${path}.${key}`, report);
  } else {
    walkType(table, value, code, path, report);
  }
}
