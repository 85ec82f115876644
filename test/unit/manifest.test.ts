import { beforeEach, describe, expect, it } from "vitest";
import { objectsOf, parseManifest } from "../../src/render/manifest.js";
import { ChartroomError } from "../../src/errors/index.js";

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
  // Parsed inside each test, not when the file is collected: mutation testing
  // runs a mutant only inside the tests that cover it.
  let objects: ReturnType<typeof parseManifest>;
  beforeEach(() => {
    objects = parseManifest(STREAM, "prod", "app");
  });

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

describe("parseManifest on the edges of a stream", () => {
  it("skips documents of comments only, scalars and List items that are not objects", () => {
    const stream =
      "# just a comment\n---\n# Source: a/templates/x.yaml\n# off by values\n\n---\nplain scalar\n---\napiVersion: v1\nkind: ConfigMapList\nitems: [7, { apiVersion: v1, kind: ConfigMap, metadata: { name: c } }]\n---\napiVersion: v1\nkind: List\nitems: not-a-list\n";
    expect(parseManifest(stream, "ns", "a").map((o) => [o.id, o.source])).toStrictEqual([
      ["/ConfigMap/ns/c", undefined],
      ["/List/ns/", undefined],
    ]);
  });

  it("splits only on a line that is --- alone (trailing blanks allowed), and takes the Source line up to its end", () => {
    const stream =
      "# Source: a/templates/one.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: one }\ndata: { s: 'x --- y' }\n---  \n# Source: a/templates/two.yaml  \napiVersion: v1\nkind: ConfigMap\nmetadata: { name: two }\n";
    expect(parseManifest(stream, "ns", "a").map((o) => [o.name, o.source])).toStrictEqual([
      ["one", "a/templates/one.yaml"],
      ["two", "a/templates/two.yaml"],
    ]);
  });

  it("gives the release namespace to a namespaced object that names none or an empty one, in a copy, and keeps a cluster-scoped object bare", () => {
    const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "" } };
    const [object] = objectsOf([{ body }], "rel");
    expect([object?.namespace, (object?.body.metadata as { namespace?: string } | undefined)?.namespace, body.metadata.namespace]).toStrictEqual([
      "rel",
      "rel",
      "",
    ]);
    const own = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "own" } };
    expect(objectsOf([{ body: own }], "rel")[0]?.body).toBe(own);
    const ns = { apiVersion: "v1", kind: "Namespace", metadata: { name: "team" } };
    expect(objectsOf([{ body: ns }], "rel").map((o) => [o.id, o.body])).toStrictEqual([["/Namespace//team", ns]]);
  });

  it("reads a CRD's scope for its kind: Namespaced when it says so or says nothing", () => {
    const crd = (kind: string, scope?: string) => ({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: `${kind.toLowerCase()}s.example.com` },
      spec: { group: "example.com", names: { kind }, ...(scope === undefined ? {} : { scope }) },
    });
    const cr = (kind: string) => ({ body: { apiVersion: "example.com/v1", kind, metadata: { name: "x" } } });
    const objects = objectsOf([{ body: crd("A", "Namespaced") }, { body: crd("B") }, { body: crd("C", "Cluster") }, cr("A"), cr("B"), cr("C"), cr("D")], "rel");
    expect(objects.slice(3).map((o) => o.id)).toStrictEqual(["example.com/A/rel/x", "example.com/B/rel/x", "example.com/C//x", "example.com/D/rel/x"]);
    expect(objectsOf([{ body: { kind: "CustomResourceDefinition", spec: { group: "g" } } }, { body: { metadata: { name: "no-kind" } } }], "rel").length).toBe(
      1,
    );
  });

  it("reads hook annotations leniently: spaces, empty items, a bad weight, no delete policy, test-only events", () => {
    const hook = (annotations: Record<string, string>) =>
      objectsOf([{ body: { apiVersion: "v1", kind: "Pod", metadata: { name: "p", annotations } } }], "ns")[0]?.hook;
    expect(hook({ "helm.sh/hook": " post-install , ,post-upgrade", "helm.sh/hook-weight": "heavy" })).toStrictEqual({
      events: ["post-install", "post-upgrade"],
      weight: 0,
      deletePolicies: [],
      test: false,
    });
    expect(hook({ "helm.sh/hook": "test-success,test", "helm.sh/hook-delete-policy": " hook-succeeded ,", "helm.sh/hook-weight": "3" })).toStrictEqual({
      events: ["test-success", "test"],
      weight: 3,
      deletePolicies: ["hook-succeeded"],
      test: true,
    });
    expect(hook({ "helm.sh/hook": "test,post-install" })?.test).toBe(false);
    expect(hook({ "example.com/other": "x" })).toBeUndefined();
  });

  it("reads a flow-style document with Kubernetes' YAML 1.1 scalars", () => {
    const [object] = parseManifest('{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "f"}, "data": {"mode": 0755, "on": yes}}', "ns", "a");
    expect(object?.body.data).toStrictEqual({ mode: 493, on: true });
  });
});

describe("parseManifest at its edges", () => {
  it("splits only on a line that is --- alone, keeps a late # Source: whole, and leaves source and hook off an object without them", () => {
    const objects = parseManifest(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: y---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n# Source: late.yaml",
      "ns",
      "c",
    );
    expect(objects).toStrictEqual([
      {
        id: "/ConfigMap/ns/a",
        apiVersion: "v1",
        group: "",
        kind: "ConfigMap",
        namespace: "ns",
        name: "a",
        body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: "ns" }, data: { x: "y---" } },
      },
      {
        id: "/ConfigMap/ns/b",
        apiVersion: "v1",
        group: "",
        kind: "ConfigMap",
        namespace: "ns",
        name: "b",
        source: "late.yaml",
        body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "b", namespace: "ns" } },
      },
    ]);
  });

  it("skips documents that are null, a scalar, a list, or a map without a kind, and List items that are not objects", () => {
    const text = [
      "~",
      "just text",
      "- a\n- b",
      "a: 1",
      "apiVersion: v1\nkind: List\nitems:\n  - null\n  - apiVersion: v1\n    kind: Secret\n    metadata: { name: s }\n",
    ].join("\n---\n");
    expect(parseManifest(text, "ns", "c").map((object) => object.id)).toStrictEqual(["/Secret/ns/s"]);
  });

  it("takes a kind's scope only from a CustomResourceDefinition, not from another object shaped like one", () => {
    const text = [
      "apiVersion: example.test/v1\nkind: Lookalike\nmetadata: { name: l }\nspec:\n  group: x.test\n  scope: Cluster\n  names: { kind: Thing }\n",
      "apiVersion: x.test/v1\nkind: Thing\nmetadata: { name: t }\n",
    ].join("---\n");
    expect(parseManifest(text, "ns", "c").map((object) => object.namespace)).toStrictEqual(["ns", "ns"]);
  });

  it("names the chart and the template of broken YAML", () => {
    let error: unknown;
    try {
      parseManifest("# Source: c/templates/bad.yaml\napiVersion: v1\nkind: [\n", "ns", "c");
    } catch (caught) {
      error = caught;
    }
    expect(ChartroomError.isInstance(error) && [error.code, error.place.chart, error.place.file]).toStrictEqual(["HELM_FAILED", "c", "c/templates/bad.yaml"]);
  });
});
