/** Built-in kinds that live outside namespaces (kubectl api-resources --namespaced=false). */
export const CLUSTER_SCOPED = new Set([
  "/Namespace",
  "/Node",
  "/PersistentVolume",
  "/ComponentStatus",
  "rbac.authorization.k8s.io/ClusterRole",
  "rbac.authorization.k8s.io/ClusterRoleBinding",
  "apiextensions.k8s.io/CustomResourceDefinition",
  "storage.k8s.io/StorageClass",
  "storage.k8s.io/CSIDriver",
  "storage.k8s.io/CSINode",
  "storage.k8s.io/VolumeAttachment",
  "scheduling.k8s.io/PriorityClass",
  "admissionregistration.k8s.io/ValidatingWebhookConfiguration",
  "admissionregistration.k8s.io/MutatingWebhookConfiguration",
  "admissionregistration.k8s.io/ValidatingAdmissionPolicy",
  "admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding",
  "apiregistration.k8s.io/APIService",
  "node.k8s.io/RuntimeClass",
  "networking.k8s.io/IngressClass",
  "certificates.k8s.io/CertificateSigningRequest",
  "flowcontrol.apiserver.k8s.io/FlowSchema",
  "flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration",
]);

export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash === -1 ? "" : apiVersion.slice(0, slash);
}

// API groups Kubernetes serves itself: anything else is a custom resource.
const BUILT_IN_GROUPS = new Set(["", "apps", "batch", "autoscaling", "policy", "extensions"]);

/** An object of a kind no built-in API serves (what an operator reconciles). */
export function isCustomResource(object: { group: string }): boolean {
  return !BUILT_IN_GROUPS.has(object.group) && !object.group.endsWith(".k8s.io");
}
