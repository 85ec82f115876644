// A custom resource against its CRD's openAPIV3Schema, walked as the API
// server reads a structural schema (no compilation): each keyword alone, the
// server's own pruning (nulls, unknown fields), what is left to the server,
// and a differential check against ajv where the two must agree.
import type { Ajv } from "ajv";
import Ajv04 from "ajv-draft-04";
import { describe, expect, it } from "vitest";
import { judgeable, structuralProblems } from "../../src/policy/structural.js";
import { cpuMs } from "../helpers/cpu.js";

type Schema = Record<string, unknown>;
const problems = (schema: Schema, value: unknown) => structuralProblems(schema, value)?.map((p) => [p.path, p.message]);
const spec = (schema: Schema, value: unknown) => problems({ type: "object", properties: { spec: schema } }, { spec: value });

describe("structuralProblems, each keyword", () => {
  it.each([
    ["string", { type: "string" }, "a", 1, "must be string"],
    ["integer", { type: "integer" }, 3, 3.5, "must be integer"],
    ["integer, not a string", { type: "integer" }, 3, "3", "must be integer"],
    ["number", { type: "number" }, 3.5, "3.5", "must be number"],
    ["boolean", { type: "boolean" }, false, "false", "must be boolean"],
    ["object", { type: "object" }, {}, [], "must be object"],
    ["array", { type: "array" }, [], {}, "must be array"],
    ["int-or-string", { "x-kubernetes-int-or-string": true }, "80%", 1.5, "must be integer or string"],
    ["int-or-string takes an integer", { "x-kubernetes-int-or-string": true }, 8, true, "must be integer or string"],
    ["enum", { type: "string", enum: ["a", "b"] }, "b", "c", "must be equal to one of the allowed values"],
    ["enum of objects", { enum: [{ a: 1 }] }, { a: 1 }, { a: 2 }, "must be equal to one of the allowed values"],
    ["maxLength in characters", { type: "string", maxLength: 2 }, "éé", "abc", "must NOT have more than 2 characters"],
    ["minLength", { type: "string", minLength: 2 }, "ab", "a", "must NOT have fewer than 2 characters"],
    ["pattern, anywhere in the text", { type: "string", pattern: "^[a-z]+$" }, "abc", "aBc", 'must match pattern "^[a-z]+$"'],
    ["maximum", { type: "integer", maximum: 3 }, 3, 4, "must be <= 3"],
    ["exclusive maximum", { type: "integer", maximum: 3, exclusiveMaximum: true }, 2, 3, "must be < 3"],
    ["minimum", { type: "integer", minimum: 3 }, 3, 2, "must be >= 3"],
    ["exclusive minimum", { type: "integer", minimum: 3, exclusiveMinimum: true }, 4, 3, "must be > 3"],
    ["multipleOf", { type: "number", multipleOf: 0.5 }, 1.5, 1.25, "must be multiple of 0.5"],
    ["maxItems", { type: "array", maxItems: 1 }, [1], [1, 2], "must NOT have more than 1 items"],
    ["minItems", { type: "array", minItems: 2 }, [1, 2], [1], "must NOT have fewer than 2 items"],
    ["uniqueItems", { type: "array", uniqueItems: true }, [{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 1 }], "must NOT have duplicate items"],
    ["maxProperties", { type: "object", maxProperties: 1 }, { a: 1 }, { a: 1, b: 2 }, "must NOT have more than 1 properties"],
    ["minProperties", { type: "object", minProperties: 1 }, { a: 1 }, {}, "must NOT have fewer than 1 properties"],
    ["anyOf", { anyOf: [{ type: "integer" }, { type: "boolean" }] }, true, "x", "must match a schema in anyOf"],
    ["oneOf, none", { oneOf: [{ type: "integer" }, { type: "boolean" }] }, 1, "x", "must match exactly one schema in oneOf"],
    ["oneOf, both", { oneOf: [{ type: "number" }, { type: "integer" }] }, 1.5, 1, "must match exactly one schema in oneOf"],
    ["not", { not: { type: "string" } }, 1, "x", "must NOT be valid"],
  ])("%s", (_, schema, good, bad, message) => {
    expect(spec(schema, good)).toStrictEqual([]);
    expect(spec(schema, bad)).toStrictEqual([["spec", message]]);
  });

  it("reports every problem at its path: nested fields, list items by index, map values, required fields at their parent", () => {
    const schema = {
      type: "object",
      required: ["size", "name"],
      properties: {
        size: { type: "integer" },
        name: { type: "string" },
        ports: { type: "array", items: { type: "object", required: ["port"], properties: { port: { type: "integer", maximum: 65535 } } } },
        labels: { type: "object", additionalProperties: { type: "string" } },
        limits: { allOf: [{ type: "object" }, { properties: { cpu: { type: "string" } } }] },
      },
    };
    expect(spec(schema, { name: 1, ports: [{ port: 80 }, { port: 70000 }, {}], labels: { a: "x", b: 2 }, limits: { cpu: 1 } })).toStrictEqual([
      ["spec", "must have required property 'size'"],
      ["spec.name", "must be string"],
      ["spec.ports.1.port", "must be <= 65535"],
      ["spec.ports.2", "must have required property 'port'"],
      ["spec.labels.b", "must be string"],
      ["spec.limits.cpu", "must be string"],
    ]);
  });

  it("stops at a wrong type (the keywords of that type are not applied to it) and reports the whole object as (object)", () => {
    expect(spec({ type: "string", maxLength: 1, enum: ["a"] }, 5)).toStrictEqual([["spec", "must be string"]]);
    expect(problems({ type: "object", required: ["spec"] }, {})).toStrictEqual([["(object)", "must have required property 'spec'"]]);
    expect(problems({ type: "object", properties: { spec: { type: "object" } } }, [])).toStrictEqual([["(object)", "must be object"]]);
  });

  it("prunes as the API server does before validating: unknown fields and nulls pass, a pruned null is missing when required", () => {
    const schema = { type: "object", required: ["a"], properties: { a: { type: "string" }, b: { type: "string", nullable: true } } };
    expect(spec(schema, { a: "x", unknown: { deep: 1 } })).toStrictEqual([]);
    expect(spec(schema, { a: "x", b: null })).toStrictEqual([]);
    expect(spec({ ...schema, properties: { a: { type: "string", nullable: true } } }, { a: null })).toStrictEqual([]);
    expect(spec(schema, { a: null })).toStrictEqual([["spec", "must have required property 'a'"]]);
    expect(spec({ type: "array", items: { type: "string" } }, ["a", null])).toStrictEqual([]);
    expect(spec({ type: "object", additionalProperties: false }, { a: 1 })).toStrictEqual([["spec.a", "must NOT have additional properties"]]);
    expect(spec({ type: "object", additionalProperties: true, properties: {} }, { a: 1 })).toStrictEqual([]);
  });

  it("takes apiVersion, kind and metadata as the API server's own, whatever the CRD says of them", () => {
    const schema = { type: "object", properties: { metadata: { type: "string" }, kind: { type: "integer" } } };
    expect(problems(schema, { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" } })).toStrictEqual([]);
    expect(problems(schema, { apiVersion: 1, kind: "Widget", metadata: "w" })).toStrictEqual([
      ["apiVersion", "must be string"],
      ["metadata", "must be object"],
    ]);
  });
});

describe("what is left to the API server", () => {
  it.each([
    ["an unknown type", { type: "whole" }],
    ["a type list", { type: ["string", "null"] }],
    ["a pattern RE2 refuses", { type: "string", pattern: "(?=a)" }],
    ["a broken pattern on a field of another type", { type: "integer", pattern: "[" }],
    ["a $ref", { $ref: "#/definitions/x" }],
    ["tuple items", { type: "array", items: [{ type: "string" }] }],
    ["an anyOf that is not a list", { anyOf: { type: "string" } }],
    ["a subschema that is not an object", { allOf: [true] }],
    ["a deep problem", { type: "object", properties: { a: { items: { not: { type: "whole" } } } } }],
  ])("%s: no judgement at all", (_, schema) => {
    expect(spec(schema, "x")).toBeUndefined();
    expect(judgeable({ type: "object", properties: { spec: schema } })).toBe(false);
  });

  it("a schema that makes the walk explode gives up instead of hanging", () => {
    let schema: Schema = { type: "string" };
    for (let i = 0; i < 30; i++) schema = { oneOf: [schema, { not: schema }] };
    // The 200,000 steps take ≈30 ms of CPU, ≈1.1 s under Stryker's instrumentation; a hang fails at the test's timeout.
    const { value, ms } = cpuMs(() => spec(schema, "x"));
    expect(value).toBeUndefined();
    expect(ms).toBeLessThan(10_000);
  });

  it("judges a schema once: the answer is kept for the same object", () => {
    const schema = { type: "object", properties: { spec: { type: "string" } } };
    expect(judgeable(schema)).toBe(true);
    (schema.properties.spec as Schema).type = "whole";
    expect(judgeable(schema)).toBe(true);
    expect(judgeable({ ...schema })).toBe(false);
  });
});

/** A small deterministic generator (the same cases every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe("against ajv, where JSON Schema and the API server agree", () => {
  // No nulls, no nullable, no int-or-string, no unknown fields pruned differently: both must say valid or not alike.
  it("3,000 generated schemas and values: valid for one exactly when valid for the other", () => {
    const next = random(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const scalarSchema = (): Schema =>
      pick([
        () => ({ type: "string", ...(next() < 0.3 ? { maxLength: 2 } : {}), ...(next() < 0.3 ? { pattern: "^a" } : {}) }),
        () => ({ type: "integer", ...(next() < 0.4 ? { minimum: 1, exclusiveMinimum: next() < 0.5 } : {}) }),
        () => ({ type: "number", ...(next() < 0.4 ? { maximum: 2 } : {}) }),
        () => ({ type: "boolean" }),
        () => ({ enum: ["a", 1, true] }),
      ])();
    const schemaOf = (depth: number): Schema => {
      if (depth === 0 || next() < 0.3) return scalarSchema();
      return pick([
        () => ({ type: "object", ...(next() < 0.5 ? { required: ["a"] } : {}), properties: { a: schemaOf(depth - 1), b: schemaOf(depth - 1) } }),
        () => ({ type: "array", items: schemaOf(depth - 1), ...(next() < 0.3 ? { minItems: 1 } : {}) }),
        () => ({ anyOf: [schemaOf(depth - 1), schemaOf(depth - 1)] }),
        () => ({ not: scalarSchema() }),
      ])();
    };
    const instance = (depth: number): unknown =>
      pick([
        () => "a",
        () => "bb",
        () => 0,
        () => 1,
        () => 2.5,
        () => true,
        () => (depth === 0 ? "a" : Object.fromEntries(["a", "b"].filter(() => next() < 0.7).map((key) => [key, instance(depth - 1)]))),
        () => (depth === 0 ? 1 : Array.from({ length: Math.floor(next() * 3) }, () => instance(depth - 1))),
      ])();
    // Draft 4, as OpenAPI 3.0: exclusiveMinimum is a flag on minimum.
    const ajv = new (Ajv04 as unknown as typeof Ajv)({ strict: false, allErrors: true });
    let valid = 0;
    for (let i = 0; i < 3000; i++) {
      const schema = { type: "object", properties: { spec: schemaOf(3) } };
      const value = { spec: instance(3) };
      const expected = ajv.validate(schema, value);
      expect(structuralProblems(schema, value)?.length === 0, JSON.stringify({ schema, value })).toBe(expected);
      if (expected) valid++;
    }
    expect(valid).toBeGreaterThan(300);
    expect(valid).toBeLessThan(2700);
  });
});
