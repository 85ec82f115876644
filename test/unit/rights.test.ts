// The rights a stack's deploy needs, from what it renders and each engine's
// behaviour: checked here by kind, namespace and verb; the cluster tests
// apply the Role they make and deploy with it.
import { describe, expect, it } from "vitest";
import { rbacManifest, refusal, rightsNeeded, type RightsChart } from "../../src/engine/rights.js";
import type { RenderedObject } from "../../src/model/objects.js";

const object = (
  group: string,
  kind: string,
  namespace: string,
  name: string,
  resource: string,
  body: Record<string, unknown> = {},
  extra: Partial<RenderedObject> = {},
) => ({
  id: `${group}/${kind}/${namespace}/${name}`,
  apiVersion: group === "" ? "v1" : `${group}/v1`,
  group,
  kind,
  namespace,
  name,
  body,
  resource,
  namespaced: namespace !== "",
  ...extra,
});

const chart = (engine: RightsChart["engine"], objects: RightsChart["objects"]): RightsChart => ({
  key: "app",
  engine,
  release: { name: "app", namespace: "web" },
  objects,
});

describe("the rights a deploy needs", () => {
  it("asks, under helm.v4.Chart, the apply verbs per kind and namespace, and list/watch on what readiness awaits", () => {
    const rights = rightsNeeded([chart("chart", [object("apps", "Deployment", "web", "api", "deployments")])], []);
    expect(rights.map((right) => [right.group, right.resource, right.namespace, right.verbs.join(",")])).toStrictEqual([
      ["", "events", "web", "list,watch"],
      ["", "persistentvolumeclaims", "web", "list,watch"],
      ["", "pods", "web", "list,watch"],
      ["apps", "deployments", "web", "create,delete,get,list,patch,watch"],
      ["apps", "replicasets", "web", "list,watch"],
    ]);
    expect(rights.every((right) => right.chart === "app")).toBe(true);
  });

  it("adds, under helm.v3.Release, update, the release record's Secrets and the hooks; never a test hook, nor a hook helm.v4.Chart drops", () => {
    const hook = { events: ["pre-upgrade"], weight: 0, deletePolicies: [], test: false };
    const test = { events: ["test"], weight: 0, deletePolicies: [], test: true };
    const objects = [
      object("", "ConfigMap", "web", "cfg", "configmaps"),
      object("batch", "Job", "web", "migrate", "jobs", {}, { hook }),
      object("", "Pod", "web", "probe", "pods", {}, { hook: test }),
    ];
    const release = rightsNeeded([chart("release", objects)], []);
    expect(release.find((right) => right.resource === "configmaps")?.verbs).toContain("update");
    expect(release.find((right) => right.resource === "secrets")).toMatchObject({
      namespace: "web",
      verbs: ["create", "delete", "get", "list", "patch", "update"],
    });
    expect(release.find((right) => right.resource === "jobs")?.verbs).toContain("create");
    expect(release.find((right) => right.resource === "pods")?.verbs).toStrictEqual(["list", "watch"]);
    const dropped = rightsNeeded([chart("chart", objects)], []);
    expect(dropped.map((right) => right.resource).sort()).toStrictEqual(["configmaps", "events"]);
  });

  it("creates namespaces unrestricted and changes only those named, cluster-wide", () => {
    const rights = rightsNeeded([], ["web", "shop"]);
    expect(rights).toStrictEqual([
      { group: "", resource: "namespaces", namespace: "", verbs: ["create", "list", "watch"], for: "create the namespaces web, shop", chart: "*" },
      {
        group: "",
        resource: "namespaces",
        namespace: "",
        verbs: ["delete", "get", "patch"],
        resourceNames: ["shop", "web"],
        for: "create the namespaces web, shop",
        chart: "*",
      },
    ]);
  });

  it("asks escalate on a role the chart creates (or every right it grants) and bind on the role a binding names", () => {
    const role = object("rbac.authorization.k8s.io", "ClusterRole", "", "reader", "clusterroles", {
      rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] }],
    });
    const wild = object("rbac.authorization.k8s.io", "Role", "web", "all", "roles", { rules: [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }] });
    const binding = object("rbac.authorization.k8s.io", "RoleBinding", "web", "read", "rolebindings", { roleRef: { kind: "ClusterRole", name: "view" } });
    const rights = rightsNeeded([chart("chart", [role, wild, binding])], []);
    expect(rights.find((right) => right.verbs.includes("escalate") && right.resource === "clusterroles")).toMatchObject({
      namespace: "",
      resourceNames: ["reader"],
      heldInstead: [{ group: "", resource: "pods", namespace: "", verbs: ["get", "list"] }],
    });
    expect(rights.find((right) => right.verbs.includes("escalate") && right.resource === "roles")?.heldInstead).toBeUndefined();
    expect(rights.find((right) => right.verbs.includes("bind"))).toMatchObject({ resource: "clusterroles", namespace: "web", resourceNames: ["view"] });
  });

  it("words a refusal as the API server does, in a namespace and at the cluster scope", () => {
    expect(refusal("deployer", "patch", { group: "apps", resource: "deployments", namespace: "web" })).toBe(
      'User "deployer" cannot patch resource "deployments" in API group "apps" in the namespace "web"',
    );
    expect(refusal("deployer", "create", { group: "", resource: "namespaces", namespace: "" })).toBe(
      'User "deployer" cannot create resource "namespaces" in API group "" at the cluster scope',
    );
  });

  it("writes the namespaces first, a ClusterRole for cluster-wide rights and a Role per namespace, each bound to the identity", () => {
    const rights = rightsNeeded([chart("chart", [object("", "ConfigMap", "web", "cfg", "configmaps")])], ["web"]);
    const kinds = rbacManifest(rights, { kind: "User", name: "deployer" }, "chartroom-deploy-dev").map((document) => {
      const { kind, metadata } = document as { kind: string; metadata: { name: string; namespace?: string } };
      return `${kind} ${metadata.namespace ?? ""}/${metadata.name}`;
    });
    expect(kinds).toStrictEqual([
      "Namespace /web",
      "ClusterRole /chartroom-deploy-dev",
      "ClusterRoleBinding /chartroom-deploy-dev",
      "Role web/chartroom-deploy-dev",
      "RoleBinding web/chartroom-deploy-dev",
    ]);
    const [, , binding] = rbacManifest(rights, { kind: "ServiceAccount", name: "ci", namespace: "tools" }, "x") as { subjects: unknown[] }[];
    expect(binding?.subjects).toStrictEqual([{ kind: "ServiceAccount", name: "ci", namespace: "tools" }]);
  });
});
