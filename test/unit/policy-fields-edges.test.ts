// The unknown-field rule (src/policy/rules/fields.ts) over a small field table
// written here, so each field code is tried alone: a type's keys, "" (keys not
// checked), "[T" (a list, items named by their `name`), "{T" (a map), values of
// the wrong shape left to the schema rule; and the note for a stack newer than
// the table. One case runs the real table.
import { describe, expect, it } from "vitest";
import { fieldLines, loadKubernetesFields, unknownField, type KubernetesFields } from "../../src/policy/rules/fields.js";
import { runPolicies } from "../../src/policy/run.js";
import { emptySettings } from "../../src/policy/settings.js";
import { parseManifest } from "../../src/render/manifest.js";

const TABLE: KubernetesFields = {
  source: "test",
  kubernetes: "1.33",
  kinds: { "v1 Thing": "Thing", "v1 Lost": "NoSuchType", "v1 Bare": "Empty" },
  types: {
    Thing: fieldLines({ apiVersion: "", kind: "", metadata: "", spec: "Spec", items: "[Item", labels: "{Label", free: "{" }),
    Spec: fieldLines({ size: "", child: "Spec" }),
    Item: fieldLines({ name: "", value: "" }),
    Label: fieldLines({ x: "" }),
    Empty: "",
  },
};

function unknown(body: string, kubeVersion?: string, table = TABLE, kind = "Thing"): string[][] {
  const objects = parseManifest(`apiVersion: v1\nkind: ${kind}\nmetadata: { name: t, anything: 1 }\n${body}`, "web", "app");
  return runPolicies({
    stack: "dev",
    kubeVersion,
    charts: [{ key: "app", engine: "chart", dropHooks: true, values: {}, objects }],
    rules: [unknownField(table)],
    settings: emptySettings(),
    today: "2026-06-15",
  }).map((f) => [f.path ?? "", f.message]);
}

const paths = (body: string) => unknown(body).map(([path]) => path);

describe("unknown-field", () => {
  it("reports unknown keys of a type at their path, nested types included", () => {
    expect(paths("spce: {}\nspec: { size: 1, sise: 2, child: { child: { typo: 3 } } }\n")).toStrictEqual(["spce", "spec.sise", "spec.child.child.typo"]);
  });

  it("names list items by their name, else their index, and skips items and lists of the wrong shape", () => {
    expect(paths("items:\n  - { name: a, bad: 1 }\n  - { bad: 2 }\n  - text\n  - { name: 5, bad: 3 }\n")).toStrictEqual([
      "items[name=a].bad",
      "items[1].bad",
      "items[3].bad",
    ]);
    expect(paths("items: { name: a, bad: 1 }\n")).toStrictEqual([]);
    expect(paths("items: text\n")).toStrictEqual([]);
  });

  it("walks each value of a map with the map's type, and not a map of the wrong shape", () => {
    expect(paths("labels: { one: { x: 1, w: 2 }, two: { z: 3 } }\n")).toStrictEqual(["labels.one.w", "labels.two.z"]);
    expect(paths("labels: [ { w: 2 } ]\n")).toStrictEqual([]);
    expect(paths("free: { anything: { at: all } }\n")).toStrictEqual([]);
  });

  it('checks no keys under a field coded "", nor under a value that is not an object', () => {
    expect(paths("spec: text\n")).toStrictEqual([]);
    expect(paths("spec: [ { typo: 1 } ]\n")).toStrictEqual([]);
  });

  it("checks only kinds the table has, with a type it has", () => {
    expect(unknown("typo: 1\n", undefined, TABLE, "Other")).toStrictEqual([]);
    expect(unknown("typo: 1\n", undefined, TABLE, "Lost")).toStrictEqual([]);
  });

  it("knows no field of a type that has none, not even one named by the empty string", () => {
    expect(unknown('"": 1\n', undefined, TABLE, "Bare").map(([path]) => path)).toStrictEqual(["apiVersion", "kind", "metadata", ""]);
  });

  it("reads a type's fields again for each table, not from another table's", () => {
    const other: KubernetesFields = { ...TABLE, types: { ...TABLE.types, Spec: fieldLines({ sise: "" }) } };
    expect(paths("spec: { sise: 1 }\n")).toStrictEqual(["spec.sise"]);
    expect(unknown("spec: { sise: 1, size: 2 }\n", undefined, other).map(([path]) => path)).toStrictEqual(["spec.size"]);
  });

  it("says the stack is newer than the table only when it is", () => {
    const plain = 'unknown field "typo": the Kubernetes 1.33 API has no such field here';
    const newer = `${plain}; stack dev runs 1.34.0, newer: if the field is new there, add an exception`;
    expect(unknown("typo: 1\n", "1.33.9")).toStrictEqual([["typo", plain]]);
    expect(unknown("typo: 1\n", "1.32")).toStrictEqual([["typo", plain]]);
    expect(unknown("typo: 1\n", undefined)).toStrictEqual([["typo", plain]]);
    expect(unknown("typo: 1\n", "1.34.0")).toStrictEqual([["typo", newer]]);
  });

  it("finds a misspelt container field with the real table", async () => {
    const table = await loadKubernetesFields();
    const objects = parseManifest(
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\nspec:\n  selector: { matchLabels: { app: web } }\n  template:\n    metadata: { labels: { app: web } }\n    spec:\n      containers:\n        - { name: web, image: web, imagePullPolicey: Always }\n",
      "web",
      "app",
    );
    const findings = runPolicies({
      stack: "dev",
      charts: [{ key: "app", engine: "chart", dropHooks: true, values: {}, objects }],
      rules: [unknownField(table)],
      settings: emptySettings(),
      today: "2026-06-15",
    });
    expect(findings.map((f) => [f.rule, f.object, f.path])).toStrictEqual([
      ["unknown-field", "Deployment.apps web/web", "spec.template.spec.containers[name=web].imagePullPolicey"],
    ]);
  });
});
