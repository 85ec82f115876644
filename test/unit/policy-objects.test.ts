// The lookups every policy rule stands on (src/policy/objects.ts): label
// selectors as the API server reads them, objects by kind and name across a
// stack (hooks and external declarations apart), ports by name or number.
import { describe, expect, it } from "vitest";
import type { ExternalObject, KubernetesObject, PolicyContext } from "../../src/model/policy.js";
import {
  containerPorts,
  describePort,
  exists,
  find,
  hasPort,
  hooksNamed,
  isEmptySelector,
  matches,
  portRef,
  rendersPodsIn,
  selectedPods,
} from "../../src/policy/objects.js";
import { parseManifest } from "../../src/render/manifest.js";

function context(yaml: string, external: ExternalObject[] = []): { context: PolicyContext; objects: KubernetesObject[] } {
  const objects = parseManifest(yaml, "web", "app");
  return {
    objects,
    context: { stack: "dev", chart: "app", engine: "chart", values: {}, charts: new Map([["app", objects]]), external, dropHooks: false },
  };
}

describe("label selectors", () => {
  const labels = { app: "web", tier: "front" };

  it.each([
    [{ matchLabels: { app: "web" } }, true],
    [{ matchLabels: { app: "api" } }, false],
    [{ matchExpressions: [{ key: "tier", operator: "In", values: ["front", "back"] }] }, true],
    [{ matchExpressions: [{ key: "tier", operator: "In", values: ["back"] }] }, false],
    [{ matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }] }, false],
    [{ matchExpressions: [{ key: "tier", operator: "In" }] }, false],
    [{ matchExpressions: [{ key: "tier", operator: "NotIn", values: ["back"] }] }, true],
    [{ matchExpressions: [{ key: "tier", operator: "NotIn", values: ["front"] }] }, false],
    [{ matchExpressions: [{ key: "zone", operator: "NotIn", values: ["a"] }] }, true],
    [{ matchExpressions: [{ key: "app", operator: "Exists" }] }, true],
    [{ matchExpressions: [{ key: "zone", operator: "Exists" }] }, false],
    [{ matchExpressions: [{ key: "zone", operator: "DoesNotExist" }] }, true],
    [{ matchExpressions: [{ key: "app", operator: "DoesNotExist" }] }, false],
    [{ matchExpressions: [{ key: "app", operator: "Unknown" }] }, true],
    [{ matchLabels: { app: "web" }, matchExpressions: [{ key: "tier", operator: "NotIn", values: ["front"] }] }, false],
    [{}, true],
  ])("%j on app=web,tier=front: %s", (selector, expected) => {
    expect(matches(selector, labels)).toBe(expected);
  });

  it("reads a Service's plain map as labels, never as expressions", () => {
    expect(matches({ app: "web" }, labels, true)).toBe(true);
    expect(matches({ app: "web", matchExpressions: [] }, labels, true)).toBe(false);
    expect(matches({ tier: "back" }, labels, true)).toBe(false);
    expect(matches({ app: "web" }, labels)).toBe(true);
  });

  it("knows an empty selector, which selects everything", () => {
    expect([isEmptySelector({}), isEmptySelector(undefined), isEmptySelector({ matchLabels: {} })]).toStrictEqual([true, true, true]);
    expect(isEmptySelector({ matchLabels: { a: "b" } })).toBe(false);
    expect(isEmptySelector({ matchExpressions: [{ key: "a", operator: "Exists" }] })).toBe(false);
  });
});

describe("objects across the stack", () => {
  const yaml = [
    "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: { app: web }\n",
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    metadata:\n      labels: { app: web, tier: front }\n    spec:\n      containers: [{ name: a }]\n",
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: other\nspec:\n  template:\n    metadata:\n      labels: { app: other }\n    spec:\n      containers: [{ name: a }]\n",
    "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  annotations:\n    helm.sh/hook: pre-install\n",
    "apiVersion: example.test/v1\nkind: Job\nmetadata:\n  name: migrate\n  annotations:\n    helm.sh/hook: pre-install\n",
    "apiVersion: example.test/v1\nkind: Deployment\nmetadata:\n  name: web\n",
  ].join("---\n");

  it("finds by kind, namespace and name, and by group when asked; hooks only among hooks", () => {
    const { context: ctx } = context(yaml);
    expect(find(ctx, "Deployment", "web", "web")?.group).toBe("apps");
    expect(find(ctx, "Deployment", "web", "web", "example.test")?.group).toBe("example.test");
    expect(find(ctx, "Deployment", "web", "web", "nope")).toBeUndefined();
    expect(find(ctx, "Job", "web", "migrate")).toBeUndefined();
    expect(hooksNamed(ctx, "Job", "web", "migrate").map((object) => object.group)).toStrictEqual(["batch", "example.test"]);
    expect(hooksNamed(ctx, "Job", "web", "migrate", "batch").map((object) => object.group)).toStrictEqual(["batch"]);
    expect(hooksNamed(ctx, "Job", "web", "nothing")).toStrictEqual([]);
    expect([rendersPodsIn(ctx, "web"), rendersPodsIn(ctx, "elsewhere")]).toStrictEqual([true, false]);
  });

  it("counts what is declared external, by kind and name, in its namespace or every namespace", () => {
    const { context: ctx } = context(yaml, [
      { kind: "Secret", name: "tls" },
      { kind: "ConfigMap", name: "settings", namespace: "web" },
    ]);
    expect(exists(ctx, "Service", "web", "web")).toBe(true);
    expect(exists(ctx, "Secret", "anywhere", "tls")).toBe(true);
    expect(exists(ctx, "ConfigMap", "web", "settings")).toBe(true);
    expect(exists(ctx, "ConfigMap", "other", "settings")).toBe(false);
    expect(exists(ctx, "Secret", "web", "other")).toBe(false);
    expect(exists(ctx, "ConfigMap", "web", "tls")).toBe(false);
  });

  it("picks the pod templates a Service selects, the same list when asked again", () => {
    const { context: ctx, objects } = context(yaml);
    const service = objects[0] as KubernetesObject;
    const picked = selectedPods(service, ctx);
    expect(picked.map((pod) => pod.object.name)).toStrictEqual(["web"]);
    expect(selectedPods(service, ctx)).toBe(picked);
  });
});

describe("ports", () => {
  it("reads a container's ports, a reference by number or name, and says each as a reviewer reads it", () => {
    expect(containerPorts({ ports: [{ name: "http", containerPort: 8080 }, { containerPort: "9090" }, {}] })).toStrictEqual([
      { name: "http", number: 8080 },
      { name: undefined, number: undefined },
      { name: undefined, number: undefined },
    ]);
    expect([portRef(80), portRef("8080"), portRef("http"), portRef("80a"), portRef("a80"), portRef(undefined)]).toStrictEqual([
      { number: 80 },
      { number: 8080 },
      { name: "http" },
      { name: "80a" },
      { name: "a80" },
      undefined,
    ]);
    const ports = [{ name: "http", number: 8080 }, { number: 9090 }];
    expect([
      hasPort(ports, { name: "http" }),
      hasPort(ports, { number: 9090 }),
      hasPort(ports, { number: 8081 }),
      hasPort(ports, { name: "grpc" }),
    ]).toStrictEqual([true, true, false, false]);
    expect([describePort({ name: "http", number: 1 }), describePort({ number: 8080 })]).toStrictEqual(['"http"', "8080"]);
  });
});
