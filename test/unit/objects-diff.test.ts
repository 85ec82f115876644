import { describe, expect, it } from "vitest";
import { diffObjects, type DiffOptions } from "../../src/diff/objects.js";
import type { RenderedObject } from "../../src/model/objects.js";

const options = (extra: Partial<DiffOptions> = {}): DiffOptions => ({ unstable: new Set(), showSecrets: false, engine: "chart", ...extra });

function object(kind: string, name: string, body: Record<string, unknown>, extra: Partial<RenderedObject> = {}): RenderedObject {
  const group = kind === "Deployment" || kind === "StatefulSet" ? "apps" : "";
  return {
    id: `${group}/${kind}/ns/${name}`,
    apiVersion: group === "" ? "v1" : `${group}/v1`,
    group,
    kind,
    namespace: "ns",
    name,
    body: { metadata: { name }, ...body },
    ...extra,
  };
}

describe("diffObjects", () => {
  it("reports nothing for equal objects, and a name-only difference of a matched object is no change", () => {
    const a = object("ConfigMap", "a", { data: { k: "v" } });
    expect(diffObjects([a], [structuredClone(a)], options())).toStrictEqual([]);
    const renamed = { ...a, body: { ...a.body, metadata: { name: "a-7f9c" } } };
    expect(diffObjects([a], [renamed], options())).toStrictEqual([]);
    // Any other field of metadata is a change, one beside the name included.
    const annotated = { ...a, body: { ...a.body, metadata: { name: "a", annotations: { x: "1" } } } };
    expect(diffObjects([a], [annotated], options()).map((report) => report.changes.map((change) => change.path))).toStrictEqual([["metadata.annotations"]]);
    const named = { ...a, body: { ...a.body, metadata: { name: "a", namespace: "ns" } } };
    expect(diffObjects([a], [named], options()).map((report) => report.changes.map((change) => change.path))).toStrictEqual([["metadata.namespace"]]);
  });

  it("compares objects as the provider sends them: a null is no field, nor an empty map or list of a built-in kind", () => {
    const before = object("Deployment", "web", {
      spec: {
        selector: { matchLabels: { app: "web" } },
        template: { spec: { nodeSelector: null, tolerations: [], containers: [{ name: "web", resources: {} }] } },
      },
    });
    const after = object("Deployment", "web", { spec: { selector: { matchLabels: { app: "web" } }, template: { spec: { containers: [{ name: "web" }] } } } });
    expect(diffObjects([before], [after], options())).toStrictEqual([]);
    // A null selector the next version leaves out is not a change of an immutable field.
    const nulled = object("Deployment", "web", { spec: { selector: { matchLabels: { app: "web" }, matchExpressions: null } } });
    expect(diffObjects([nulled], [object("Deployment", "web", { spec: { selector: { matchLabels: { app: "web" } } } })], options())).toStrictEqual([]);
  });

  it("keeps an empty map of a custom resource: the provider sends those as they are", () => {
    const cr = (spec: Record<string, unknown>): RenderedObject => ({
      ...object("Widget", "w", { spec }),
      id: "example.com/Widget/ns/w",
      group: "example.com",
      apiVersion: "example.com/v1",
    });
    expect(diffObjects([cr({ tuning: {} })], [cr({})], options()).map((report) => report.changes.map((change) => [change.path, change.op]))).toStrictEqual([
      [["spec.tuning", "remove"]],
    ]);
    expect(diffObjects([cr({ tuning: null })], [cr({})], options())).toStrictEqual([]);
  });

  it("keeps the template and hook of each object, and sorts reports by id", () => {
    const hook = { events: ["pre-install"], weight: 0, test: false, deletePolicies: [] };
    const before = [object("ConfigMap", "b", { data: { k: "1" } }, { source: "t/b.yaml" }), object("ConfigMap", "a", { data: { k: "1" } })];
    const after = [object("ConfigMap", "a", { data: { k: "2" } }, { hook }), object("ConfigMap", "b", { data: { k: "2" } }, { source: "t/b.yaml" })];
    const reports = diffObjects(before, after, options({ engine: "release" }));
    expect(reports.map((r) => [r.id, r.source, r.hook])).toStrictEqual([
      ["/ConfigMap/ns/a", undefined, hook],
      ["/ConfigMap/ns/b", "t/b.yaml", undefined],
    ]);
  });

  it("treats a hook's immutable field as an update (Helm recreates hooks) and a plain object's as a replacement", () => {
    const job = (image: string, extra: Partial<RenderedObject> = {}) => ({
      ...object("Job", "migrate", { spec: { template: { spec: { containers: [{ name: "m", image }] } } } }, extra),
      id: "batch/Job/ns/migrate",
      group: "batch",
    });
    const hook = { events: ["pre-upgrade"], weight: 0, test: false, deletePolicies: [] };
    expect(diffObjects([job("a", { hook })], [job("b", { hook })], options({ engine: "release" }))[0]?.action).toBe("update");
    const plain = diffObjects([job("a")], [job("b")], options({ engine: "release" }))[0];
    expect([plain?.action, plain?.replacement?.fields]).toStrictEqual(["replace", ["spec.template"]]);
  });

  it("tags changes every render makes, known by either side's id", () => {
    const before = object("ConfigMap", "a", { data: { k: "1", s: "x" } });
    const after = object("ConfigMap", "a", { data: { k: "2", s: "y" } });
    const [report] = diffObjects([before], [after], options({ engine: "release", unstable: new Set(["/ConfigMap/ns/a data.s"]) }));
    expect(report?.changes.map((c) => [c.path, c.tags])).toStrictEqual([
      ["data.k", []],
      ["data.s", ["unstable"]],
    ]);
  });

  it("masks Secret values unless asked, and lists the unchanged ones", () => {
    const secret = (a: string) => object("Secret", "s", { data: { a: Buffer.from(a).toString("base64"), same: "c2FtZQ==" } });
    const [masked] = diffObjects([secret("one")], [secret("three")], options());
    expect(masked?.changes).toStrictEqual([
      { path: "data.a", op: "change", before: { masked: true, bytes: 3 }, after: { masked: true, bytes: 5 }, tags: ["replaces"], secret: "changed" },
    ]);
    expect(masked?.unchangedSecrets).toStrictEqual([{ path: "data.same", bytes: 4 }]);
    const [shown] = diffObjects([secret("one")], [secret("three")], options({ showSecrets: true }));
    expect(shown?.changes[0]).toMatchObject({ path: "data.a", before: "b25l", after: "dGhyZWU=" });
    expect(shown?.unchangedSecrets).toBeUndefined();
    // A ConfigMap's data is not a Secret's.
    const [config] = diffObjects([object("ConfigMap", "c", { data: { a: "1" } })], [object("ConfigMap", "c", { data: { a: "2" } })], options());
    expect(config?.changes[0]).toMatchObject({ before: "1", after: "2" });
  });

  it("names every replacement field, sorted, with each engine's consequence", () => {
    const set = (selector: string, claim: string) =>
      object("StatefulSet", "db", { spec: { selector: { matchLabels: { app: selector } }, volumeClaimTemplates: [{ metadata: { name: claim } }] } });
    const [report] = diffObjects([set("a", "x")], [set("b", "y")], options({ engine: "release" }));
    expect(report?.replacement?.fields).toStrictEqual(["spec.selector", "spec.volumeClaimTemplates"]);
    expect(report?.replacement?.consequences.release).toContain("field is immutable");
  });

  it("pairs a rename with the most similar object of its kind, and adds and deletes the rest", () => {
    const data = (n: number) => Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i < n ? "same" : `other-${i}`]));
    const before = [object("ConfigMap", "old", { data: data(10) })];
    const after = [
      object("ConfigMap", "close", { data: data(8) }),
      object("ConfigMap", "closest", { data: data(9) }),
      object("Secret", "old-secret", { data: data(10) }),
    ];
    const reports = diffObjects(before, after, options());
    expect(reports.map((r) => [r.display, r.action, r.renamedFrom?.display])).toStrictEqual([
      ["ConfigMap ns/close", "add", undefined],
      ["ConfigMap ns/closest", "rename", "ConfigMap ns/old"],
      ["Secret ns/old-secret", "add", undefined],
    ]);
    // Too different: a delete and an add.
    expect(diffObjects(before, [object("ConfigMap", "new", { data: data(5) })], options()).map((r) => r.action)).toStrictEqual(["add", "delete"]);
    // Renamed but otherwise equal: a rename whose only step is to recreate.
    const [same] = diffObjects(before, [object("ConfigMap", "renamed", { data: data(10) })], options());
    expect([same?.action, same?.step, same?.changes, same?.replacement]).toStrictEqual(["rename", "recreate", [], undefined]);
  });

  it("matches objects with generated names by template and pattern, not as renames", () => {
    const pod = (name: string, image: string, source = "t/ping.yaml") =>
      object("Pod", name, { spec: { containers: [{ name: "p", image }] } }, { source, generatedName: "ping-*" });
    const reports = diffObjects(
      [pod("ping-abc12", "busybox:1"), pod("ping-zzz99", "x", "t/other.yaml")],
      [pod("ping-q1w2e", "busybox:2"), pod("ping-ppp00", "x", "t/other.yaml")],
      options(),
    );
    // (helm.v4.Chart replaces a bare Pod whose container changes.)
    expect(reports.map((r) => [r.id, r.action, r.changes.map((c) => c.path)])).toStrictEqual([
      ["/Pod/ns/ping-abc12", "replace", ["spec.containers[name=p].image"]],
    ]);
    // Without the pattern they would be a delete and an add each (too different to be a rename here).
    const plain = (name: string) => object("Pod", name, { spec: { containers: [{ name: "p", image: name }] } });
    expect(diffObjects([plain("ping-abc12")], [plain("ping-q1w2e")], options()).map((r) => r.action)).toStrictEqual(["delete", "add"]);
  });

  it("pairs generated names within their own template and pattern, each with its own changes", () => {
    const pod = (name: string, image: string, source: string, generatedName: string) =>
      object("Pod", name, { spec: { containers: [{ name: "p", image }] } }, { source, generatedName });
    const before = [
      pod("ping-aaaaa", "ping:1", "t/ping.yaml", "ping-*"),
      pod("probe-bbbbb", "probe:1", "t/probe.yaml", "probe-*"),
      pod("fixed", "fixed:1", "t/fixed.yaml", "fixed-*"),
    ];
    const after = [
      pod("probe-ccccc", "probe:2", "t/probe.yaml", "probe-*"),
      pod("ping-ddddd", "ping:2", "t/ping.yaml", "ping-*"),
      pod("fixed", "fixed:2", "t/fixed.yaml", "fixed-*"),
    ];
    const reports = diffObjects(before, after, options({ engine: "release" }));
    expect(reports.map((r) => [r.id, r.action, r.changes.map((c) => `${c.path}: ${String(c.before)} → ${String(c.after)}`)])).toStrictEqual([
      ["/Pod/ns/fixed", "update", ["spec.containers[name=p].image: fixed:1 → fixed:2"]],
      ["/Pod/ns/ping-aaaaa", "update", ["spec.containers[name=p].image: ping:1 → ping:2"]],
      ["/Pod/ns/probe-bbbbb", "update", ["spec.containers[name=p].image: probe:1 → probe:2"]],
    ]);
    // Another kind, namespace or template is not the same object.
    const elsewhere = [{ ...pod("ping-eeeee", "ping:9", "t/other.yaml", "ping-*") }];
    expect(
      diffObjects([before[0] as RenderedObject], elsewhere, options())
        .map((r) => r.action)
        .sort(),
    ).toStrictEqual(["add", "delete"]);
  });

  it("pairs renames only within a kind and namespace, ignoring the labels every version rewrites", () => {
    const labelled = (name: string, version: string, extra: Partial<RenderedObject> = {}) =>
      object(
        "ConfigMap",
        name,
        { metadata: { name, labels: { "helm.sh/chart": `app-${version}`, "app.kubernetes.io/version": version } }, data: { a: "1", b: "2" } },
        extra,
      );
    const renamed = diffObjects([labelled("old", "1")], [labelled("new", "2")], options());
    expect(renamed.map((r) => [r.action, r.renamedFrom?.display])).toStrictEqual([["rename", "ConfigMap ns/old"]]);
    const moved = { ...labelled("new", "1"), id: "/ConfigMap/other/new", namespace: "other" };
    expect(
      diffObjects([labelled("old", "1")], [moved], options())
        .map((r) => r.action)
        .sort(),
    ).toStrictEqual(["add", "delete"]);
    const secret = { ...labelled("new", "1"), id: "/Secret/ns/new", kind: "Secret" };
    expect(
      diffObjects([labelled("old", "1")], [secret], options())
        .map((r) => r.action)
        .sort(),
    ).toStrictEqual(["add", "delete"]);
  });
});
