// Secrets no template renders but a program of the stack makes: an admission
// webhook's certificate, which kube-prometheus-stack and ingress-nginx have a
// pre-install Job (kube-webhook-certgen) create as `--secret-name=<name>`
// before the Deployment that mounts it exists, and KEDA's operator makes as
// it starts (`--cert-secret-name=kedaorg-certs`) while the pods that mount it
// wait for it.
import type { KubernetesObject, PolicyContext } from "../model/policy.js";
import { containers, list, podTemplate, record, text, type Json } from "./objects.js";

/**
 * The workload or pre-install hook that makes Secret `namespace/name` at run
 * time, if any: one whose service account the stack allows to create
 * Secrets there, and that names this one, in its containers' arguments
 * (`--secret-name=x` or `x`) or in the `resourceNames` of its Secret rules
 * (argo-cd's redis-secret-init Job, whose program has the name built in).
 * A hook counts only where the engine runs hooks (a post-install one runs
 * after the pods that would wait for it); the pod that waits for the Secret
 * (`consumer`) cannot be the one that makes it.
 */
export function secretMaker(
  context: PolicyContext,
  namespace: string,
  name: string,
  { hooksRun, consumer }: { hooksRun: boolean; consumer?: KubernetesObject },
): KubernetesObject | undefined {
  const objects = [...context.charts.values()].flat();
  const runs = (object: KubernetesObject) => (object.hook === undefined ? object !== consumer : hooksRun && object.hook.events.includes("pre-install"));
  return objects.find((object) => {
    const pod = object.namespace === namespace && runs(object) ? podTemplate(object) : undefined;
    if (pod === undefined) return false;
    const account = text(pod.spec.serviceAccountName) ?? text(pod.spec.serviceAccount) ?? "default";
    const rules = secretRules(objects, namespace, account);
    if (!rules.some((rule) => wants(rule.verbs, "create"))) return false;
    return containers(pod).some(({ container }) => namesInArguments(container, name)) || rules.some((rule) => names(rule, name));
  });
}

function namesInArguments(container: Json, name: string): boolean {
  const words = [container.args, container.command]
    .flatMap((value) => (Array.isArray(value) ? value : []))
    .filter((word): word is string => typeof word === "string");
  return words.some((word) => word === name || word.endsWith(`=${name}`));
}

function names(rule: Json, name: string): boolean {
  return Array.isArray(rule.resourceNames) && rule.resourceNames.includes(name);
}

/**
 * The rules on core Secrets that the stack's Roles and ClusterRoles grant the
 * service account in `namespace`: through a RoleBinding there, or a
 * ClusterRoleBinding.
 */
function secretRules(objects: readonly KubernetesObject[], namespace: string, account: string): Json[] {
  const group = "rbac.authorization.k8s.io";
  return objects.flatMap((binding) => {
    if (binding.group !== group || !(binding.kind === "ClusterRoleBinding" || (binding.kind === "RoleBinding" && binding.namespace === namespace))) return [];
    const bound = list(binding.body.subjects).some(
      (subject) => subject.kind === "ServiceAccount" && subject.name === account && (text(subject.namespace) ?? binding.namespace) === namespace,
    );
    if (!bound) return [];
    const ref = record(binding.body.roleRef);
    const roleNamespace = ref.kind === "ClusterRole" ? "" : binding.namespace;
    return objects
      .filter((role) => role.group === group && role.kind === ref.kind && role.name === ref.name && role.namespace === roleNamespace)
      .flatMap((role) => list(role.body.rules))
      .filter((rule) => wants(rule.resources, "secrets") && wants(rule.apiGroups, ""));
  });
}

/** Whether an RBAC list (verbs, resources, apiGroups) holds the value or "*". */
function wants(values: unknown, value: string): boolean {
  return Array.isArray(values) && values.some((item) => item === value || item === "*");
}
