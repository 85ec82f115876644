// The rights an identity needs to deploy a stack, per kind and namespace,
// from what the stack renders and what each engine does with it: the
// provider applies every object server-side (get, patch, create, and delete
// when it goes) and watches it and its pods to await readiness; Helm also
// keeps its release record in Secrets and runs hooks. Creating a Role or a
// binding needs `escalate`/`bind` on it, or the rights it grants. Pure: the
// cluster's names for the kinds are given.
import type { EngineName } from "../model/engine.js";
import { displayName, type RenderedObject } from "../model/objects.js";
import { isRecord } from "../util/json.js";
import { byText } from "../util/order.js";

/** One right: verbs on a resource of a group, in a namespace ("" cluster-wide), maybe for named objects only. */
export interface Right {
  group: string;
  resource: string;
  namespace: string;
  verbs: string[];
  resourceNames?: string[];
  /** Why the stack needs it: the first object that does, and its chart. */
  for: string;
  chart: string;
  /** `escalate` on a role is not needed when the identity holds every right the role grants (these). */
  heldInstead?: Right[];
}

/** One chart of a stack as the rights see it: its engine, its release, and its objects with the cluster's resource names. */
export interface RightsChart {
  key: string;
  engine: EngineName;
  release: { name: string; namespace: string };
  objects: readonly (RenderedObject & { resource: string; namespaced: boolean })[];
}

const APPLY = ["get", "list", "watch", "create", "patch", "delete"];
/** helm upgrade patches, and replaces (update) with --force; the release record is updated in place. */
const HELM = [...APPLY, "update"];
const RECORD = ["get", "list", "create", "update", "patch", "delete"];
const WATCH = ["list", "watch"];
const RBAC = "rbac.authorization.k8s.io";

/** Namespaces every cluster has: deployCharts never creates them. */
export const BUILT_IN_NAMESPACES: ReadonlySet<string> = new Set(["default", "kube-system", "kube-public", "kube-node-lease"]);

/** What readiness watches besides the object itself (the provider's awaiters; Helm's wait reads the same). */
const AWAITS: Record<string, readonly [string, string][]> = {
  "apps/Deployment": [
    ["apps", "replicasets"],
    ["", "pods"],
    ["", "persistentvolumeclaims"],
  ],
  "apps/StatefulSet": [["", "pods"]],
  "apps/DaemonSet": [["", "pods"]],
  "batch/Job": [["", "pods"]],
  "/Pod": [["", "pods"]],
  "/Service": [["", "endpoints"]],
  "networking.k8s.io/Ingress": [
    ["", "services"],
    ["", "endpoints"],
  ],
};

/** Every right a stack needs: its charts, and the namespaces deployCharts creates. */
export function rightsNeeded(charts: readonly RightsChart[], namespaces: readonly string[]): Right[] {
  const rights = new Map<string, Right>();
  const add = (given: Omit<Right, "chart">, chart: string) => {
    const right: Right = { ...given, chart };
    const key = `${right.group}\0${right.resource}\0${right.namespace}\0${right.resourceNames === undefined ? "" : "named"}`;
    const known = rights.get(key);
    if (known === undefined) {
      rights.set(key, { ...right, verbs: [...right.verbs], ...(right.resourceNames === undefined ? {} : { resourceNames: [...right.resourceNames] }) });
      return;
    }
    known.verbs = [...new Set([...known.verbs, ...right.verbs])];
    if (known.resourceNames !== undefined) known.resourceNames = [...new Set([...known.resourceNames, ...(right.resourceNames ?? [])])];
  };
  if (namespaces.length > 0) {
    const why = `create the namespaces ${namespaces.join(", ")}`;
    const first = charts[0]?.key ?? "*";
    add({ group: "", resource: "namespaces", namespace: "", verbs: ["create", "list", "watch"], for: why }, first);
    add({ group: "", resource: "namespaces", namespace: "", verbs: ["get", "patch", "delete"], resourceNames: [...namespaces], for: why }, first);
  }
  for (const chart of charts) {
    const helm = chart.engine === "release";
    if (helm) {
      const where = chart.release.namespace;
      add(
        { group: "", resource: "secrets", namespace: where, verbs: RECORD, for: `helm's release record sh.helm.release.v1.${chart.release.name}.v<N>` },
        chart.key,
      );
    }
    for (const object of chart.objects) {
      if (object.hook?.test === true || (object.hook !== undefined && !helm)) continue;
      const namespace = object.namespaced ? object.namespace : "";
      const name = displayName(object);
      add({ group: object.group, resource: object.resource, namespace, verbs: helm ? HELM : APPLY, for: `apply ${name}` }, chart.key);
      for (const [group, resource] of AWAITS[`${object.group}/${object.kind}`] ?? [])
        add({ group, resource, namespace, verbs: WATCH, for: `await ${name}` }, chart.key);
      if (namespace !== "") add({ group: "", resource: "events", namespace, verbs: WATCH, for: `await ${name} (its events)` }, chart.key);
      for (const right of grants(object, namespace)) add(right, chart.key);
    }
  }
  return [...rights.values()]
    .map((right) => ({ ...right, verbs: right.verbs.sort(), ...(right.resourceNames === undefined ? {} : { resourceNames: right.resourceNames.sort() }) }))
    .sort((a, b) => byText(a.namespace, b.namespace) || byText(a.group, b.group) || byText(a.resource, b.resource));
}

/**
 * A Role or ClusterRole grants rights the deployer may not hold: the API
 * server lets it create one only with `escalate` on it; a binding only with
 * `bind` on the role it names. Both can be limited to those names.
 */
function grants(object: RenderedObject, namespace: string): Omit<Right, "chart">[] {
  const name = displayName(object);
  if (object.group !== RBAC) return [];
  if (object.kind === "Role" || object.kind === "ClusterRole") {
    const resource = object.kind === "Role" ? "roles" : "clusterroles";
    const held = grantedBy(object, namespace);
    return [
      {
        group: RBAC,
        resource,
        namespace,
        verbs: ["escalate"],
        resourceNames: [object.name],
        for: `create ${name}`,
        ...(held === undefined ? {} : { heldInstead: held }),
      },
    ];
  }
  if (object.kind !== "RoleBinding" && object.kind !== "ClusterRoleBinding") return [];
  const ref = isRecord(object.body.roleRef) ? object.body.roleRef : {};
  if (typeof ref.name !== "string") return [];
  const resource = ref.kind === "ClusterRole" ? "clusterroles" : "roles";
  // A RoleBinding may bind a ClusterRole: `bind` on it in the binding's namespace is enough.
  return [{ group: RBAC, resource, namespace, verbs: ["bind"], resourceNames: [ref.name], for: `create ${name}` }];
}

/** The rights a role's rules grant, when each is plain (no wildcard, no nonResourceURLs); undefined otherwise. */
function grantedBy(object: RenderedObject, namespace: string): Right[] | undefined {
  const rules = Array.isArray(object.body.rules) ? object.body.rules : [];
  const out: Right[] = [];
  const chart = "";
  const strings = (value: unknown) => (Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : undefined);
  for (const rule of rules) {
    if (!isRecord(rule) || rule.nonResourceURLs !== undefined) return undefined;
    const [groups, resources, verbs] = [strings(rule.apiGroups), strings(rule.resources), strings(rule.verbs)];
    const names = rule.resourceNames === undefined ? undefined : strings(rule.resourceNames);
    if (groups === undefined || resources === undefined || verbs === undefined || [...groups, ...resources, ...verbs].includes("*")) return undefined;
    for (const group of groups)
      for (const resource of resources)
        out.push({ group, resource, namespace, verbs, ...(names === undefined ? {} : { resourceNames: names }), for: displayName(object), chart });
  }
  return out;
}

/** The API server's words for a right it refuses, for one verb. */
export function refusal(user: string, verb: string, right: Pick<Right, "group" | "resource" | "namespace">, name?: string): string {
  const scope = right.namespace === "" ? "at the cluster scope" : `in the namespace "${right.namespace}"`;
  const what = name === undefined ? `resource "${right.resource}"` : `resource "${right.resource}" named "${name}"`;
  return `User "${user}" cannot ${verb} ${what} in API group "${right.group}" ${scope}`;
}

/**
 * The least-privilege Role per namespace and ClusterRole for cluster-wide
 * rights, bound to `subject`. A Role lives in its namespace, so the
 * namespaces come first: created here, the deploy's own Namespace resources
 * then take them over (a server-side apply of an existing object).
 */
export function rbacManifest(rights: readonly Right[], subject: { kind: "User" | "ServiceAccount"; name: string; namespace?: string }, name: string): object[] {
  const rules = (list: readonly Right[]) =>
    list.map((right) => ({
      apiGroups: [right.group],
      resources: [right.resource],
      ...(right.resourceNames === undefined ? {} : { resourceNames: right.resourceNames }),
      verbs: right.verbs,
    }));
  const who =
    subject.kind === "User"
      ? { kind: "User", apiGroup: RBAC, name: subject.name }
      : { kind: "ServiceAccount", name: subject.name, namespace: subject.namespace };
  const namespaces = [...new Set(rights.map((right) => right.namespace).filter((item) => item !== ""))].sort();
  const out: object[] = namespaces
    .filter((item) => !BUILT_IN_NAMESPACES.has(item))
    .map((item) => ({ apiVersion: "v1", kind: "Namespace", metadata: { name: item } }));
  const cluster = rights.filter((right) => right.namespace === "");
  if (cluster.length > 0) {
    out.push({ apiVersion: `${RBAC}/v1`, kind: "ClusterRole", metadata: { name }, rules: rules(cluster) });
    out.push({
      apiVersion: `${RBAC}/v1`,
      kind: "ClusterRoleBinding",
      metadata: { name },
      roleRef: { apiGroup: RBAC, kind: "ClusterRole", name },
      subjects: [who],
    });
  }
  for (const namespace of namespaces) {
    const mine = rights.filter((right) => right.namespace === namespace);
    out.push({ apiVersion: `${RBAC}/v1`, kind: "Role", metadata: { name, namespace }, rules: rules(mine) });
    out.push({
      apiVersion: `${RBAC}/v1`,
      kind: "RoleBinding",
      metadata: { name, namespace },
      roleRef: { apiGroup: RBAC, kind: "Role", name },
      subjects: [who],
    });
  }
  return out;
}
