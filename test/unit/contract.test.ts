import { describe, expect, it } from "vitest";
import type { ValuesContract } from "../../src/values/check.js";
import { contractDiff } from "../../src/values/contract.js";

const version = (defaults: Record<string, unknown>, schema?: unknown): ValuesContract => ({ defaults, schema, subcharts: [] });

describe("contractDiff", () => {
  it("reports a key the platform sets that the new version renamed, suggesting the new name", () => {
    const changes = contractDiff({ service: { port: 8080 } }, version({ service: { port: 80, type: "ClusterIP" } }), version({ service: { httpPort: 80, type: "ClusterIP" } }));
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
    const schema = (required: string[]) => ({ type: "object", required, properties: { db: { type: "object", required: ["host"], properties: { host: { type: "string" } } } } });
    const changes = contractDiff({}, version({ image: "x" }, schema([])), version({ image: "x" }, schema(["image", "db"])));
    // db.host was already required within db, so only db is new; image is satisfied by its default.
    expect(changes.map((c) => [c.kind, c.path])).toStrictEqual([["required", "db"]]);
  });

  it("reports a type change of a key the platform sets", () => {
    const changes = contractDiff({ resources: "small" }, version({ resources: "medium" }), version({ resources: { cpu: "100m" } }));
    expect(changes.map((c) => [c.kind, c.path, c.detail])).toContainEqual(["type", "resources", "the platform sets it; its type changed from string to object"]);
  });

  it("lists changed defaults only for keys the platform does not set", () => {
    const changes = contractDiff({ replicas: 3 }, version({ replicas: 1, log: { level: "info" } }), version({ replicas: 2, log: { level: "warn" } }));
    expect(changes).toStrictEqual([{ kind: "default", path: "log.level", detail: 'default changed from "info" to "warn"' }]);
  });

  it("is empty for the same contract", () => {
    const same = version({ a: { b: 1 } }, { type: "object", required: ["a"] });
    expect(contractDiff({ a: { b: 2 } }, same, same)).toStrictEqual([]);
  });
});
