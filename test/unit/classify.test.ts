import { describe, expect, it } from "vitest";
import { immutablePrefixes, isBookkeeping, isSecret, leaves } from "../../src/diff/classify.js";
import type { RenderedObject } from "../../src/model/objects.js";
import { parsePath } from "../../src/util/tree-path.js";

const object = (group: string, kind: string, body: Record<string, unknown> = {}): RenderedObject => ({
  id: `${group}/${kind}/ns/x`,
  apiVersion: "v1",
  group,
  kind,
  namespace: "ns",
  name: "x",
  body,
});

describe("classification of fields", () => {
  it.each([
    ['metadata.labels["helm.sh/chart"]', true],
    ['metadata.labels["app.kubernetes.io/version"]', true],
    ["metadata.labels.chart", true],
    ['spec.template.metadata.labels["helm.sh/chart"]', true],
    ['metadata.annotations["checksum/config"]', true],
    ["metadata.labels.app", false],
    ["metadata.annotations.note", false],
    ["metadata.name", false],
    ["labels", false],
    ["spec.containers[0]", false],
  ])("%s is bookkeeping: %s", (path, expected) => {
    expect(isBookkeeping(parsePath(path))).toBe(expected);
  });

  it("knows what the API server will not change in place, per kind", () => {
    expect(immutablePrefixes(object("apps", "Deployment"), object("apps", "Deployment"))).toStrictEqual([["spec", "selector"]]);
    expect(immutablePrefixes(object("", "Service"), object("", "Service"))).toStrictEqual([
      ["spec", "clusterIP"],
      ["spec", "clusterIPs"],
    ]);
    expect(immutablePrefixes(object("", "ConfigMap"), object("", "ConfigMap"))).toStrictEqual([]);
    expect(immutablePrefixes(object("example.com", "Widget"), object("example.com", "Widget"))).toStrictEqual([]);
    // Data of a ConfigMap or Secret only when it is immutable on both sides.
    const frozen = { immutable: true };
    expect(immutablePrefixes(object("", "Secret", frozen), object("", "Secret", frozen))).toStrictEqual([["data"], ["binaryData"], ["stringData"]]);
    expect(immutablePrefixes(object("", "ConfigMap", frozen), object("", "ConfigMap", frozen))).toStrictEqual([["data"], ["binaryData"], ["stringData"]]);
    expect(immutablePrefixes(object("", "ConfigMap", {}), object("", "ConfigMap", frozen))).toStrictEqual([]);
    expect(immutablePrefixes(object("", "ConfigMap", frozen), object("", "ConfigMap", {}))).toStrictEqual([]);
    expect(immutablePrefixes(object("other.io", "Secret", frozen), object("other.io", "Secret", frozen))).toStrictEqual([]);
  });

  it("tells a core Secret from a kind of the same name elsewhere", () => {
    expect(isSecret({ group: "", kind: "Secret" })).toBe(true);
    expect(isSecret({ group: "bitnami.com", kind: "Secret" })).toBe(false);
    expect(isSecret({ group: "", kind: "ConfigMap" })).toBe(false);
  });

  it("lists an object's leaves with their paths, lists included", () => {
    expect([...leaves({ a: { b: 1 }, c: ["x", { d: null }] })]).toStrictEqual([".a.b=1", '.c[0]="x"', ".c[1].d=null"]);
  });
});
