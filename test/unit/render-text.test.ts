// `chartroom render` prints a manifest people pipe to `kubectl apply`, which
// reads YAML 1.1: a string the chart rendered as "yes" must stay a string.
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { renderText } from "../../src/report/render.js";

describe("the render's manifest, for kubectl", () => {
  it("quotes strings that YAML 1.1 reads as something else, and leaves numbers and booleans bare", () => {
    const body = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c", labels: { keep: "yes", flag: "on", short: "y", mode: "0755" } },
      data: { n: "1_000" },
    };
    const object = {
      id: "/ConfigMap/default/c",
      apiVersion: "v1",
      group: "",
      kind: "ConfigMap",
      namespace: "default",
      name: "c",
      body,
      source: "c/templates/c.yaml",
    };
    const text = renderText({ report: "render", format: 1, chart: "c", version: "1.0.0", stack: null, helm: "helm", objects: [object] });
    for (const quoted of ['keep: "yes"', 'flag: "on"', 'short: "y"', 'mode: "0755"', '"1_000"']) expect(text).toContain(quoted);
    expect(parse(text.split("\n").slice(2).join("\n"), { version: "1.1" })).toStrictEqual(body);
    const numbers = renderText({
      report: "render",
      format: 1,
      chart: "c",
      version: "1.0.0",
      stack: null,
      helm: "helm",
      objects: [{ ...object, body: { spec: { replicas: 2, paused: true } } }],
    });
    expect(numbers).toContain("replicas: 2\n  paused: true");
  });
});
