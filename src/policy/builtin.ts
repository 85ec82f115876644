import type { KubernetesObject, PolicyRule } from "../model/policy.js";
import { AGREEMENT } from "./rules/agreement.js";
import { customResourceSchema, loadValidators, objectSchema, removedApi } from "./rules/cluster.js";
import { ENGINE } from "./rules/engine.js";
import { loadKubernetesFields, unknownField } from "./rules/fields.js";
import { OWNERSHIP } from "./rules/ownership.js";
import { SECURITY } from "./rules/security.js";
import { WORKLOADS } from "./rules/workloads.js";

/** Every built-in rule, with the schema validators the objects need loaded. */
export async function builtinRules(objects: readonly KubernetesObject[]): Promise<PolicyRule[]> {
  const [validators, fields] = await Promise.all([loadValidators(objects), loadKubernetesFields()]);
  return [...AGREEMENT, ...OWNERSHIP, removedApi, objectSchema(validators), unknownField(fields), customResourceSchema, ...WORKLOADS, ...SECURITY, ...ENGINE];
}

/** The ids and descriptions of the built-in rules (for docs and `--help`). */
export const BUILTIN_RULE_IDS = [...AGREEMENT, ...OWNERSHIP, removedApi, customResourceSchema, ...WORKLOADS, ...SECURITY, ...ENGINE].map((rule) => rule.id).concat("object-schema", "unknown-field").sort();
