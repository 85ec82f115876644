import { describe, expect, it } from "vitest";
import { templateReads, underKey } from "../../src/chart/template-reads.js";
import { checkValues } from "../../src/values/check.js";
import { parseValuesFile } from "../../src/values/layers.js";
import { SchemaCache } from "../../src/values/schema.js";

describe("the values a chart's templates read", () => {
  it.each([
    ["a dotted path", "{{ .Values.image.repository }}", ["image.repository"]],
    ["from the root context", "{{ $.Values.adminPassword }}", ["adminPassword"]],
    ["inside a pipeline", '{{ .Values.auth.password | default "x" | b64enc }}', ["auth.password"]],
    ["by index", '{{ index .Values "my-key" "inner" }}', ["my-key.inner"]],
    ["by index below a field", '{{ index .Values.labels "app.kubernetes.io/name" }}', ["labels", "labels.app.kubernetes.io/name"]],
    ["in with and range", "{{ with .Values.extraEnv }}{{ toYaml . }}{{ end }}{{ range .Values.ports }}{{ .name }}{{ end }}", ["extraEnv", "ports"]],
    ["handed on whole", '{{ include "x" (dict "Values" .Values) }}', ["*"]],
    ["not outside actions", "# .Values.documented.only\n{{ .Values.real }}", ["real"]],
    ["across lines of one action", "{{- if and\n  .Values.a\n  .Values.b }}{{ end }}", ["a", "b"]],
  ])("reads %s", (_, text, expected) => {
    expect(templateReads([text])).toStrictEqual(expected);
  });

  it("puts a subchart's reads under its key", () => {
    expect(underKey("db", ["auth.password", "*"])).toStrictEqual(["db.auth.password", "db"]);
  });
});

describe("unknown keys, knowing what the templates read", () => {
  const check = (values: string, reads: string[], defaults: Record<string, unknown> = { image: { tag: "" } }) =>
    checkValues({
      chart: "app",
      stack: "dev",
      layers: parseValuesFile("values/app/values.yaml", values),
      schemas: new SchemaCache(),
      contract: { defaults, subcharts: [], reads },
    }).findings.map((found) => [found.path, found.rule]);

  it("knows a key only a comment in values.yaml mentions, when a template reads it", () => {
    expect(check("adminPassword: s3cret-value\n", ["adminPassword"])).toStrictEqual([]);
    expect(check("adminPasword: s3cret-value\n", ["adminPassword"])).toStrictEqual([["adminPasword", "unknown-key"]]);
  });

  it("takes anything below a map a template reads whole", () => {
    expect(check("extraEnv:\n  A: b\n  C: d\n", ["extraEnv"])).toStrictEqual([]);
  });

  it("knows a subchart's key its own templates read", () => {
    const sub = { key: "db", defaults: { port: 5432 }, subcharts: [] };
    const findings = checkValues({
      chart: "app",
      stack: "dev",
      layers: parseValuesFile("values/app/values.yaml", "db:\n  adminPassword: x\n  prot: 1\n"),
      schemas: new SchemaCache(),
      contract: { defaults: {}, subcharts: [sub], reads: ["db.adminPassword"] },
    }).findings;
    expect(findings.map((found) => [found.path, found.rule])).toStrictEqual([["db.prot", "unknown-key"]]);
  });

  it("finds no unknown key in a chart that hands its values on whole", () => {
    expect(check("anything: 1\n", ["*"])).toStrictEqual([]);
  });
});
