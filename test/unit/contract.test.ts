import { describe, expect, it } from "vitest";
import type { ValuesContract } from "../../src/values/check.js";
import { contractDiff } from "../../src/values/contract.js";

const version = (defaults: Record<string, unknown>, schema?: unknown): ValuesContract => ({ defaults, schema, subcharts: [] });

describe("contractDiff", () => {
  it("reports a key the platform sets that the new version renamed, suggesting the new name", () => {
    const changes = contractDiff(
      { service: { port: 8080 } },
      version({ service: { port: 80, type: "ClusterIP" } }),
      version({ service: { httpPort: 80, type: "ClusterIP" } }),
    );
    expect(changes).toStrictEqual([
      {
        kind: "ignored",
        path: "service.port",
        detail: "set by the platform, unknown to the new version: Helm will ignore it and render the default",
        hint: "service.httpPort is new in this version with the same default: was it renamed?",
      },
    ]);
  });

  it("reports a newly required key that nothing sets, and not one the defaults satisfy", () => {
    const schema = (required: string[]) => ({
      type: "object",
      required,
      properties: { db: { type: "object", required: ["host"], properties: { host: { type: "string" } } } },
    });
    const changes = contractDiff({}, version({ image: "x" }, schema([])), version({ image: "x" }, schema(["image", "db"])));
    // db.host was already required within db, so only db is new; image is satisfied by its default.
    expect(changes.map((c) => [c.kind, c.path])).toStrictEqual([["required", "db"]]);
  });

  it("reports a type change of a key the platform sets", () => {
    const changes = contractDiff({ resources: "small" }, version({ resources: "medium" }), version({ resources: { cpu: "100m" } }));
    expect(changes.map((c) => [c.kind, c.path, c.detail])).toContainEqual([
      "type",
      "resources",
      "the platform sets it; its type changed from string to object",
    ]);
  });

  it("lists changed defaults only for keys the platform does not set", () => {
    const changes = contractDiff({ replicas: 3 }, version({ replicas: 1, log: { level: "info" } }), version({ replicas: 2, log: { level: "warn" } }));
    expect(changes).toStrictEqual([{ kind: "default", path: "log.level", detail: 'default changed from "info" to "warn"' }]);
  });

  it("is empty for the same contract", () => {
    const same = version({ a: { b: 1 } }, { type: "object", required: ["a"] });
    expect(contractDiff({ a: { b: 2 } }, same, same)).toStrictEqual([]);
  });

  it("reports only keys that became unknown, and guesses a rename only when one new key has the old default", () => {
    // Already unknown to the old version: not the upgrade's doing.
    expect(contractDiff({ typo: 1 }, version({ a: 1 }), version({ a: 1 }))).toStrictEqual([]);
    // Two new keys with the same default: no guess, the key's own hint.
    const ambiguous = contractDiff({ port: 8080 }, version({ port: 80 }), version({ httpPort: 80, httpsPort: 80 }));
    expect(ambiguous.map((c) => [c.kind, c.path, c.hint])).toStrictEqual([["ignored", "port", "remove it, or check the chart's values.yaml"]]);
    // Nested: the guess keeps the parent's path.
    const nested = contractDiff({ db: { pass: "x" } }, version({ db: { pass: "" } }), version({ db: { password: "" } }));
    expect(nested[0]?.hint).toBe("db.password is new in this version with the same default: was it renamed?");
    // The new key's default differs: no rename guessed.
    const differs = contractDiff({ db: { pass: "x" } }, version({ db: { pass: "" } }), version({ db: { password: "changeme" } }));
    expect(differs[0]?.hint).not.toContain("renamed");
  });

  it("lists required keys sorted, deep ones included, and does not follow schemas without end", () => {
    const schema = {
      type: "object",
      required: ["b", "a"],
      properties: { a: { type: "string" }, b: { type: "object", required: ["z"], properties: { z: { type: "string" } } } },
    };
    expect(contractDiff({}, version({}), version({}, schema)).map((c) => c.path)).toStrictEqual(["a", "b", "b.z"]);
  });

  it("compares types from the schema (integer and number alike) or else from the defaults", () => {
    const typed = (type: string) => ({ type: "object", properties: { n: { type } } });
    expect(contractDiff({ n: 1 }, version({}, typed("integer")), version({}, typed("number")))).toStrictEqual([]);
    expect(contractDiff({ n: 1 }, version({}, typed("integer")), version({}, typed("string"))).map((c) => c.detail)).toStrictEqual([
      "the platform sets it; its type changed from number to string",
    ]);
    expect(contractDiff({ n: 1 }, version({ n: 2 }), version({ n: 2.5 }))).toStrictEqual([]);
    expect(contractDiff({ n: 1 }, version({ n: null }), version({ n: "x" }))).toStrictEqual([]);
    expect(contractDiff({ n: { m: 1 } }, version({ n: { m: 1 } }), version({ n: { m: "1" } })).map((c) => [c.path, c.detail])).toStrictEqual([
      ["n.m", "the platform sets it; its type changed from number to string"],
    ]);
  });

  it("shows long changed defaults shortened, and none under a map the platform sets", () => {
    const long = "x".repeat(80);
    const [change] = contractDiff({}, version({ note: "short" }), version({ note: long }));
    expect(change?.detail).toBe(`default changed from "short" to "${"x".repeat(56)}…`);
    expect(
      contractDiff({ log: { level: "debug" } }, version({ log: { level: "info", format: "text" } }), version({ log: { level: "warn", format: "json" } })),
    ).toStrictEqual([]);
    // An empty map default is a leaf: its change is listed.
    expect(contractDiff({}, version({ labels: {} }), version({ labels: null })).map((c) => [c.path, c.detail])).toStrictEqual([
      ["labels", "default changed from {} to null"],
    ]);
  });
});
