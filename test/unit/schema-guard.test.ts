import { describe, expect, it } from "vitest";
import { externalRefs } from "../../src/chart/schema-refs.js";
import { forMetaCheck, guardSchema } from "../../src/values/schema-guard.js";
import { SchemaCache } from "../../src/values/schema.js";
import { cpuMs } from "../helpers/cpu.js";

describe("a chart's schema, read with suspicion", () => {
  it.each([
    ["a URL", { properties: { a: { $ref: "https://schemas.example.test/a.json" } } }, ["https://schemas.example.test/a.json"]],
    ["a file URL", { properties: { a: { $ref: "file:///etc/hostname" } } }, ["file:///etc/hostname"]],
    ["another file of the chart", { properties: { a: { $ref: "other.json#/defs/x" } } }, ["other.json#/defs/x"]],
    ["a dynamic reference", { $dynamicRef: "https://x.test/s" }, ["https://x.test/s"]],
    ["its own definitions", { definitions: { x: { type: "string" } }, properties: { a: { $ref: "#/definitions/x" } } }, []],
    ["an $id it declares", { definitions: { x: { $id: "x.json", type: "string" } }, properties: { a: { $ref: "x.json" } } }, []],
    ["the draft-07 meta-schema", { properties: { a: { $ref: "http://json-schema.org/draft-07/schema#" } } }, []],
    ["a $ref under enum data, which is not a schema", { properties: { a: { enum: [{ $ref: "https://x.test" }] } } }, []],
    [
      "a meta-schema Helm does not carry, as $ref",
      { properties: { a: { $ref: "http://json-schema.org/draft-05/schema#" } } },
      ["http://json-schema.org/draft-05/schema#"],
    ],
    // Helm 4 fetches the meta-schema a `$schema` names unless it carries it, at any depth.
    ["an unknown $schema", { $schema: "https://x.test/meta.json", type: "object" }, ["https://x.test/meta.json"]],
    [
      "an unknown $schema deep inside",
      { properties: { a: { items: { $schema: "http://json-schema.org/draft-03/schema#" } } } },
      ["http://json-schema.org/draft-03/schema#"],
    ],
    ["an empty $schema", { $schema: "" }, [""]],
    [
      "the $schema spellings Helm carries",
      {
        $schema: "https://json-schema.org/draft-07/schema#",
        properties: {
          a: { $schema: "http://json-schema.org/draft-04/schema" },
          b: { $schema: "https://json-schema.org/draft-06/schema" },
          c: { $schema: "http://json-schema.org/schema#" },
          d: { $schema: "https://json-schema.org/draft/2020-12/schema#" },
          e: { $schema: "http://json-schema.org/draft/2019-09/schema" },
          f: { $schema: 7 },
        },
      },
      [],
    ],
  ])("finds the references that leave the schema: %s", (_, schema, refs) => {
    expect(externalRefs(schema).map((found) => found.ref)).toStrictEqual(refs);
  });

  it("replaces an external reference by an open schema and names where it was", () => {
    const schema = { type: "object", properties: { image: { $ref: "https://x.test/image.json" }, name: { type: "string" } } };
    const { schema: guarded, problems } = guardSchema(schema);
    expect(guarded).toStrictEqual({ type: "object", properties: { image: {}, name: { type: "string" } } });
    expect(problems).toStrictEqual([
      { pointer: "#/properties/image/$ref", kind: "external-ref", value: "https://x.test/image.json", reason: expect.stringContaining("never fetches") },
    ]);
    // The chart's own object is not touched.
    expect(schema.properties.image).toStrictEqual({ $ref: "https://x.test/image.json" });
  });

  it("takes an unknown $schema out, and reads that part by the dialect around it", () => {
    const schema = { type: "object", properties: { a: { $schema: "https://x.test/meta.json", type: "string" } } };
    const { schema: guarded, problems } = guardSchema(schema);
    expect(guarded).toStrictEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(problems).toStrictEqual([
      { pointer: "#/properties/a/$schema", kind: "meta-schema", value: "https://x.test/meta.json", reason: expect.stringContaining("Helm 4 would fetch") },
    ]);
    expect(new SchemaCache().prepare(schema).validate({ a: 1 })).toBe(false);
  });

  it.each([
    ["a backreference", "^(a)\\1$"],
    ["a lookahead", "^(?=a)a$"],
    ["a lookbehind", "(?<=a)b"],
  ])("refuses a pattern RE2 cannot compile, as Helm's Go regexp does: %s", (_, pattern) => {
    const { schema, problems } = guardSchema({
      properties: { a: { type: "string", pattern }, b: { type: "object", patternProperties: { [pattern]: { type: "string" } } } },
    });
    expect(problems.map((problem) => [problem.kind, problem.pointer])).toStrictEqual([
      ["pattern", `#/properties/b/patternProperties/${pattern.replace(/~/g, "~0").replace(/\//g, "~1")}`],
      ["pattern", "#/properties/a/pattern"],
    ]);
    expect(schema).toStrictEqual({ properties: { a: { type: "string" }, b: { type: "object", patternProperties: {} } } });
  });

  it("keeps patterns RE2 compiles, and matches them in linear time", () => {
    const schemas = new SchemaCache();
    const { validate, problems } = schemas.prepare({ type: "object", properties: { name: { type: "string", pattern: "^(a+)+$" } } });
    expect(problems).toStrictEqual([]);
    const { ms } = cpuMs(() => {
      expect(validate({ name: `${"a".repeat(40)}!` })).toBe(false);
      expect(validate({ name: "a".repeat(40) })).toBe(true);
    });
    expect(ms).toBeLessThan(1000);
  });

  it("checks a 300,000-value enum in linear time, and finds a duplicate in it", () => {
    const values = Array.from({ length: 300_000 }, (_, i) => `v${i}`);
    const { ms } = cpuMs(() => {
      const { validate, problems } = new SchemaCache().prepare({ type: "object", properties: { name: { enum: values } } });
      expect(problems).toStrictEqual([]);
      expect(validate({ name: "v299999" })).toBe(true);
      expect(validate({ name: "nope" })).toBe(false);
    });
    expect(ms).toBeLessThan(2000);
    expect(forMetaCheck({ enum: [...values, "v7"] }).problems.map((problem) => problem.kind)).toStrictEqual(["invalid"]);
  });

  it("reports a schema that breaks the meta-schema instead of crashing", () => {
    const { validate, problems } = new SchemaCache().prepare({ type: "object", properties: { a: { type: "strnig" } } });
    expect(problems).toStrictEqual([expect.objectContaining({ kind: "invalid", pointer: "#/properties/a/type" })]);
    expect(validate({ a: 1 })).toBe(true);
  });
});
