import { describe, expect, it } from "vitest";
import type { ChartroomError } from "../../src/errors/index.js";
import { checkValues, type ValuesContract } from "../../src/values/check.js";
import { coalesce, mergeLayers, subchartSection, subchartView } from "../../src/values/coalesce.js";
import { deferredValue } from "../../src/values/deferred.js";
import { parseValuesFile } from "../../src/values/layers.js";
import { SchemaCache, dialectOf } from "../../src/values/schema.js";

const contract = (schema?: unknown, defaults: Record<string, unknown> = {}, subcharts: ValuesContract["subcharts"] = []): ValuesContract => ({
  defaults,
  schema,
  subcharts,
});

function check(text: string, c: ValuesContract, code?: Record<string, unknown>, schemas = new SchemaCache()) {
  return checkValues({ chart: "app", stack: "dev", contract: c, layers: parseValuesFile("values/app/values.yaml", text), code, schemas });
}

describe("values files read as Helm reads them (YAML 1.1)", () => {
  it("reads yes, on and octal as Helm does, and keeps timestamps and 1:20 as text", () => {
    const [layer] = parseValuesFile("values/app/values.yaml", "enabled: yes\nmode: 0644\nn: 1\nwhen: 2024-01-01\nclock: 12:30\nquoted: 'on'\n");
    expect(layer?.values).toStrictEqual({ enabled: true, mode: 420, false: 1, when: "2024-01-01", clock: "12:30", quoted: "on" });
  });

  it("refuses a control character as Helm does, at its line and column, without showing it; a tab, a NEL and an escape are fine", () => {
    for (const [text, line, column] of [
      ["a: 1\nb: x\u0007y\n", 2, 5],
      ["a: |\n  x\n  \u007f\n", 3, 3],
      ["---\na: 1\n---\nb: '\u0085\u009f'\n", 4, 6],
    ] as const) {
      const error = (() => {
        try {
          parseValuesFile("values/app/values.yaml", text);
        } catch (caught) {
          return caught as ChartroomError;
        }
      })();
      expect([error?.code, error?.place]).toStrictEqual(["VALUES_FILE_INVALID", { file: "values/app/values.yaml", line, column }]);
      expect(error?.message).not.toMatch(/[\u0007\u007f\u009f]/);
    }
    const [layer] = parseValuesFile("values/app/values.yaml", 'a: "x\ty"\nb: "\\u0007"\nc: x\u0085y\n');
    expect(layer?.values).toStrictEqual({ a: "x\ty", b: "\u0007", c: "x\u0085y" });
  });

  it("accepts yes for a boolean the schema asks for, as Helm does", () => {
    const schema = { type: "object", properties: { enabled: { type: "boolean" } } };
    expect(check("enabled: yes\n", contract(schema, { enabled: false })).findings).toStrictEqual([]);
  });
});

describe("coalescing like Helm", () => {
  it("merges maps deeply, replaces lists, and lets null remove a default", () => {
    const defaults = { image: { repository: "r", tag: "1" }, args: ["a", "b"], probe: { path: "/" }, keep: 1 };
    const user = mergeLayers([{ image: { tag: "2" }, args: ["c"] }, { probe: null }]);
    expect(coalesce(user, defaults)).toStrictEqual({ image: { repository: "r", tag: "2" }, args: ["c"], keep: 1 });
  });

  it("lets a later layer win", () => {
    expect(mergeLayers([{ a: { b: 1, c: 1 } }, { a: { b: 2 } }])).toStrictEqual({ a: { b: 2, c: 1 } });
  });

  it("replaces a map with a scalar and a scalar with a map, in layers and over defaults alike", () => {
    expect(
      mergeLayers([
        { a: { b: 1 }, c: "x" },
        { a: "flat", c: { d: 1 } },
      ]),
    ).toStrictEqual({ a: "flat", c: { d: 1 } });
    expect(coalesce({ a: "flat", c: { d: 1 } }, { a: { b: 1 }, c: "x", e: null })).toStrictEqual({ a: "flat", c: { d: 1 }, e: null });
    expect(coalesce({ extra: { kept: null }, top: null }, { a: 1 })).toStrictEqual({ extra: { kept: null }, top: null, a: 1 });
  });

  it("gives a subchart globals only when someone sets some, and its section with the parent's defaults for it", () => {
    expect(subchartView({ web: { a: 1 } }, {}, "web", { b: 2 })).toStrictEqual({ a: 1, b: 2 });
    expect(subchartView({ global: { g: 1 }, web: {} }, {}, "web", {})).toStrictEqual({ global: { g: 1 } });
    expect(subchartView({}, { global: { p: 1 } }, "web", {})).toStrictEqual({ global: { p: 1 } });
    expect(subchartView({}, {}, "web", { global: { own: 1 } })).toStrictEqual({ global: { own: 1 } });
    expect(subchartSection({ web: { a: 2, gone: null } }, { web: { a: 1, b: 1 } }, "web")).toStrictEqual({ a: 2, b: 1, gone: null });
    expect(subchartSection({}, { web: "not a map" }, "web")).toStrictEqual({});
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
    [
      "draft-04",
      { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { num: { type: "number", maximum: 10, exclusiveMaximum: true } } },
      "num: 10\n",
      [["num", "maximum"]],
    ],
    [
      "draft-06",
      { $schema: "http://json-schema.org/draft-06/schema#", type: "object", properties: { num: { type: "number", exclusiveMaximum: 10 } } },
      "num: 10\n",
      [["num", "exclusiveMaximum"]],
    ],
    [
      "draft-07",
      { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { num: { if: { type: "number" }, then: { maximum: 5 } } } },
      "num: 10\n",
      [
        ["num", "if"],
        ["num", "maximum"],
      ],
    ],
    [
      "2019-09",
      {
        $schema: "https://json-schema.org/draft/2019-09/schema",
        type: "object",
        properties: { tls: { type: "boolean" }, cert: { type: "string" } },
        dependentRequired: { tls: ["cert"] },
      },
      "tls: true\n",
      [["", "dependentRequired"]],
    ],
    [
      "2020-12",
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] } },
      },
      "pair: [a, b]\n",
      [["pair.1", "type"]],
    ],
  ])("validates a %s schema with its own keywords", (dialect, schema, bad, expected) => {
    expect(dialectOf(schema)).toBe(dialect);
    // The finding the dialect's own keyword makes, not any finding.
    expect(check(bad, contract(schema)).findings.map((f) => [f.path, f.rule])).toStrictEqual(expected);
  });

  // vault's chart writes https://json-schema.org/draft-07/schema#; Helm 3 and 4 take each of these spellings.
  it.each([
    ["draft-04", "https://json-schema.org/draft-04/schema#", { maximum: 10, exclusiveMaximum: true }, "maximum"],
    ["draft-04", "http://json-schema.org/draft-04/schema", { maximum: 10, exclusiveMaximum: true }, "maximum"],
    ["draft-06", "https://json-schema.org/draft-06/schema", { exclusiveMaximum: 10 }, "exclusiveMaximum"],
    ["draft-07", "https://json-schema.org/draft-07/schema#", { if: { type: "number" }, then: { maximum: 5 } }, "maximum"],
    ["draft-07", "https://json-schema.org/draft-07/schema", { if: { type: "number" }, then: { maximum: 5 } }, "maximum"],
    ["2020-12", "https://json-schema.org/draft/2020-12/schema#", { not: { type: "number" } }, "not"],
  ])("validates a %s schema whose $schema is written %s", (dialect, declared, keywords, rule) => {
    const schema = { $schema: declared, type: "object", properties: { num: { type: "number", ...keywords } } };
    const schemas = new SchemaCache();
    expect(dialectOf(schema)).toBe(dialect);
    expect(schemas.prepare(schema).problems).toStrictEqual([]);
    expect(
      check("num: 10\n", contract(schema), undefined, schemas)
        .findings.map((f) => [f.path, f.rule])
        .at(-1),
    ).toStrictEqual(["num", rule]);
  });

  it("reads a $schema it does not know as draft-07, as Helm 3 does, and refuses one that is not text, as Helm does", () => {
    const unknown = new SchemaCache().prepare({ $schema: "https://x.test/meta.json", type: "object", properties: { num: { type: "string" } } });
    expect(unknown.problems.map((p) => [p.pointer, p.kind])).toStrictEqual([["#/$schema", "meta-schema"]]);
    expect(unknown.validate({ num: 1 })).toBe(false);
    const numeric = new SchemaCache().prepare({ $schema: 7, type: "object", properties: { num: { type: "string" } } });
    expect(numeric.problems.map((p) => [p.pointer, p.kind, p.reason])).toStrictEqual([
      ["#", "invalid", "it breaks the JSON schema meta-schema: $schema must be a string"],
    ]);
    expect(numeric.validate({ num: 1 })).toBe(true);
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
      // The schema closes service (additionalProperties: false): Helm refuses this one, so it is the schema's finding.
      ["service.prot", "additionalProperties", 'did you mean "service.port"?'],
    ]);
  });

  it("finds unknown keys under a section only the schema describes (no default for it)", () => {
    const schemaOnly = { type: "object", properties: { auth: { type: "object", properties: { password: { type: "string" }, user: { type: "string" } } } } };
    const { findings } = check("auth:\n  pasword: x\n  user: yuri\n", contract(schemaOnly, { replicaCount: 1 }));
    expect(findings.map((f) => [f.path, f.rule, f.hint])).toStrictEqual([["auth.pasword", "unknown-key", 'did you mean "auth.password"?']]);
  });

  it("says what the schema wants, with the value's type and the path, for each keyword", () => {
    const strict = {
      type: "object",
      properties: {
        num: { type: "integer" },
        list: { type: "array", items: { type: "string" } },
        auth: { type: "object", required: ["user"], properties: { user: { type: "string" } }, additionalProperties: false },
        s: { type: "string", minLength: 3 },
      },
    };
    const { findings } = check("num: many\nlist: [a, 1]\nauth:\n  usr: x\ns: ab\n", contract(strict, {}));
    expect(findings.map((f) => [f.path, f.rule, f.message, f.hint])).toStrictEqual([
      ["auth.user", "required", "required by the chart's schema, but not set", "set auth.user in values/app/values.yaml"],
      [
        "auth.usr",
        "additionalProperties",
        "not allowed by the chart's schema (additionalProperties: false): Helm refuses these values",
        'did you mean "auth.user"?',
      ],
      ["list.1", "type", "expected string, got integer", "set a value of type string"],
      ["num", "type", "expected integer, got string", "set a value of type integer"],
      ["s", "minLength", "must NOT have fewer than 3 characters", undefined],
    ]);
  });

  it("leaves global, open empty maps and keys below unknown ones alone, and walks known sections", () => {
    const { findings } = check(
      "global:\n  anything: 1\nannotations:\n  any: thing\nnested:\n  deeper:\n    typo: 1\n",
      contract(undefined, { annotations: {}, nested: { deeper: { known: 1 } } }),
    );
    expect(findings.map((f) => [f.path, f.hint])).toStrictEqual([["nested.deeper.typo", "remove it, or check the chart's values.yaml"]]);
    // A subchart's keys come from the subchart; its name alone at the top.
    const sub = { key: "db", defaults: { port: 1 }, subcharts: [] };
    expect(check("db:\n  port: 2\n  prt: 3\nother:\n  db: 1\n", contract(undefined, { other: { x: 1 } }, [sub])).findings.map((f) => f.path)).toStrictEqual([
      "db.prt",
      "other.db",
    ]);
  });

  it("does not flag keys under open maps", () => {
    const open = {
      type: "object",
      properties: { labels: { type: "object", additionalProperties: { type: "string" } }, extra: { type: "object", patternProperties: { "^x-": {} } } },
    };
    const { findings } = check(
      "podAnnotations:\n  a.example.test/b: c\nlabels:\n  team: x\nextra:\n  x-one: 1\n",
      contract(open, { podAnnotations: {}, labels: {}, extra: {} }),
    );
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
    const { findings } = check(
      `password: ${planted}\nservice:\n  port: ${planted}\n`,
      contract({ ...schema, properties: { ...schema.properties, password: { type: "string", enum: ["a"] } } }, { service: { port: 80 } }),
    );
    expect(findings.length).toBeGreaterThan(0);
    expect(JSON.stringify(findings)).not.toContain(planted);
  });

  it("reports a required key the values do not set", () => {
    const { findings } = check("password: long-enough-pass\n", contract(schema));
    expect(findings.map((f) => [f.path, f.rule])).toStrictEqual([["service", "required"]]);
  });
});
