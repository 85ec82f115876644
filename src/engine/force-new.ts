import type { RenderedObject } from "../model/objects.js";
import type { Segment } from "../util/tree-path.js";

/**
 * Fields whose change makes the Kubernetes provider replace a helm.v4.Chart
 * child instead of updating it: its `forceNew` table (pkg/provider/diff.go of
 * pulumi-kubernetes), keyed by `group/version/Kind`. `*` is any list item.
 * ConfigMap and Secret contents are here too: the provider replaces them
 * unless it runs with enableConfigMapMutable / enableSecretMutable.
 */
const CONTAINER = [
  "args",
  "command",
  "env",
  "image",
  "imagePullPolicy",
  "lifecycle",
  "livenessProbe",
  "ports",
  "readinessProbe",
  "resources",
  "securityContext",
  "stdin",
  "stdinOnce",
  "terminationMessagePath",
  "terminationMessagePolicy",
  "tty",
  "volumeDevices",
  "volumeMounts",
  "workingDir",
];
const POD = [
  ...[
    "affinity",
    "automountServiceAccountToken",
    "dnsConfig",
    "dnsPolicy",
    "enableServiceLinks",
    "hostAliases",
    "hostIPC",
    "hostNetwork",
    "hostPID",
    "hostname",
    "imagePullSecrets",
    "nodeName",
    "nodeSelector",
    "overhead",
    "preemptionPolicy",
    "priority",
    "priorityClassName",
    "readinessGates",
    "restartPolicy",
    "runtimeClassName",
    "schedulerName",
    "securityContext",
    "serviceAccount",
    "serviceAccountName",
    "shareProcessNamespace",
    "subdomain",
    "terminationGracePeriodSeconds",
    "volumes",
  ].map((field) => `spec.${field}`),
  ...CONTAINER.flatMap((field) => [`spec.containers.*.${field}`, `spec.initContainers.*.${field}`]),
];
const PERSISTENT_VOLUME = [
  "awsElasticBlockStore",
  "azureDisk",
  "azureFile",
  "cephfs",
  "cinder",
  "csi",
  "fc",
  "flexVolume",
  "flocker",
  "gcePersistentDisk",
  "glusterfs",
  "hostPath",
  "iscsi",
  "local",
  "nfs",
  "photonPersistentDisk",
  "portworxVolume",
  "quobyte",
  "rbd",
  "scaleIO",
  "storageos",
  "vsphereVolume",
].map((field) => `spec.${field}`);
const STATEFUL_SET = ["spec.podManagementPolicy", "spec.revisionHistoryLimit", "spec.selector", "spec.serviceName", "spec.volumeClaimTemplates"];
const JOB = ["spec.completions", "spec.parallelism", "spec.selector", "spec.template"];
const BINDING = ["roleRef"];

const FORCE_NEW: Record<string, string[]> = {
  "apps/v1beta1/StatefulSet": STATEFUL_SET,
  ...Object.fromEntries(
    ["v1beta2", "v1"].flatMap((version) => [
      [`apps/${version}/DaemonSet`, ["spec.selector"]],
      [`apps/${version}/Deployment`, ["spec.selector"]],
      [`apps/${version}/StatefulSet`, STATEFUL_SET],
    ]),
  ),
  "/v1/PersistentVolume": PERSISTENT_VOLUME,
  "/v1/PersistentVolumeClaim": ["spec.accessModes", "spec.selector", "spec.storageClassName", "spec.volumeName"],
  "/v1/Pod": POD,
  "/v1/ResourceQuota": ["spec.scopes"],
  "/v1/Secret": ["type", "stringData", "data"],
  "/v1/ConfigMap": ["binaryData", "data"],
  "/v1/Service": ["spec.clusterIP"],
  "policy/v1beta1/PodDisruptionBudget": ["spec"],
  ...Object.fromEntries(
    ["v1alpha1", "v1beta1", "v1"].flatMap((version) => [
      [`rbac.authorization.k8s.io/${version}/ClusterRoleBinding`, BINDING],
      [`rbac.authorization.k8s.io/${version}/RoleBinding`, BINDING],
    ]),
  ),
  "storage.k8s.io/v1/StorageClass": ["parameters", "provisioner"],
  ...Object.fromEntries(["v1beta1", "v1", "v2alpha1"].map((version) => [`batch/${version}/Job`, JOB])),
};

const PARSED = new Map(Object.entries(FORCE_NEW).map(([key, paths]) => [key, paths.map((path) => path.split("."))]));

/** The provider's replacement fields for an object, as key paths (`*` for any list item). */
export function pulumiForceNew(object: Pick<RenderedObject, "group" | "kind" | "apiVersion">): string[][] {
  const version = object.apiVersion.includes("/") ? object.apiVersion.split("/")[1] : object.apiVersion;
  return PARSED.get(`${object.group}/${version}/${object.kind}`) ?? [];
}

/**
 * Whether a change at `path` touches a forceNew field: the field itself,
 * something inside it, or a whole map or list that holds it.
 */
export function hitsForceNew(path: readonly Segment[], fields: readonly string[][]): string[] | undefined {
  return fields.find((field) => {
    const length = Math.min(field.length, path.length);
    for (let i = 0; i < length; i++) {
      const segment = path[i] as Segment;
      const step = field[i];
      if (step === "*") {
        if ("key" in segment) return false;
      } else if (!("key" in segment) || segment.key !== step) {
        return false;
      }
    }
    return true;
  });
}
