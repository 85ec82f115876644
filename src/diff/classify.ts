import type { RenderedObject } from "../model/objects.js";
import { isRecord } from "../util/json.js";
import { startsWith, type Segment } from "../util/tree-path.js";

/** Labels Helm charts rewrite on every version. */
const BOOKKEEPING_LABELS = new Set(["helm.sh/chart", "app.kubernetes.io/version", "chart"]);

/** Labels and annotations Helm charts rewrite on every version; noise in a review. */
export function isBookkeeping(path: readonly Segment[]): boolean {
  const last = path.at(-1);
  const parent = path.at(-2);
  if (last === undefined || parent === undefined || !("key" in last) || !("key" in parent)) return false;
  if (parent.key === "labels") return BOOKKEEPING_LABELS.has(last.key);
  if (parent.key === "annotations") return last.key.startsWith("checksum/");
  return false;
}

/** Field prefixes the API server will not update in place, per group/Kind. */
const IMMUTABLE: Record<string, string[][]> = {
  "apps/Deployment": [["spec", "selector"]],
  "apps/ReplicaSet": [["spec", "selector"]],
  "apps/DaemonSet": [["spec", "selector"]],
  "apps/StatefulSet": [
    ["spec", "selector"],
    ["spec", "volumeClaimTemplates"],
    ["spec", "serviceName"],
    ["spec", "podManagementPolicy"],
  ],
  "batch/Job": [
    ["spec", "template"],
    ["spec", "selector"],
  ],
  "/Service": [
    ["spec", "clusterIP"],
    ["spec", "clusterIPs"],
  ],
  "/PersistentVolumeClaim": [
    ["spec", "accessModes"],
    ["spec", "storageClassName"],
    ["spec", "volumeName"],
    ["spec", "selector"],
    ["spec", "volumeMode"],
    ["spec", "dataSource"],
    ["spec", "dataSourceRef"],
  ],
  "rbac.authorization.k8s.io/RoleBinding": [["roleRef"]],
  "rbac.authorization.k8s.io/ClusterRoleBinding": [["roleRef"]],
};

/** The immutable prefixes of this object (ConfigMaps and Secrets only when marked immutable on both sides). */
export function immutablePrefixes(before: RenderedObject, after: RenderedObject): string[][] {
  const key = `${after.group}/${after.kind}`;
  const prefixes = [...(IMMUTABLE[key] ?? [])];
  if ((key === "/ConfigMap" || key === "/Secret") && before.body.immutable === true && after.body.immutable === true) {
    prefixes.push(["data"], ["binaryData"], ["stringData"]);
  }
  return prefixes;
}

export function hitsImmutable(path: readonly Segment[], prefixes: string[][]): string[] | undefined {
  return prefixes.find((prefix) => startsWith(path, prefix));
}

export function isSecret(object: Pick<RenderedObject, "group" | "kind">): boolean {
  return object.group === "" && object.kind === "Secret";
}

/** Leaf (path, value) pairs, for rename similarity. */
export function leaves(value: unknown, prefix = "", out = new Set<string>()): Set<string> {
  if (isRecord(value)) for (const [key, item] of Object.entries(value)) leaves(item, `${prefix}.${key}`, out);
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) leaves(item, `${prefix}[${i}]`, out);
  else out.add(`${prefix}=${JSON.stringify(value)}`);
  return out;
}
