// The rights a deploy needs, at their edges: how rights of several objects
// merge, which roles and bindings need escalate or bind (and on what), when
// holding a role's rules is enough, and the least-privilege manifest written
// whole.
import { describe, expect, it } from "vitest";
import { rbacManifest, rightsNeeded, type Right, type RightsChart } from "../../src/engine/rights.js";

const RBAC = "rbac.authorization.k8s.io";

const object = (group: string, kind: string, namespace: string, name: string, resource: string, body: Record<string, unknown> = {}) => ({
  id: `${group}/${kind}/${namespace}/${name}`,
  apiVersion: group === "" ? "v1" : `${group}/v1`,
  group,
  kind,
  namespace,
  name,
  body,
  resource,
  namespaced: namespace !== "",
});

const chart = (objects: RightsChart["objects"], key = "app"): RightsChart => ({ key, engine: "chart", release: { name: key, namespace: "web" }, objects });

const brief = (rights: Right[]) =>
  rights.map((right) => [right.group, right.resource, right.namespace, right.verbs.join(","), right.resourceNames?.join(",") ?? "", right.chart]);

describe("rightsNeeded", () => {
  it("merges the verbs of objects of one resource and namespace, keeping the first object as the reason", () => {
    const rights = rightsNeeded(
      [
        chart([object("", "ConfigMap", "web", "a", "configmaps"), object("", "ConfigMap", "web", "b", "configmaps")]),
        chart([object("", "ConfigMap", "web", "c", "configmaps")], "other"),
      ],
      [],
    );
    const maps = rights.filter((right) => right.resource === "configmaps");
    expect(maps).toStrictEqual([
      {
        group: "",
        resource: "configmaps",
        namespace: "web",
        verbs: ["create", "delete", "get", "list", "patch", "watch"],
        for: "apply ConfigMap web/a",
        chart: "app",
      },
    ]);
  });

  it("keeps rights on named objects apart from rights on every object, and merges the names", () => {
    const role = (name: string) => object(RBAC, "Role", "web", name, "roles", { rules: [] });
    const rights = rightsNeeded([chart([role("a"), role("b")])], []);
    expect(brief(rights.filter((right) => right.resource === "roles"))).toStrictEqual([
      [RBAC, "roles", "web", "create,delete,get,list,patch,watch", "", "app"],
      [RBAC, "roles", "web", "escalate", "a,b", "app"],
    ]);
  });

  it("asks events only in a namespace, and what each kind's readiness watches", () => {
    const rights = rightsNeeded(
      [
        chart([
          object("", "Namespace", "", "extra", "namespaces"),
          object("", "Service", "web", "svc", "services"),
          object("networking.k8s.io", "Ingress", "web", "site", "ingresses"),
          object("apps", "StatefulSet", "db", "pg", "statefulsets"),
        ]),
      ],
      [],
    );
    expect(brief(rights)).toStrictEqual([
      ["", "namespaces", "", "create,delete,get,list,patch,watch", "", "app"],
      ["", "events", "db", "list,watch", "", "app"],
      ["", "pods", "db", "list,watch", "", "app"],
      ["apps", "statefulsets", "db", "create,delete,get,list,patch,watch", "", "app"],
      ["", "endpoints", "web", "list,watch", "", "app"],
      ["", "events", "web", "list,watch", "", "app"],
      ["", "services", "web", "create,delete,get,list,patch,watch", "", "app"],
      ["networking.k8s.io", "ingresses", "web", "create,delete,get,list,patch,watch", "", "app"],
    ]);
  });

  it("asks bind on the role a binding names: a Role, or a ClusterRole, in the binding's scope", () => {
    const bindings = [
      object(RBAC, "RoleBinding", "web", "to-role", "rolebindings", { roleRef: { kind: "Role", name: "reader" } }),
      object(RBAC, "ClusterRoleBinding", "", "to-cluster", "clusterrolebindings", { roleRef: { kind: "ClusterRole", name: "admin" } }),
      object(RBAC, "RoleBinding", "web", "unnamed", "rolebindings", { roleRef: { kind: "Role" } }),
      object(RBAC, "RoleBinding", "web", "no-ref", "rolebindings"),
    ];
    const bind = rightsNeeded([chart(bindings)], []).filter((right) => right.verbs.includes("bind"));
    expect(bind.map((right) => [right.resource, right.namespace, right.resourceNames, right.for])).toStrictEqual([
      ["clusterroles", "", ["admin"], "create ClusterRoleBinding.rbac.authorization.k8s.io to-cluster"],
      ["roles", "web", ["reader"], "create RoleBinding.rbac.authorization.k8s.io web/to-role"],
    ]);
  });

  it("asks nothing of a kind called Role outside the RBAC group", () => {
    const lookalike = object("example.test", "Role", "web", "r", "roles", { rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }] });
    expect(rightsNeeded([chart([lookalike])], []).some((right) => right.verbs.includes("escalate"))).toBe(false);
    const binding = object("example.test", "RoleBinding", "web", "b", "rolebindings", { roleRef: { kind: "Role", name: "x" } });
    expect(rightsNeeded([chart([binding])], []).some((right) => right.verbs.includes("bind"))).toBe(false);
  });

  it("says which rights a role grants, each group and resource apart, named where the rule names objects", () => {
    const role = object(RBAC, "Role", "web", "r", "roles", {
      rules: [
        { apiGroups: ["", "apps"], resources: ["pods", "deployments"], verbs: ["get"] },
        { apiGroups: [""], resources: ["secrets"], resourceNames: ["one"], verbs: ["get", "watch"] },
      ],
    });
    const [escalate] = rightsNeeded([chart([role])], []).filter((right) => right.verbs.includes("escalate"));
    expect(escalate?.heldInstead).toStrictEqual([
      { group: "", resource: "pods", namespace: "web", verbs: ["get"], for: "Role.rbac.authorization.k8s.io web/r", chart: "" },
      { group: "", resource: "deployments", namespace: "web", verbs: ["get"], for: "Role.rbac.authorization.k8s.io web/r", chart: "" },
      { group: "apps", resource: "pods", namespace: "web", verbs: ["get"], for: "Role.rbac.authorization.k8s.io web/r", chart: "" },
      { group: "apps", resource: "deployments", namespace: "web", verbs: ["get"], for: "Role.rbac.authorization.k8s.io web/r", chart: "" },
      {
        group: "",
        resource: "secrets",
        namespace: "web",
        verbs: ["get", "watch"],
        resourceNames: ["one"],
        for: "Role.rbac.authorization.k8s.io web/r",
        chart: "",
      },
    ]);
  });

  it.each([
    ["a wildcard verb", { apiGroups: [""], resources: ["pods"], verbs: ["*"] }],
    ["a wildcard resource", { apiGroups: [""], resources: ["*"], verbs: ["get"] }],
    ["a wildcard group", { apiGroups: ["*"], resources: ["pods"], verbs: ["get"] }],
    ["non-resource URLs", { nonResourceURLs: ["/metrics"], verbs: ["get"] }],
    ["no groups", { resources: ["pods"], verbs: ["get"] }],
    ["no resources", { apiGroups: [""], verbs: ["get"] }],
    ["no verbs", { apiGroups: [""], resources: ["pods"] }],
    ["a verb that is not text", { apiGroups: [""], resources: ["pods"], verbs: ["get", 1] }],
    ["a rule that is not a map", "get pods"],
  ])("leaves escalate as the only way for a role with %s", (_, rule) => {
    const role = object(RBAC, "ClusterRole", "", "r", "clusterroles", { rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["list"] }, rule] });
    const [escalate] = rightsNeeded([chart([role])], []).filter((right) => right.verbs.includes("escalate"));
    expect(escalate).toMatchObject({ resource: "clusterroles", namespace: "", resourceNames: ["r"] });
    expect(escalate?.heldInstead).toBeUndefined();
  });

  it("takes a role with no rules as granting nothing, so holding nothing is enough", () => {
    const [escalate] = rightsNeeded([chart([object(RBAC, "ClusterRole", "", "empty", "clusterroles")])], []).filter((right) =>
      right.verbs.includes("escalate"),
    );
    expect(escalate?.heldInstead).toStrictEqual([]);
  });
});

describe("rbacManifest", () => {
  it("writes every rule of the least-privilege roles, named where the right is, bound to a user", () => {
    const rights: Right[] = [
      { group: "", resource: "namespaces", namespace: "", verbs: ["create"], for: "x", chart: "a" },
      { group: "", resource: "namespaces", namespace: "", verbs: ["get"], resourceNames: ["web"], for: "x", chart: "a" },
      { group: "apps", resource: "deployments", namespace: "web", verbs: ["get", "patch"], for: "x", chart: "a" },
      { group: "", resource: "pods", namespace: "kube-system", verbs: ["list"], for: "x", chart: "a" },
    ];
    expect(rbacManifest(rights, { kind: "User", name: "deployer" }, "deploy")).toStrictEqual([
      { apiVersion: "v1", kind: "Namespace", metadata: { name: "web" } },
      {
        apiVersion: `${RBAC}/v1`,
        kind: "ClusterRole",
        metadata: { name: "deploy" },
        rules: [
          { apiGroups: [""], resources: ["namespaces"], verbs: ["create"] },
          { apiGroups: [""], resources: ["namespaces"], resourceNames: ["web"], verbs: ["get"] },
        ],
      },
      {
        apiVersion: `${RBAC}/v1`,
        kind: "ClusterRoleBinding",
        metadata: { name: "deploy" },
        roleRef: { apiGroup: RBAC, kind: "ClusterRole", name: "deploy" },
        subjects: [{ kind: "User", apiGroup: RBAC, name: "deployer" }],
      },
      {
        apiVersion: `${RBAC}/v1`,
        kind: "Role",
        metadata: { name: "deploy", namespace: "kube-system" },
        rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["list"] }],
      },
      {
        apiVersion: `${RBAC}/v1`,
        kind: "RoleBinding",
        metadata: { name: "deploy", namespace: "kube-system" },
        roleRef: { apiGroup: RBAC, kind: "Role", name: "deploy" },
        subjects: [{ kind: "User", apiGroup: RBAC, name: "deployer" }],
      },
      {
        apiVersion: `${RBAC}/v1`,
        kind: "Role",
        metadata: { name: "deploy", namespace: "web" },
        rules: [{ apiGroups: ["apps"], resources: ["deployments"], verbs: ["get", "patch"] }],
      },
      {
        apiVersion: `${RBAC}/v1`,
        kind: "RoleBinding",
        metadata: { name: "deploy", namespace: "web" },
        roleRef: { apiGroup: RBAC, kind: "Role", name: "deploy" },
        subjects: [{ kind: "User", apiGroup: RBAC, name: "deployer" }],
      },
    ]);
  });

  it("writes no ClusterRole without cluster-wide rights, and no Namespace for a built-in one", () => {
    const rights: Right[] = [{ group: "", resource: "configmaps", namespace: "default", verbs: ["get"], for: "x", chart: "a" }];
    const kinds = rbacManifest(rights, { kind: "ServiceAccount", name: "ci", namespace: "tools" }, "d").map((item) => (item as { kind: string }).kind);
    expect(kinds).toStrictEqual(["Role", "RoleBinding"]);
    expect(rbacManifest([], { kind: "User", name: "u" }, "d")).toStrictEqual([]);
  });
});
