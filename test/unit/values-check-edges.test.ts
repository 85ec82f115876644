// The values check at its edges (src/values/check.ts): findings by rule and
// path for schema guards, each kind of schema error, subcharts with their own
// schema, the templates' reads, and values deferred to deploy time.
import { describe, expect, it } from "vitest";
import { checkValues, type ValuesContract } from "../../src/values/check.js";
import { deferredValue } from "../../src/values/deferred.js";
import { parseValuesFile } from "../../src/values/layers.js";
import { SchemaCache } from "../../src/values/schema.js";

function check(text: string, contract: ValuesContract, code?: Record<string, unknown>) {
  return checkValues({ chart: "app", stack: "dev", contract, layers: parseValuesFile("values/app/values.yaml", text), code, schemas: new SchemaCache() });
}

const rows = (result: ReturnType<typeof check>) => result.findings.map((f) => [f.rule, f.path, f.severity]);

describe("checkValues", () => {
  it("names a schema's external reference and a pattern Go's regexp refuses, by file and place, a subchart's under charts/", () => {
    const schema = { type: "object", properties: { a: { $ref: "https://schemas.example.test/a.json" }, b: { type: "string", pattern: "(?<=x)y" } } };
    const sub = { key: "db", defaults: {}, subcharts: [], schemaDocument: { type: "object", properties: { c: { $ref: "other.json" } } } };
    const result = check("a: 1\nb: y\n", { defaults: {}, schema, subcharts: [sub] });
    expect(rows(result).filter((row) => String(row[0]).startsWith("schema-"))).toStrictEqual([
      ["schema-external-ref", "charts/db/values.schema.json#/properties/c/$ref", "error"],
      ["schema-external-ref", "values.schema.json#/properties/a/$ref", "error"],
      ["schema-pattern", "values.schema.json#/properties/b/pattern", "error"],
    ]);
    const hints = result.findings.filter((f) => f.rule.startsWith("schema-")).map((f) => f.message);
    expect(hints[0]).toContain('references "other.json"');
    expect(hints[2]).toContain('has the pattern "(?<=x)y"');
  });

  it("reports each kind of schema error at its key: type, enum (its first ten values), required, additionalProperties, the rest by keyword", () => {
    const schema = {
      type: "object",
      required: ["name"],
      additionalProperties: false,
      properties: {
        name: { type: "string" },
        port: { type: "integer" },
        mode: { enum: Array.from({ length: 12 }, (_, i) => `m${i}`) },
        size: { enum: ["small", "large"] },
        replicas: { type: "integer", minimum: 1 },
        "a/b": { type: "string" },
      },
    };
    const result = check("port: http\nmode: other\nsize: medium\nreplicas: 0\nprot: 1\na/b: 2\n", { defaults: {}, schema, subcharts: [] });
    expect(rows(result)).toStrictEqual([
      ["type", "a/b", "error"],
      ["enum", "mode", "error"],
      ["required", "name", "error"],
      ["type", "port", "error"],
      ["additionalProperties", "prot", "error"],
      ["minimum", "replicas", "error"],
      ["enum", "size", "error"],
    ]);
    const by = (path: string) => result.findings.find((f) => f.path === path);
    expect(by("port")?.message).toBe("expected integer, got string");
    expect(by("mode")?.hint).toBe('allowed: "m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", … (12 in all)');
    expect(by("size")?.hint).toBe('allowed: "small", "large"');
    expect(by("name")?.hint).toBe("set name in values/app/values.yaml");
    expect(by("prot")?.hint).toBe('did you mean "port"?');
    // Where it was written: the line of the values file.
    expect(by("port")?.position?.line).toBe(1);
  });

  it("hints removal for a key nothing near is allowed", () => {
    const schema = { type: "object", additionalProperties: false, properties: { port: { type: "integer" } } };
    expect(check("zzzzzz: 1\n", { defaults: {}, schema, subcharts: [] }).findings.map((f) => [f.rule, f.hint])).toStrictEqual([
      ["additionalProperties", "remove it"],
    ]);
  });

  it("checks a subchart's part against its own schema, under its key, and a subchart of a subchart", () => {
    const inner = { key: "cache", defaults: { size: 1 }, subcharts: [], schemaDocument: { type: "object", properties: { size: { type: "integer" } } } };
    const sub = { key: "db", defaults: { port: 5432 }, subcharts: [inner], schemaDocument: { type: "object", properties: { port: { type: "integer" } } } };
    const result = check("db:\n  port: x\n  cache:\n    size: big\n", { defaults: {}, subcharts: [sub] });
    expect(rows(result)).toStrictEqual([
      ["type", "db.cache.size", "error"],
      ["type", "db.port", "error"],
    ]);
  });

  it("never reports a value deferred to deploy time, nor a key under it, but does report its siblings", () => {
    const schema = {
      type: "object",
      properties: { token: { type: "integer" }, nested: { type: "object", properties: { a: { type: "integer" } } }, other: { type: "integer" } },
    };
    const code = { token: deferredValue(true), nested: deferredValue(), other: "x" };
    const result = check("", { defaults: { token: 0, nested: { a: 1 }, other: 1 }, schema, subcharts: [] }, code);
    expect(rows(result)).toStrictEqual([["type", "other", "error"]]);
    expect(result.deferred).toStrictEqual([["token"], ["nested"]]);
  });
});

describe("unknown keys", () => {
  const contract = (extra: Partial<ValuesContract> = {}): ValuesContract => ({
    defaults: { image: { tag: "1" }, annotations: {}, service: { port: 80 } },
    subcharts: [],
    ...extra,
  });

  it("flags a key neither the defaults nor the schema know, with the nearest known key", () => {
    const result = check("image:\n  tga: 2\nservice:\n  prot: 81\nzzzzzz: 1\n", contract());
    expect(result.findings.map((f) => [f.rule, f.path, f.hint])).toStrictEqual([
      ["unknown-key", "image.tga", 'did you mean "image.tag"?'],
      ["unknown-key", "service.prot", 'did you mean "service.port"?'],
      ["unknown-key", "zzzzzz", "remove it, or check the chart's values.yaml"],
    ]);
  });

  it("takes anything under an empty default map, global, a subchart's key, and what the templates read", () => {
    const sub = { key: "db", defaults: { port: 1 }, subcharts: [] };
    expect(check("annotations:\n  anything: 1\nglobal:\n  x: 1\n", contract()).findings).toStrictEqual([]);
    expect(check("db:\n  port: 2\n", contract({ subcharts: [sub] })).findings).toStrictEqual([]);
    expect(check("db:\n  prt: 2\n", contract({ subcharts: [sub] })).findings.map((f) => f.path)).toStrictEqual(["db.prt"]);
    // Read by a template: the key, anything below a key read whole, and a map above a read.
    const reads = ["extraEnv", "image.pullPolicy", "config.a.b"];
    const defaults = { image: { tag: "1" }, config: { a: { b: 0 } } };
    const result = check("extraEnv:\n  A: 1\nimage:\n  pullPolicy: Always\nconfig:\n  a:\n    b: 1\n    c: 2\n", contract({ reads, defaults }));
    expect(result.findings.map((f) => f.path)).toStrictEqual(["config.a.c"]);
    // Where nothing is known about a map (no default, no schema), its keys are not judged.
    expect(check("config:\n  a:\n    c: 2\n", contract({ reads: ["config.a.b"] })).findings).toStrictEqual([]);
    expect(check("anything: 1\n", contract({ reads: ["*"] })).findings).toStrictEqual([]);
  });

  it("takes keys the schema names though the defaults do not, and anything where the schema is open", () => {
    const schema = { type: "object", properties: { extra: { type: "object", additionalProperties: true }, named: { type: "string" } } };
    expect(check("named: x\nextra:\n  free: 1\n", contract({ schema })).findings).toStrictEqual([]);
    expect(check("nammed: x\n", contract({ schema })).findings.map((f) => [f.path, f.hint])).toStrictEqual([["nammed", 'did you mean "named"?']]);
  });

  it("reports a key the schema refuses once, as the schema's finding", () => {
    const schema = { type: "object", additionalProperties: false, properties: { image: { type: "object" } } };
    expect(check("imag: 1\n", contract({ schema, defaults: { image: {} } })).findings.map((f) => [f.rule, f.path])).toStrictEqual([
      ["additionalProperties", "imag"],
    ]);
  });
});

describe("unknown keys, more edges", () => {
  const contract = (extra: Partial<ValuesContract> = {}): ValuesContract => ({ defaults: { service: { port: 80 } }, subcharts: [], ...extra });

  it("treats a subchart's key as one only at the top, and global as open only at the top", () => {
    const sub = { key: "db", defaults: { port: 1 }, subcharts: [] };
    expect(check("service:\n  db: 1\n  global: 2\n", contract({ subcharts: [sub] })).findings.map((f) => f.path)).toStrictEqual([
      "service.db",
      "service.global",
    ]);
  });

  it("knows a subchart's keys from its own schema, its $refs resolved in its own document, else from the parent's schema", () => {
    const schemaDocument = {
      type: "object",
      definitions: { inner: { type: "object", properties: { deep: { type: "integer" } } } },
      properties: { extra: { type: "integer" }, inner: { $ref: "#/definitions/inner" } },
    };
    const own = { key: "db", defaults: { port: 1, inner: { x: 1 } }, subcharts: [], schemaDocument };
    expect(check("db:\n  extra: 1\n  inner:\n    deep: 2\n", contract({ subcharts: [own] })).findings).toStrictEqual([]);
    const parentSchema = { type: "object", properties: { db: { type: "object", properties: { extra: { type: "integer" } } } } };
    const bare = { key: "db", defaults: { port: 1 }, subcharts: [] };
    expect(check("db:\n  extra: 1\n", contract({ subcharts: [bare], schema: parentSchema })).findings).toStrictEqual([]);
    expect(check("db:\n  extar: 1\n", contract({ subcharts: [bare], schema: parentSchema })).findings.map((f) => [f.path, f.hint])).toStrictEqual([
      ["db.extar", 'did you mean "db.extra"?'],
    ]);
  });

  it("judges the top level against the schema even when the chart has no defaults", () => {
    const schema = { type: "object", properties: { name: { type: "string" } } };
    expect(check("nmae: x\n", { defaults: {}, subcharts: [], schema }).findings.map((f) => [f.rule, f.path])).toStrictEqual([["unknown-key", "nmae"]]);
  });

  it("takes everything below a read and the maps above one, and nothing beside them", () => {
    const defaults = { config: { a: { b: 0 } }, other: { x: 1 } };
    const result = check("config:\n  a:\n    b:\n      anything: 1\n  z: 1\nother:\n  yy: 2\n", { defaults, subcharts: [], reads: ["config.a.b"] });
    expect(result.findings.map((f) => f.path)).toStrictEqual(["config.z", "other.yy"]);
    // A read two levels down makes only its own parents "inside": a sibling of the parent is still judged.
    expect(check("config:\n  q: 1\n", { defaults: { config: { a: 1 } }, subcharts: [], reads: ["config.a.b"] }).findings.map((f) => f.path)).toStrictEqual([
      "config.q",
    ]);
  });
});

describe("schema findings, more edges", () => {
  it("says which value a type error found, ten allowed values in full, and a refused key's nearest allowed name", () => {
    const schema = {
      type: "object",
      additionalProperties: false,
      properties: { list: { type: "array", items: { type: "integer" } }, ten: { enum: Array.from({ length: 10 }, (_, i) => i) }, port: {} },
    };
    const result = check("list: [1, x]\nten: 11\nprot: 1\n", { defaults: {}, subcharts: [], schema });
    const by = (rule: string) => result.findings.find((f) => f.rule === rule);
    expect(by("type")?.message).toBe("expected integer, got string");
    expect(by("type")?.path).toBe("list.1");
    expect(by("enum")?.hint).toBe("allowed: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9");
    expect(by("additionalProperties")?.hint).toBe('did you mean "port"?');
  });

  it("leaves out findings below a value given in code at deploy time, and only below it", () => {
    const schema = {
      type: "object",
      properties: { token: { type: "string" }, tokens: { type: "string" }, nested: { type: "object", properties: { a: { type: "string" } } } },
    };
    const code = { token: deferredValue(true), nested: { a: deferredValue() } };
    const result = check("tokens: 1\n", { defaults: {}, subcharts: [], schema }, code);
    expect(result.findings.map((f) => [f.rule, f.path])).toStrictEqual([["type", "tokens"]]);
  });

  it("names a schema ajv refuses as invalid, with what Helm does with such a chart", () => {
    const result = check("a: 1\n", { defaults: {}, subcharts: [], schema: { type: "object", properties: { a: { type: "no-such-type" } } } });
    const invalid = result.findings.find((f) => f.rule === "schema-invalid");
    expect([invalid?.path.startsWith("values.schema.json"), invalid?.hint]).toStrictEqual([
      true,
      "Helm refuses a chart whose schema is invalid: pin another version, or ask its maintainers",
    ]);
  });
});
