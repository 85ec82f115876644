import type { KubernetesObject, PolicyRule } from "../model/policy.js";
import { AGREEMENT } from "./rules/agreement.js";
import { customResourceSchema, loadValidators, objectSchema, removedApi, validatorFor } from "./rules/cluster.js";
import { ENGINE_RULES } from "./rules/engine.js";
import { IDENTITY } from "./rules/identity.js";
import { loadKubernetesFields, unknownField } from "./rules/fields.js";
import { OWNERSHIP } from "./rules/ownership.js";
import { SECURITY } from "./rules/security.js";
import { WORKLOADS } from "./rules/workloads.js";

/** Every built-in rule, with the schema validators the objects need loaded. */
export async function builtinRules(objects: readonly KubernetesObject[]): Promise<PolicyRule[]> {
  const [validators, fields] = await Promise.all([loadValidators(objects), loadKubernetesFields()]);
  return [
    ...IDENTITY,
    ...AGREEMENT,
    ...OWNERSHIP,
    removedApi,
    objectSchema(validators),
    unknownField(fields),
    customResourceSchema,
    ...WORKLOADS,
    ...SECURITY,
    ...ENGINE_RULES,
  ];
}

/** The ids and descriptions of the built-in rules (for docs and `--help`). */
export const BUILTIN_RULE_IDS = [...IDENTITY, ...AGREEMENT, ...OWNERSHIP, removedApi, customResourceSchema, ...WORKLOADS, ...SECURITY, ...ENGINE_RULES]
  .map((rule) => rule.id)
  .concat("object-schema", "unknown-field")
  .sort();

// The kinds nearly every chart renders.
const COMMON_KINDS = [
  "apps/v1 Deployment",
  "apps/v1 StatefulSet",
  "apps/v1 DaemonSet",
  "v1 Service",
  "v1 ConfigMap",
  "v1 Secret",
  "v1 ServiceAccount",
  "batch/v1 Job",
  "networking.k8s.io/v1 Ingress",
  "autoscaling/v2 HorizontalPodAutoscaler",
  "rbac.authorization.k8s.io/v1 Role",
  "rbac.authorization.k8s.io/v1 RoleBinding",
];

/**
 * Start loading the schemas the rules need (about 90 ms of module loading)
 * while helm renders, so the rules do not wait for them afterwards.
 */
// Stryker disable all: a warm-up for speed; each rule loads what it needs when it runs either way.
export function warmPolicies(): void {
  void Promise.all([loadKubernetesFields(), ...COMMON_KINDS.map(validatorFor)]).catch(() => undefined);
}
// Stryker restore all
