// A chart chooses its field names, kinds and hook events. A name that
// Object.prototype has (constructor, toString, valueOf) must read as any other
// unknown name: looked up in a plain table it found the prototype's function,
// and the rule, the diff or the alias list threw.
import { describe, expect, it } from "vitest";
import { apiVersionAliases } from "../../src/deploy/pulumi/aliases.js";
import { imagesOf, podSpecPath } from "../../src/images/extract.js";
import type { KubernetesObject } from "../../src/model/policy.js";
import { momentsOf } from "../../src/policy/hook-phases.js";
import { podTemplate } from "../../src/policy/objects.js";
import { loadKubernetesFields, unknownField } from "../../src/policy/rules/fields.js";
import { entryOf } from "../../src/util/json.js";

const NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"];

function object(kind: string, body: Record<string, unknown>): KubernetesObject {
  return {
    id: `apps/${kind}/d/x`,
    apiVersion: "apps/v1",
    kind,
    group: "apps",
    name: "x",
    namespace: "d",
    body: { apiVersion: "apps/v1", kind, metadata: { name: "x" }, ...body },
  } as KubernetesObject;
}

describe("names Object.prototype has", () => {
  it("entryOf finds only a table's own entries", () => {
    const table: Record<string, number> = { a: 1 };
    for (const name of NAMES) expect(entryOf(table, name), name).toBeUndefined();
    expect(entryOf(table, "a")).toBe(1);
  });

  it("are unknown fields of a built-in kind, reported and not thrown on", async () => {
    const rule = unknownField(await loadKubernetesFields());
    const spec = JSON.parse(
      `{"toString": 1, "constructor": [1], "template": {"spec": {"containers": [{"name": "a", "image": "b", "valueOf": "x"}]}}}`,
    ) as unknown;
    const found = rule.check([object("Deployment", { spec })], { kubeVersion: "1.31.0", stack: "dev" } as never);
    expect(found.map((result) => result.path)).toStrictEqual(["spec.toString", "spec.constructor", "spec.template.spec.containers[name=a].valueOf"]);
  });

  it("are kinds that run no pods and move between no groups", () => {
    for (const kind of NAMES) {
      expect(podSpecPath({ group: "apps", kind }), kind).toBeUndefined();
      expect(podTemplate(object(kind, { spec: {} })), kind).toBeUndefined();
      expect(imagesOf({ group: "apps", kind, body: { spec: { template: { spec: { containers: [{ image: "a" }] } } } } }), kind).toStrictEqual([]);
      expect(apiVersionAliases(`kubernetes:apps/v1:${kind}`), kind).not.toContain(`kubernetes:extensions/v1:${kind}`);
    }
  });

  it("are hook events Helm does not run at any moment", () => {
    for (const event of NAMES) expect(momentsOf({ hook: { events: [event], weight: 0, deletePolicies: [], test: false } }), event).toStrictEqual([]);
  });
});
