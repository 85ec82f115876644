import { describe, expect, it } from "vitest";
import { checkValues, type ValuesContract } from "../../src/values/check.js";
import { coalesce, mergeLayers, subchartView } from "../../src/values/coalesce.js";
import { deferredValue } from "../../src/values/deferred.js";
import { parseValuesFile } from "../../src/values/layers.js";
import { SchemaCache, dialectOf } from "../../src/values/schema.js";

const contract = (schema?: unknown, defaults: Record<string, unknown> = {}, subcharts: ValuesContract["subcharts"] = []): ValuesContract => ({ defaults, schema, subcharts });

function check(text: string, c: ValuesContract, code?: Record<string, unknown>, schemas = new SchemaCache()) {
  return checkValues({ chart: "app", stack: "dev", contract: c, layers: parseValuesFile("values/app/values.yaml", text), code, schemas });
}

describe("coalescing like Helm", () => {
  it("merges maps deeply, replaces lists, and lets null remove a default", () => {
    const defaults = { image: { repository: "r", tag: "1" }, args: ["a", "b"], probe: { path: "/" }, keep: 1 };
    const user = mergeLayers([{ image: { tag: "2" }, args: ["c"] }, { probe: null }]);
    expect(coalesce(user, defaults)).toStrictEqual({ image: { repository: "r", tag: "2" }, args: ["c"], keep: 1 });
  });

  it("lets a later layer win", () => {
    expect(mergeLayers([{ a: { b: 1, c: 1 } }, { a: { b: 2 } }])).toStrictEqual({ a: { b: 2, c: 1 } });
  });

  it("gives a subchart its section over its defaults, with the parent's globals", () => {
    const user = { global: { domain: "example.test" }, web: { replicas: 3, probe: null } };
    expect(subchartView(user, {}, "web", { replicas: 1, port: 80, probe: { path: "/" }, global: { domain: "default", tls: true } })).toStrictEqual({
      replicas: 3,
      port: 80,
      global: { domain: "example.test", tls: true },
    });
  });
});

describe("schema drafts", () => {
  // Each schema uses a keyword only its own dialect reads, so passing proves the dialect.
  it.each([
    ["draft-04", { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { n: { type: "number", maximum: 10, exclusiveMaximum: true } } }, "n: 10\n", [["n", "maximum"]]],
    ["draft-06", { $schema: "http://json-schema.org/draft-06/schema#", type: "object", properties: { n: { type: "number", exclusiveMaximum: 10 } } }, "n: 10\n", [["n", "exclusiveMaximum"]]],
    ["draft-07", { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { n: { if: { type: "number" }, then: { maximum: 5 } } } }, "n: 10\n", [["n", "if"], ["n", "maximum"]]],
    ["2019-09", { $schema: "https://json-schema.org/draft/2019-09/schema", type: "object", properties: { tls: { type: "boolean" }, cert: { type: "string" } }, dependentRequired: { tls: ["cert"] } }, "tls: true\n", [["", "dependentRequired"]]],
    ["2020-12", { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] } } }, "pair: [a, b]\n", [["pair.1", "type"]]],
  ])("validates a %s schema with its own keywords", (dialect, schema, bad, expected) => {
    expect(dialectOf(schema)).toBe(dialect);
    // The finding the dialect's own keyword makes, not any finding.
    expect(check(bad, contract(schema)).findings.map((f) => [f.path, f.rule])).toStrictEqual(expected);
  });

  it("reads a schema without $schema as draft-07, as Helm does", () => {
    expect(dialectOf({ type: "object" })).toBe("draft-07");
  });

  it("validates formats", () => {
    const schema = { type: "object", properties: { email: { type: "string", format: "email" } } };
    expect(check("email: not-an-email\n", contract(schema)).findings[0]?.rule).toBe("format");
  });

  it("compiles each schema once, however many charts and stacks use it", () => {
    const schemas = new SchemaCache();
    const schema = { type: "object", properties: { a: { type: "string" } } };
    for (let i = 0; i < 5; i++) check("a: x\n", { ...contract(schema), schemaDigest: "sha256:same" }, undefined, schemas);
    expect(schemas.compilations).toBe(1);
  });
});

describe("findings", () => {
  const schema = {
    type: "object",
    properties: {
      service: { type: "object", properties: { port: { type: "integer" }, type: { enum: ["ClusterIP", "NodePort"] } }, additionalProperties: false },
      password: { type: "string", minLength: 12 },
    },
    required: ["service"],
  };

  it("names file, line and column in a multi-document values file, the rule and a hint", () => {
    const text = "service:\n  port: 80\n---\nservice:\n  type: Headless\n  port: http\n";
    const { findings } = check(text, contract(schema, { service: { port: 80, type: "ClusterIP" } }));
    expect(findings.map((f) => [f.path, f.rule, f.position?.file, f.position?.line, f.position?.column, f.hint])).toStrictEqual([
      ["service.port", "type", "values/app/values.yaml", 6, 3, "set a value of type integer"],
      ["service.type", "enum", "values/app/values.yaml", 5, 3, 'allowed: "ClusterIP", "NodePort"'],
    ]);
  });

  it("suggests the nearest key for a typo, from the schema and from the defaults", () => {
    const { findings } = check("service:\n  prot: 81\nreplicaCuont: 2\n", contract(schema, { replicaCount: 1, service: { port: 80 } }));
    expect(findings.map((f) => [f.path, f.rule, f.hint])).toStrictEqual([
      ["replicaCuont", "unknown-key", 'did you mean "replicaCount"?'],
      ["service.prot", "unknown-key", 'did you mean "service.port"?'],
    ]);
  });

  it("finds unknown keys under a section only the schema describes (no default for it)", () => {
    const schemaOnly = { type: "object", properties: { auth: { type: "object", properties: { password: { type: "string" }, user: { type: "string" } } } } };
    const { findings } = check("auth:\n  pasword: x\n  user: y\n", contract(schemaOnly, { replicaCount: 1 }));
    expect(findings.map((f) => [f.path, f.rule, f.hint])).toStrictEqual([["auth.pasword", "unknown-key", 'did you mean "auth.password"?']]);
  });

  it("does not flag keys under open maps", () => {
    const open = { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } }, extra: { type: "object", patternProperties: { "^x-": {} } } } };
    const { findings } = check("podAnnotations:\n  a.example.test/b: c\nlabels:\n  team: x\nextra:\n  x-one: 1\n", contract(open, { podAnnotations: {}, labels: {}, extra: {} }));
    expect(findings).toStrictEqual([]);
  });

  it("validates a subchart's part against the subchart's own schema, and knows its keys", () => {
    const sub = { key: "db", defaults: { port: 5432 }, schemaDocument: { type: "object", properties: { port: { type: "integer" } } }, subcharts: [] };
    const { findings } = check("db:\n  port: five\n  prt: 1\n", contract(undefined, { web: {} }, [sub]));
    expect(findings.map((f) => [f.path, f.rule])).toStrictEqual([
      ["db.port", "type"],
      ["db.prt", "unknown-key"],
    ]);
  });

  it("treats values given in code that are not known yet as present but unchecked", () => {
    const { findings } = check("", contract(schema, { service: { port: 80 } }), { password: deferredValue(true), service: { port: deferredValue() } });
    expect(findings).toStrictEqual([]);
  });

  it("still checks the keys of values given in code", () => {
    const { findings } = check("", contract(schema, { service: { port: 80 } }), { passwrod: deferredValue(true) });
    expect(findings.map((f) => [f.path, f.rule])).toStrictEqual([["passwrod", "unknown-key"]]);
  });

  it("never prints a value", () => {
    const planted = "planted-values-secret-x91";
    const { findings } = check(`password: ${planted}\nservice:\n  port: ${planted}\n`, contract({ ...schema, properties: { ...schema.properties, password: { type: "string", enum: ["a"] } } }, { service: { port: 80 } }));
    expect(findings.length).toBeGreaterThan(0);
    expect(JSON.stringify(findings)).not.toContain(planted);
  });

  it("reports a required key the values do not set", () => {
    const { findings } = check("password: long-enough-pass\n", contract(schema));
    expect(findings.map((f) => [f.path, f.rule])).toStrictEqual([["service", "required"]]);
  });
});
