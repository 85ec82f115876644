// The build's draft-07 meta-schema validator (scripts/build-meta-schema.ts)
// judges every schema as ajv's own meta-schema check does, and the compiled
// package uses it instead of compiling the meta-schema.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ValidateFunction } from "ajv";
import { describe, expect, it } from "vitest";
import { DRAFT_07_VALIDATOR, makeAjv, SchemaCache } from "../../src/values/schema.js";
import { modulesLoaded } from "../helpers/modules.js";
import { compiledCli } from "../helpers/process.js";
import { tempDir } from "../helpers/tmp.js";
import { ROOT } from "../helpers/platform.js";

const SCHEMAS: Record<string, unknown>[] = [
  {},
  { type: "object", properties: { replicas: { type: "integer", minimum: 1 }, image: { type: "string", pattern: "^[a-z]" } }, required: ["image"] },
  { $schema: "http://json-schema.org/draft-07/schema#", type: "object", additionalProperties: false },
  { $schema: "http://json-schema.org/draft-07/schema", definitions: { port: { type: "integer" } }, properties: { port: { $ref: "#/definitions/port" } } },
  { if: { properties: { a: { const: 1 } } }, then: { required: ["b"] }, else: { not: { required: ["b"] } } },
  // Each breaks the meta-schema somewhere else.
  { type: "strnig" },
  { properties: { a: { type: "object", properties: { b: { type: ["string", 5] } } } } },
  { required: "image" },
  { required: ["a", "a"] },
  { minimum: "1" },
  { minLength: -1 },
  { enum: [1, 1] },
  { properties: { a: 5 } },
  { items: [{ type: "string" }, "x"] },
  { additionalProperties: "no" },
  { dependencies: { a: 5 } },
  { $id: 5 },
  { allOf: [] },
];

describe("the build's draft-07 meta-schema validator", () => {
  it("judges every schema as ajv's meta-schema check does, naming the same first error", async () => {
    compiledCli();
    const prebuilt = createRequire(import.meta.url)(join(ROOT, "dist", "values", DRAFT_07_VALIDATOR)) as ValidateFunction;
    const charts = ["1.0.0", "1.1.0", "2.0.0"].map(async (version) =>
      JSON.parse(await readFile(join(ROOT, "fixtures", "charts", "webapp", version, "values.schema.json"), "utf8")),
    );
    for (const schema of [...SCHEMAS, ...(await Promise.all(charts))]) {
      const ajv = makeAjv("draft-07");
      const expected = ajv.validateSchema(schema);
      const firstExpected = ajv.errors?.[0];
      expect({ schema, valid: prebuilt(schema) }).toStrictEqual({ schema, valid: expected });
      const first = prebuilt.errors?.[0];
      expect({ schema, first: [first?.instancePath, first?.message] }).toStrictEqual({ schema, first: [firstExpected?.instancePath, firstExpected?.message] });
    }
    // Thirteen of them break it.
    expect(SCHEMAS.filter((schema) => prebuilt(schema) !== true)).toHaveLength(13);
  });

  it("is what the compiled package checks a draft-07 schema with; another dialect, or none built (sources), compiles as before", async () => {
    compiledCli();
    const { SchemaCache: Compiled } = (await import(join(ROOT, "dist", "values", "schema.js"))) as { SchemaCache: typeof SchemaCache };
    const compiled = new Compiled();
    const broken = compiled.prepare({ properties: { a: { type: "strnig" } } });
    expect(broken.problems).toStrictEqual([expect.objectContaining({ kind: "invalid", pointer: "#/properties/a/type" })]);
    compiled.prepare({ $schema: "http://json-schema.org/draft-07/schema#", type: "object" });
    expect(compiled.metaCompilations).toBe(0);
    compiled.prepare({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" });
    expect(compiled.metaCompilations).toBe(1);
    // From sources there is no built validator: the meta-schema is compiled, with the same verdict.
    const fromSources = new SchemaCache();
    expect(fromSources.prepare({ properties: { a: { type: "strnig" } } }).problems).toStrictEqual(broken.problems);
    expect(fromSources.metaCompilations).toBe(1);
  });

  it("is what the CLI's bundle checks the example's draft-07 schema with", async () => {
    // The bundle requires the built validator where it uses it (a failed require is not counted).
    const run = await modulesLoaded(await tempDir(), [compiledCli(), "check", "webapp"]);
    expect([run.code, run.stderr]).toStrictEqual([0, ""]);
    const required = run.required;
    expect(required).toContain(join(ROOT, "dist", "values", DRAFT_07_VALIDATOR));
  });
});
