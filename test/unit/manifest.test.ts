import { describe, expect, it } from "vitest";
import { parseManifest } from "../../src/render/manifest.js";

const STREAM = `---
# Source: app/templates/empty.yaml
---
# Source: app/templates/service.yaml
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports: [{ port: 80 }]
---
# Source: app/templates/list.yaml
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: one, namespace: elsewhere }
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: two }
---
# Source: app/templates/rbac.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
  namespace: ignored
---
# Source: app/crds/gadgets.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Cluster
  names: { kind: Gadget, plural: gadgets }
---
# Source: app/templates/gadget.yaml
apiVersion: example.com/v1
kind: Gadget
metadata:
  name: g1
---
# Source: app/templates/job.yaml
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: "-5"
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
---
# Source: app/templates/tests/t.yaml
apiVersion: v1
kind: Pod
metadata:
  name: probe
  annotations:
    helm.sh/hook: test
`;

describe("parseManifest", () => {
  const objects = parseManifest(STREAM, "prod", "app");

  it("identifies objects by group/Kind/namespace/name, skipping empty documents and expanding Lists", () => {
    expect(objects.map((o) => o.id)).toStrictEqual([
      "/Service/prod/web",
      "/ConfigMap/elsewhere/one",
      "/ConfigMap/prod/two",
      "rbac.authorization.k8s.io/ClusterRole//reader",
      "apiextensions.k8s.io/CustomResourceDefinition//gadgets.example.com",
      "example.com/Gadget//g1",
      "batch/Job/prod/migrate",
      "/Pod/prod/probe",
    ]);
  });

  it("keeps the template each object came from", () => {
    expect(objects[0]?.source).toBe("app/templates/service.yaml");
    expect(objects[2]?.source).toBe("app/templates/list.yaml");
  });

  it("reads hook events, weight and delete policy, and keeps test hooks apart", () => {
    expect(objects.find((o) => o.name === "migrate")?.hook).toStrictEqual({
      events: ["pre-install", "pre-upgrade"],
      weight: -5,
      deletePolicies: ["before-hook-creation", "hook-succeeded"],
      test: false,
    });
    expect(objects.find((o) => o.name === "probe")?.hook?.test).toBe(true);
    expect(objects.find((o) => o.name === "web")?.hook).toBeUndefined();
  });

  it("names the template that rendered broken YAML", () => {
    expect(() => parseManifest("---\n# Source: app/templates/bad.yaml\nkind: [\n", "ns", "app")).toThrow(/in app\/templates\/bad\.yaml/);
  });
});
