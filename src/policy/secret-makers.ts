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
 * time, if any: one whose containers pass the name as an argument
 * (`--secret-name=x` or `x`) and whose service account the stack allows to
 * create Secrets there. A hook counts only where the engine runs hooks
 * (a post-install one runs after the pods that would wait for it); the pod
 * that waits for the Secret (`consumer`) cannot be the one that makes it.
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
    if (pod === undefined || !containers(pod).some(({ container }) => namesInArguments(container, name))) return false;
    const account = text(pod.spec.serviceAccountName) ?? text(pod.spec.serviceAccount) ?? "default";
    return mayCreateSecrets(objects, namespace, account);
  });
}

function namesInArguments(container: Json, name: string): boolean {
  const words = [container.args, container.command]
    .flatMap((value) => (Array.isArray(value) ? value : []))
    .filter((word): word is string => typeof word === "string");
  return words.some((word) => word === name || word.endsWith(`=${name}`));
}

/** Whether a Role or ClusterRole of the stack that grants `create` on Secrets is bound to the service account. */
function mayCreateSecrets(objects: readonly KubernetesObject[], namespace: string, account: string): boolean {
  const group = "rbac.authorization.k8s.io";
  const grants = (role: KubernetesObject) =>
    list(role.body.rules).some((rule) => wants(rule.resources, "secrets") && wants(rule.verbs, "create") && wants(rule.apiGroups, ""));
  return objects.some((binding) => {
    if (binding.group !== group || (binding.kind !== "RoleBinding" && binding.kind !== "ClusterRoleBinding")) return false;
    const bound = list(binding.body.subjects).some(
      (subject) => subject.kind === "ServiceAccount" && subject.name === account && (text(subject.namespace) ?? binding.namespace) === namespace,
    );
    if (!bound) return false;
    const ref = record(binding.body.roleRef);
    const roleNamespace = ref.kind === "ClusterRole" ? "" : binding.namespace;
    return objects.some((role) => role.group === group && role.kind === ref.kind && role.name === ref.name && role.namespace === roleNamespace && grants(role));
  });
}

/** Whether an RBAC list (verbs, resources, apiGroups) holds the value or "*". */
function wants(values: unknown, value: string): boolean {
  return Array.isArray(values) && values.some((item) => item === value || item === "*");
}
