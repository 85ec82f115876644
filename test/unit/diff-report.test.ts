import { describe, expect, it } from "vitest";
import { formatMarkdown } from "../../src/report/diff-markdown.js";
import { formatText } from "../../src/report/diff-text.js";
import { chartReport, diffReport, markMoves, type ChartSide } from "../../src/diff/report.js";
import { parseManifest } from "../../src/render/manifest.js";
import type { RenderedObject } from "../../src/model/objects.js";

const meta = { chart: "app", stack: "dev", engine: "chart" as const };
const options = { showSecrets: false, showBookkeeping: false };

function objects(yaml: string): RenderedObject[] {
  return parseManifest(yaml, "ns", "app");
}

function side(yaml: string, version = "1.0.0", unstable: string[] = []): ChartSide {
  return { version, objects: objects(yaml), unstable: new Set(unstable) };
}

const deployment = (selector: string, image: string, chart = "app-1.0.0") => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, labels: { helm.sh/chart: ${chart} } }
spec:
  selector: { matchLabels: { app: ${selector} } }
  template:
    metadata: { labels: { app: ${selector} }, annotations: { checksum/config: ${chart} } }
    spec: { containers: [{ name: api, image: "${image}" }] }
`;

describe("chartReport", () => {
  it("reports a changed Deployment selector as a replacement with both engines' consequences", () => {
    const report = chartReport(meta, side(deployment("a", "img:1")), side(deployment("b", "img:1")), options);
    const object = report.objects[0];
    expect(object?.action).toBe("replace");
    expect(object?.replacement?.fields).toStrictEqual(["spec.selector"]);
    // As the test cluster showed: the replacement is created first, and refused for the original's fields.
    expect(object?.replacement?.consequences.chart).toContain("creating the replacement first under the same name; server-side apply refuses it");
    expect(object?.replacement?.order).toBe("create-first");
    expect(object?.replacement?.consequences.release).toContain("field is immutable");
  });

  it.each([
    [
      "DaemonSet selector",
      "apps/v1",
      "DaemonSet",
      "spec: { selector: { matchLabels: { app: a } } }",
      "spec: { selector: { matchLabels: { app: b } } }",
      "spec.selector",
    ],
    [
      "ReplicaSet selector",
      "apps/v1",
      "ReplicaSet",
      "spec: { selector: { matchLabels: { app: a } } }",
      "spec: { selector: { matchLabels: { app: b } } }",
      "spec.selector",
    ],
    ["StatefulSet serviceName", "apps/v1", "StatefulSet", "spec: { serviceName: a }", "spec: { serviceName: b }", "spec.serviceName"],
    [
      "StatefulSet volumeClaimTemplates",
      "apps/v1",
      "StatefulSet",
      "spec: { volumeClaimTemplates: [{ metadata: { name: data }, spec: { resources: { requests: { storage: 1Gi } } } }] }",
      "spec: { volumeClaimTemplates: [{ metadata: { name: data }, spec: { resources: { requests: { storage: 2Gi } } } }] }",
      "spec.volumeClaimTemplates",
    ],
    [
      "Job template",
      "batch/v1",
      "Job",
      "spec: { template: { spec: { containers: [{ name: a, image: x }] } } }",
      "spec: { template: { spec: { containers: [{ name: a, image: y }] } } }",
      "spec.template",
    ],
    ["Service clusterIP", "v1", "Service", "spec: { clusterIP: 10.0.0.1 }", "spec: { clusterIP: 10.0.0.2 }", "spec.clusterIP"],
    ["RoleBinding roleRef", "rbac.authorization.k8s.io/v1", "RoleBinding", "roleRef: { kind: Role, name: a }", "roleRef: { kind: Role, name: b }", "roleRef"],
    ["immutable ConfigMap data", "v1", "ConfigMap", "immutable: true\ndata: { a: '1' }", "immutable: true\ndata: { a: '2' }", "data"],
  ])("predicts a replacement for %s", (_, apiVersion, kind, before, after, field) => {
    const doc = (body: string) => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: { name: x }\n${body}\n`;
    const report = chartReport(meta, side(doc(before)), side(doc(after)), options);
    expect(report.objects[0]?.replacement?.fields).toStrictEqual([field]);
    // The API server's rule, whatever the engine: helm upgrade fails on it too.
    const release = chartReport({ ...meta, engine: "release" }, side(doc(before)), side(doc(after)), options).objects[0];
    expect([release?.action, release?.changes.find((change) => change.path.startsWith(field))?.tags]).toStrictEqual(["replace", ["immutable"]]);
  });

  it("updates a mutable ConfigMap in place under a Release, but helm.v4.Chart's provider replaces it", () => {
    const doc = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\ndata: { a: '${value}' }\n`;
    const release = chartReport({ ...meta, engine: "release" }, side(doc("1")), side(doc("2")), options).objects[0];
    expect([release?.action, release?.step]).toStrictEqual(["update", "update"]);
    const chart = chartReport(meta, side(doc("1")), side(doc("2")), options).objects[0];
    expect([chart?.action, chart?.step, chart?.replacement?.fields]).toStrictEqual(["replace", "replace", ["data"]]);
    expect(chart?.changes[0]?.tags).toStrictEqual(["replaces"]);
  });

  it.each([
    [
      "a new image in a Deployment",
      "chart",
      "apps/v1",
      "Deployment",
      "spec: { template: { spec: { containers: [{ name: a, image: x }] } } }",
      "spec: { template: { spec: { containers: [{ name: a, image: y }] } } }",
      "update",
    ],
    [
      "a new image in a bare Pod",
      "chart",
      "v1",
      "Pod",
      "spec: { containers: [{ name: a, image: x }] }",
      "spec: { containers: [{ name: a, image: y }] }",
      "replace",
    ],
    [
      "a bare Pod's new image under a Release",
      "release",
      "v1",
      "Pod",
      "spec: { containers: [{ name: a, image: x }] }",
      "spec: { containers: [{ name: a, image: y }] }",
      "update",
    ],
    ["a Secret's data", "chart", "v1", "Secret", "data: { a: eA== }", "data: { a: eQ== }", "replace"],
    [
      "a StatefulSet's revisionHistoryLimit",
      "chart",
      "apps/v1",
      "StatefulSet",
      "spec: { revisionHistoryLimit: 1 }",
      "spec: { revisionHistoryLimit: 2 }",
      "replace",
    ],
    [
      "a PVC's volumeMode (immutable, not replaced by the provider)",
      "chart",
      "v1",
      "PersistentVolumeClaim",
      "spec: { volumeMode: Filesystem }",
      "spec: { volumeMode: Block }",
      "fails",
    ],
    [
      "a Deployment selector under a Release",
      "release",
      "apps/v1",
      "Deployment",
      "spec: { selector: { matchLabels: { a: x } } }",
      "spec: { selector: { matchLabels: { a: y } } }",
      "fails",
    ],
    [
      "an apiVersion move under helm.v4.Chart (chartroom aliases the old type)",
      "chart",
      "autoscaling/v2",
      "HorizontalPodAutoscaler",
      "spec: { maxReplicas: 2 }",
      "spec: { maxReplicas: 2 }",
      "update",
    ],
    [
      "an apiVersion move under a Release",
      "release",
      "autoscaling/v2",
      "HorizontalPodAutoscaler",
      "spec: { maxReplicas: 2 }",
      "spec: { maxReplicas: 2 }",
      "update",
    ],
  ] as const)("predicts the engine's step for %s", (_, engine, apiVersion, kind, before, after, step) => {
    const moved = apiVersion === "autoscaling/v2" ? "autoscaling/v2beta2" : apiVersion;
    const doc = (version: string, body: string) => `apiVersion: ${version}\nkind: ${kind}\nmetadata: { name: x }\n${body}\n`;
    const report = chartReport({ ...meta, engine }, side(doc(moved, before)), side(doc(apiVersion, after)), options);
    expect(report.objects[0]?.step).toBe(step);
  });

  it("folds bookkeeping-only changes into one line and out of the exit code", () => {
    const report = chartReport(meta, side(deployment("a", "img:1", "app-1.0.0")), side(deployment("a", "img:1", "app-1.0.1")), options);
    expect(report.objects).toStrictEqual([]);
    expect(report.bookkeeping).toStrictEqual({ objects: 1, fields: ['annotations["checksum/config"]', 'labels["helm.sh/chart"]'] });
    expect(diffReport([report]).changed).toBe(false);
    const shown = chartReport(meta, side(deployment("a", "img:1", "app-1.0.0")), side(deployment("a", "img:1", "app-1.0.1")), {
      ...options,
      showBookkeeping: true,
    });
    expect(shown.objects[0]?.changes.map((c) => c.path)).toContain('metadata.labels["helm.sh/chart"]');
  });

  it("marks changes that happen on every render and keeps them out of the exit code", () => {
    const secret = (value: string) => `apiVersion: v1\nkind: Secret\nmetadata: { name: s }\ndata: { password: ${value} }\n`;
    const unstable = ["/Secret/ns/s data.password"];
    const report = chartReport(meta, side(secret("YWFh"), "1", unstable), side(secret("YmJi"), "2", unstable), options);
    expect(report.objects[0]?.changes[0]?.tags).toStrictEqual(["unstable", "replaces"]);
    expect(report.unstable.paths).toStrictEqual(["Secret ns/s: data.password"]);
    expect(diffReport([report]).changed).toBe(false);
    // Not counted, but the provider replaces this Secret at every `pulumi up`: against a cluster that fails every up after the first.
    expect([report.objects[0]?.action, report.objects[0]?.step]).toStrictEqual(["update", "replace"]);
    expect(report.unstable.consequence).toBe(
      "helm.v4.Chart fails every `pulumi up` after the first on Secret ns/s: each run replaces it, creating the replacement first, and the changed fields belong to the original's field manager",
    );
    const offline = chartReport({ ...meta, offline: true }, side(secret("YWFh"), "1", unstable), side(secret("YmJi"), "2", unstable), options);
    expect(offline.unstable.consequence).toBe("helm.v4.Chart replaces Secret ns/s at every `pulumi up`");
    const release = chartReport({ ...meta, engine: "release" }, side(secret("YWFh"), "1", unstable), side(secret("YmJi"), "2", unstable), options);
    expect(release.unstable.consequence).toBeUndefined();
  });

  it("counts a once-random value that is now pinned as a real change", () => {
    const secret = (value: string) => `apiVersion: v1\nkind: Secret\nmetadata: { name: s }\ndata: { password: ${value} }\n`;
    const report = chartReport(meta, side(secret("YWFh"), "1", ["/Secret/ns/s data.password"]), side(secret("YmJi"), "1"), options);
    expect(diffReport([report]).changed).toBe(true);
  });

  it("never shows Secret values, only what happened to each key and its byte length", () => {
    const planted = "planted-secret-7c1e";
    const encoded = Buffer.from(planted).toString("base64");
    const before = `apiVersion: v1\nkind: Secret\nmetadata: { name: s }\ndata: { password: ${Buffer.from("old").toString("base64")}, gone: eA== }\n`;
    const after = `apiVersion: v1\nkind: Secret\nmetadata: { name: s }\ndata: { password: ${encoded}, token: ${encoded} }\nstringData: { raw: ${planted} }\n`;
    const added = `apiVersion: v1\nkind: Secret\nmetadata: { name: fresh }\nstringData: { raw: ${planted} }\n`;
    const report = diffReport([chartReport(meta, side(before), side(`${after}---\n${added}`), options)]);
    const secretChanges = report.charts[0]?.objects.find((o) => o.id === "/Secret/ns/s")?.changes;
    expect(secretChanges?.map((c) => [c.path, c.secret])).toStrictEqual([
      ["data.password", "changed"],
      ["data.gone", "removed"],
      ["data.token", "added"],
      ["stringData.raw", "added"],
    ]);
    expect(secretChanges?.[0]?.after).toStrictEqual({ masked: true, bytes: planted.length });
    expect(report.charts[0]?.objects.find((o) => o.id === "/Secret/ns/s")?.unchangedSecrets).toBeUndefined();
    for (const text of [JSON.stringify(report), formatText(report), formatMarkdown(report)]) {
      expect(text).not.toContain(planted);
      expect(text).not.toContain(encoded);
    }
  });

  it("names the Secret values that did not change, with their byte length only", () => {
    const secret = (password: string) =>
      `apiVersion: v1\nkind: Secret\nmetadata: { name: s }\ndata: { user: ${Buffer.from("admin").toString("base64")}, password: ${Buffer.from(password).toString("base64")} }\n`;
    const report = diffReport([chartReport(meta, side(secret("old-pass")), side(secret("new-longer-pass")), options)]);
    const object = report.charts[0]?.objects[0];
    expect(object?.unchangedSecrets).toStrictEqual([{ path: "data.user", bytes: 5 }]);
    expect(formatText(report)).toContain("data.user: secret unchanged (5 bytes)");
    expect(formatText(report)).not.toContain("admin");
  });

  it("pairs a deleted and an added object of the same kind with mostly the same content as a rename", () => {
    const config = (name: string, extra = "") =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ${name}, labels: { app: web } }\ndata: { A: '1', B: '2', C: '3'${extra} }\n`;
    const report = chartReport(meta, side(config("old")), side(config("new", ", D: '4'")), options);
    expect(report.objects.map((o) => [o.action, o.id, o.renamedFrom?.id])).toStrictEqual([["rename", "/ConfigMap/ns/new", "/ConfigMap/ns/old"]]);
  });

  it("keeps unrelated objects as a delete and an add", () => {
    const a = "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: a }\ndata: { X: '1' }\n";
    const b = "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: b }\ndata: { Y: '2', Z: '3' }\n";
    expect(chartReport(meta, side(a), side(b), options).objects.map((o) => [o.action, o.id])).toStrictEqual([
      ["delete", "/ConfigMap/ns/a"],
      ["add", "/ConfigMap/ns/b"],
    ]);
  });

  it("treats an API version move as a change of the same object", () => {
    const doc = (api: string) => `apiVersion: ${api}\nkind: HorizontalPodAutoscaler\nmetadata: { name: h }\nspec: { maxReplicas: 3 }\n`;
    const report = chartReport(meta, side(doc("autoscaling/v2beta2")), side(doc("autoscaling/v2")), options);
    expect(report.objects.map((o) => [o.action, o.changes.map((c) => c.path)])).toStrictEqual([["update", ["apiVersion"]]]);
  });

  it("shows a chart added or removed as all its objects added or deleted", () => {
    const report = chartReport(meta, null, side(deployment("a", "img:1")), options);
    expect(report.objects.map((o) => o.action)).toStrictEqual(["add"]);
    expect(chartReport(meta, side(deployment("a", "img:1")), null, options).objects.map((o) => o.action)).toStrictEqual(["delete"]);
  });
});

describe("formatMarkdown", () => {
  it("stays under the limit by cutting field details first, says so, and still names every object", () => {
    const big = Array.from({ length: 40 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c${i} }\ndata: { v: '${"x".repeat(200)}' }\n`).join(
      "---\n",
    );
    const charts = Array.from({ length: 5 }, (_, i) => chartReport({ ...meta, chart: `c${i}` }, null, side(big), options));
    const text = formatMarkdown(diffReport(charts), 20_000);
    expect(text.length).toBeLessThanOrEqual(20_000);
    expect(text.startsWith("### chartroom diff")).toBe(true);
    expect(text).toContain("**Shortened**");
    expect(text).toContain("| c4 | dev |");
    for (let i = 0; i < 40; i++) expect(text.split(`ConfigMap ns/c${i} `).length - 1).toBe(5);
  });

  it("lists every changed object by name and class for a 30,000-line diff within 65,000 characters", () => {
    const doc = (i: number, value: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: config-${i} }\ndata:\n${Array.from({ length: 30 }, (_, k) => `  key${k}: '${value}-${k}'`).join("\n")}\n`;
    const objects = (value: string) => Array.from({ length: 500 }, (_, i) => doc(i, value)).join("---\n");
    const charts = ["alpha", "beta"].map((chart) => chartReport({ ...meta, chart, engine: "release" }, side(objects("old")), side(objects("new")), options));
    const report = diffReport(charts);
    expect(formatText(report).split("\n").length).toBeGreaterThan(30_000);
    const text = formatMarkdown(report);
    expect(text.length).toBeLessThanOrEqual(65_000);
    for (let i = 0; i < 500; i++) expect(text.split(`~ ConfigMap ns/config-${i} update`).length - 1).toBe(2);
    expect(text).toContain("field changes of 2 chart(s) left out (their objects are listed)");
  });

  it("folds charts to one line naming each object when even the object lists do not fit", () => {
    const big = Array.from({ length: 40 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c${i} }\ndata: { v: '${"x".repeat(200)}' }\n`).join(
      "---\n",
    );
    const charts = Array.from({ length: 5 }, (_, i) => chartReport({ ...meta, chart: `c${i}` }, null, side(big), options));
    const text = formatMarkdown(diffReport(charts), 7_000);
    expect(text.length).toBeLessThanOrEqual(7_000);
    expect(text).toMatch(/\d chart\(s\) folded to one line naming each changed object/);
    expect(text).toContain("- **c0** · dev · helm.v4.Chart · (absent) → 1.0.0: 40 added — add `ConfigMap ns/c0`, `ConfigMap ns/c1`");
    for (let i = 0; i < 40; i++) expect(text.split(`ConfigMap ns/c${i}\``).length - 1).toBeGreaterThanOrEqual(1);
  });
});

describe("hooks", () => {
  const job = (image: string) =>
    `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  annotations: { helm.sh/hook: pre-upgrade }\nspec: { template: { spec: { containers: [{ name: m, image: ${image} }] } } }\n`;
  const test =
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: probe\n  annotations: { helm.sh/hook: test }\nspec: { containers: [{ name: t, image: busybox }] }\n";

  it("does not call a changed hook Job a replacement under a Release: Helm recreates hooks on every run", () => {
    const report = chartReport({ ...meta, engine: "release" }, side(job("m:1")), side(job("m:2")), options);
    expect(report.objects.map((o) => [o.action, o.step])).toStrictEqual([["update", "update"]]);
  });

  it("lists hooks apart under helm.v4.Chart, which never creates them, instead of diffing them", () => {
    const report = chartReport(meta, side(`${job("m:1")}---\n${test}`), side(job("m:2")), options);
    expect(report.objects).toStrictEqual([]);
    expect(report.apart).toStrictEqual([
      { id: "/Pod/ns/probe", display: "Pod ns/probe", reason: "a test hook: helm.v4.Chart drops every hook", change: "delete" },
      { id: "batch/Job/ns/migrate", display: "Job.batch ns/migrate", reason: "a pre-upgrade hook: helm.v4.Chart drops every hook", change: "update" },
    ]);
  });

  it("pairs a test Pod named at random on each render: the same Pod on both sides, not one gone and one new", () => {
    const named = (suffix: string, image = "busybox") =>
      ({
        ...objects(test.replace("name: probe", `name: probe-${suffix}`).replace("busybox", image))[0],
        generatedName: "probe-*",
        source: "app/templates/tests/probe.yaml",
      }) as RenderedObject;
    const at = (object: RenderedObject): ChartSide => ({ version: "1.0.0", objects: [object], unstable: new Set() });
    const same = chartReport({ ...meta, engine: "release" }, at(named("x7k2q")), at(named("p0a9z")), options);
    expect(same.apart.map((item) => [item.display, item.change])).toStrictEqual([["Pod ns/probe-*", "same"]]);
    const changed = chartReport({ ...meta, engine: "release" }, at(named("x7k2q")), at(named("p0a9z", "curl")), options);
    expect(changed.apart.map((item) => [item.display, item.change])).toStrictEqual([["Pod ns/probe-*", "update"]]);
  });

  it("lists test hooks apart under a Release too: only helm test creates them", () => {
    const report = chartReport({ ...meta, engine: "release" }, side(test), side(test.replace("busybox", "curl")), options);
    expect([report.objects, report.apart.map((item) => [item.display, item.reason, item.change])]).toStrictEqual([
      [],
      [["Pod ns/probe", "a test hook: only `helm test` creates it", "update"]],
    ]);
  });
});

describe("crds/ under a Release", () => {
  it("says helm upgrade does not apply a change to a CRD from the crds/ folder", () => {
    const crd = (field: string) =>
      `# Source: app/crds/widgets.yaml\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: { name: widgets.example.com }\nspec: { group: example.com, names: { kind: Widget, plural: widgets }, scope: Namespaced, versions: [{ name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object, properties: { ${field}: { type: string } } } } }] }\n`;
    const release = chartReport({ ...meta, engine: "release" }, side(crd("a")), side(crd("b")), options).objects[0];
    expect([release?.action, release?.step]).toStrictEqual(["update", "skipped"]);
    expect(formatText(diffReport([chartReport({ ...meta, engine: "release" }, side(crd("a")), side(crd("b")), options)]))).toContain(
      "helm upgrade does not apply this: Helm installs crds/ once",
    );
    expect(chartReport(meta, side(crd("a")), side(crd("b")), options).objects[0]?.step).toBe("update");
  });
});

describe("a CRD's schema changes", () => {
  const crd = (fields: number, description: string, extra = "") => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.example.com
spec:
  group: example.com
  names: { kind: Thing, plural: things }
  scope: Namespaced
  versions:
    - name: v1alpha1
      served: true
      storage: false
      schema: { openAPIV3Schema: { type: object } }
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
${Array.from({ length: fields }, (_, i) => `            f${i}: { type: string, description: "${description} ${i}" }`).join("\n")}${extra}
`;

  it("are counted per version when there are many, and listed when asked or few", () => {
    const many = chartReport(meta, side(crd(40, "old")), side(crd(40, "new", "\n            added: { type: integer }")), options);
    const object = many.objects[0];
    expect(object?.changes).toStrictEqual([]);
    expect(object?.schemaChanges).toStrictEqual([
      { path: "spec.versions[1].schema.openAPIV3Schema", version: "v1", added: 1, removed: 0, changed: 40, descriptions: 40 },
    ]);
    const report = diffReport([many]);
    expect(report.changed).toBe(true);
    expect(formatText(report)).toContain(
      "spec.versions[1].schema.openAPIV3Schema (v1): 40 field(s) changed, 1 added (40 of them descriptions); --show-schema-fields lists them",
    );
    const all = chartReport(meta, side(crd(40, "old")), side(crd(40, "new")), { ...options, showSchemaFields: true }).objects[0];
    expect([all?.changes.length, all?.schemaChanges]).toStrictEqual([40, undefined]);
    const few = chartReport(meta, side(crd(5, "old")), side(crd(5, "new")), options).objects[0];
    expect([few?.changes.length, few?.schemaChanges]).toStrictEqual([5, undefined]);
  });
});

describe("an object moving between charts of a stack", () => {
  const service = `apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  ports: [{ port: 80 }]
`;
  it("is marked on both sides with what each engine does", () => {
    const gone = chartReport({ ...meta, chart: "api" }, side(service), null, options);
    const arrived = chartReport({ ...meta, chart: "backend" }, null, side(service), options);
    const elsewhere = chartReport({ ...meta, chart: "other", stack: "prod" }, null, side(service), options);
    markMoves([gone, arrived, elsewhere]);
    expect(arrived.objects[0]?.moved).toMatchObject({ from: "api", to: "backend" });
    expect(arrived.objects[0]?.moved?.consequence).toContain("then deletes the old one, which deletes the live object");
    expect(gone.objects[0]?.moved).toBe(arrived.objects[0]?.moved);
    expect(elsewhere.objects[0]?.moved).toBeUndefined();
    expect(formatText(diffReport([gone, arrived]))).toContain("moved here from chart api: helm.v4.Chart names each child by its chart");
    const releases = [
      chartReport({ ...meta, engine: "release", chart: "api" }, side(service), null, options),
      chartReport({ ...meta, engine: "release", chart: "backend" }, null, side(service), options),
    ];
    markMoves(releases);
    expect(releases[1]?.objects[0]?.moved?.consequence).toContain("invalid ownership metadata");
  });
});
