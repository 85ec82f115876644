// The target-cluster rules (src/policy/rules/cluster.ts) alone: removed API
// versions by Kubernetes version and kind, built-in kinds against the
// Kubernetes OpenAPI schemas (paths as dotted fields), and custom resources
// against the openAPIV3Schema of a CRD the stack ships, by group, version
// and kind.
import { describe, expect, it } from "vitest";
import type { PolicyRule } from "../../src/model/policy.js";
import { customResourceSchema, loadValidators, objectSchema, removedApi, validatorFor } from "../../src/policy/rules/cluster.js";
import { runPolicies, type PolicyChart } from "../../src/policy/run.js";
import { emptySettings } from "../../src/policy/settings.js";
import { parseManifest } from "../../src/render/manifest.js";

function chart(key: string, yaml: string): PolicyChart {
  return { key, engine: "chart", dropHooks: true, values: {}, objects: parseManifest(yaml, "web", key) };
}

function found(rules: PolicyRule[], charts: PolicyChart[], kubeVersion?: string) {
  return runPolicies({ stack: "dev", kubeVersion, charts, rules, settings: emptySettings(), today: "2026-06-15" }).map((f) => [
    f.chart,
    f.object,
    f.path,
    f.message,
  ]);
}

describe("removed-api", () => {
  const yaml = [
    "apiVersion: apps/v1beta1\nkind: StatefulSet\nmetadata: { name: any-kind }",
    "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: { name: ingress }",
    "apiVersion: extensions/v1beta1\nkind: Service\nmetadata: { name: not-listed }",
    "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: current }",
  ].join("\n---\n");

  it("finds each removed version from its release on, for its kinds only", () => {
    const at = (version?: string) => found([removedApi], [chart("app", yaml)], version).map((row) => row[1]);
    expect(at("1.15.9")).toStrictEqual([]);
    expect(at("1.16.0")).toStrictEqual(["StatefulSet.apps web/any-kind"]);
    expect(at("1.21")).toStrictEqual(["StatefulSet.apps web/any-kind"]);
    expect(at("v1.22.3")).toStrictEqual(["StatefulSet.apps web/any-kind", "Ingress.extensions web/ingress"]);
    expect(at(undefined)).toStrictEqual([]);
    expect(at("latest")).toStrictEqual([]);
  });

  it("names the version, the release that removed it, the stack's and what to use", () => {
    const [finding] = runPolicies({
      stack: "prod",
      kubeVersion: "1.25.0",
      charts: [chart("app", yaml)],
      rules: [removedApi],
      settings: emptySettings(),
      today: "2026-06-15",
    });
    expect(finding).toStrictEqual({
      rule: "removed-api",
      severity: "error",
      chart: "app",
      stack: "prod",
      object: "StatefulSet.apps web/any-kind",
      path: "apiVersion",
      message: "uses apps/v1beta1, removed in Kubernetes 1.16; stack prod runs 1.25.0",
      hint: "use apps/v1 (upgrade the chart, or set the chart's API version value)",
    });
  });
});

describe("object-schema", () => {
  it("loads validators for built-in kinds only, by apiVersion and kind", async () => {
    const objects = parseManifest(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: a }\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: { name: b }\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: { name: c }\nspec: {}\n",
      "web",
      "app",
    );
    expect([...(await loadValidators(objects)).keys()]).toStrictEqual(["v1 ConfigMap", "apps/v1 Deployment"]);
    for (const entry of ["v1 ConfigMap", "apps/v1 Deployment", "batch/v1 CronJob", "networking.k8s.io/v1 Ingress", "autoscaling/v2 HorizontalPodAutoscaler"])
      expect(await validatorFor(entry), entry).toBeTypeOf("function");
    for (const entry of [
      "example.com/v1 Widget",
      "v1 configmap",
      "v1 Config-Map",
      "v2 ConfigMap",
      "apps Deployment",
      "apps/v1x Deployment",
      "x/apps/v1 Deployment",
      "Apps/v1 Deployment",
      "apps/v1beta1x Deployment",
      "apps/v1betaX Deployment",
      "../v1 Deployment",
      // A trailing slash the package's exports would still resolve (kubernetes-models/apps/v1//Deployment).
      "apps/v1/ Deployment",
      "apps/v1 ",
    ])
      expect(await validatorFor(entry), entry).toBeUndefined();
  });

  it("reports each problem at its dotted path, (object) for the top", async () => {
    const yaml = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - { name: 5, image: web }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: binding }
subjects: []
---
apiVersion: v1
kind: ConfigMap
metadata: { name: fine }
data: { a: b }
`;
    const objects = parseManifest(yaml, "web", "app");
    const rows = found([objectSchema(await loadValidators(objects))], [chart("app", yaml)]);
    expect(rows).toStrictEqual([
      ["app", "Deployment.apps web/web", "spec.template.spec.containers.0.name", "must be string"],
      ["app", "RoleBinding.rbac.authorization.k8s.io web/binding", "(object)", "must have required property roleRef"],
    ]);
  });

  it("checks Secrets with their sealed values standing for strings", async () => {
    const yaml =
      "apiVersion: v1\nkind: Secret\nmetadata: { name: s }\ndata: { a: c2VjcmV0 }\nstringData: { b: hidden }\n---\napiVersion: v1\nkind: Secret\nmetadata: { name: t }\ndata: 5\n";
    const objects = parseManifest(yaml, "web", "app");
    expect(found([objectSchema(await loadValidators(objects))], [chart("app", yaml)])).toStrictEqual([["app", "Secret web/t", "data", "must be object"]]);
  });

  it("finds nothing, rather than failing, where the validator itself fails on a body", async () => {
    const validate = await validatorFor("v1 ConfigMap");
    const unreadable = {
      get data(): never {
        throw new Error("unreadable");
      },
    };
    expect(validate?.(unreadable)).toStrictEqual([]);
    expect(validate?.(null)).toStrictEqual([{ path: "(object)", message: "must be object" }]);
  });

  it("checks a Secret whose data is null or a list as the schema reads it, without failing", async () => {
    const yaml =
      "apiVersion: v1\nkind: Secret\nmetadata: { name: empty }\ndata: null\n---\napiVersion: v1\nkind: Secret\nmetadata: { name: listed }\nstringData: [a]\n";
    const objects = parseManifest(yaml, "web", "app");
    expect(found([objectSchema(await loadValidators(objects))], [chart("app", yaml)])).toStrictEqual([
      ["app", "Secret web/listed", "stringData", "must be object"],
    ]);
  });
});

describe("custom-resource-schema", () => {
  const crd = (group: string, kind: string, extra = "") => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.${group} }
spec:
  group: ${group}
  names: { kind: ${kind}, plural: widgets }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            metadata: { type: string }
            spec:
              type: object
              required: [size]
              properties:
                size: { type: integer }
                colour: { type: string, enum: [red, blue] }
    - name: v2
      served: true
      storage: false
${extra}`;
  const widget = (version: string, name: string, spec: string, group = "example.com", kind = "Widget") =>
    `apiVersion: ${group}/${version}\nkind: ${kind}\nmetadata: { name: ${name} }\nspec: ${spec}\n`;

  it("checks a custom resource against its CRD in another chart of the stack, every error at its path", () => {
    const operator = chart("operator", crd("example.com", "Widget"));
    const app = chart(
      "app",
      [
        widget("v1", "bad", "{ size: big, colour: green }"),
        widget("v1", "missing", "{ colour: red }"),
        widget("v1", "good", "{ size: 3 }"),
        widget("v2", "no-schema", "{ size: big }"),
        widget("v1", "other-kind", "{ size: big }", "example.com", "Gadget"),
        widget("v1", "other-group", "{ size: big }", "example.org"),
      ].join("---\n"),
    );
    expect(found([customResourceSchema], [operator, app])).toStrictEqual([
      ["app", "Widget.example.com web/bad", "spec.size", "must be integer (CustomResourceDefinition schema)"],
      ["app", "Widget.example.com web/bad", "spec.colour", "must be equal to one of the allowed values (CustomResourceDefinition schema)"],
      ["app", "Widget.example.com web/missing", "spec", "must have required property 'size' (CustomResourceDefinition schema)"],
    ]);
  });

  it("takes schemas only from apiextensions CRDs that name their group and kind", () => {
    const lookalike = crd("example.com", "Widget").replace("apiextensions.k8s.io/v1", "example.net/v1");
    const noKind = crd("example.com", "Widget").replace("names: { kind: Widget, plural: widgets }", "names: { plural: widgets }");
    const noGroup = crd("example.com", "Widget").replace("  group: example.com\n", "");
    // The resources are the ones a schema taken by mistake would check: the missing name read as "undefined".
    for (const [name, yaml, resource] of [
      ["another group's CustomResourceDefinition", lookalike, widget("v1", "bad", "{ size: big }")],
      ["no kind", noKind, widget("v1", "bad", "{ size: big }", "example.com", "undefined")],
      ["no group", noGroup, widget("v1", "bad", "{ size: big }", "undefined")],
    ] as const)
      expect(found([customResourceSchema], [chart("operator", yaml), chart("app", resource)]), name).toStrictEqual([]);
  });

  it("leaves a schema it cannot judge (a broken pattern, an unknown type) to the API server, and answers alike across stacks", () => {
    const broken = crd("broken.example.com", "Widget").replace("size: { type: integer }", "size: { type: integer, pattern: '[' }");
    const app = chart("app", widget("v1", "bad", "{ size: big }", "broken.example.com"));
    expect(found([customResourceSchema], [chart("operator", broken), app])).toStrictEqual([]);
    const unknownType = crd("odd.example.com", "Widget").replace("size: { type: integer }", "size: { type: whole }");
    expect(found([customResourceSchema], [chart("operator", unknownType), chart("app", widget("v1", "x", "{ size: big }", "odd.example.com"))])).toStrictEqual(
      [],
    );
    // The same schema in a second and third stack: the same answer.
    const good = () =>
      found(
        [customResourceSchema],
        [chart("operator", crd("again.example.com", "Widget")), chart("app", widget("v1", "x", "{ size: big }", "again.example.com"))],
      );
    expect(good()).toStrictEqual([["app", "Widget.again.example.com web/x", "spec.size", "must be integer (CustomResourceDefinition schema)"]]);
    expect(good()).toStrictEqual(good());
  });
});
