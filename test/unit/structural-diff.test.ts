import { describe, expect, it } from "vitest";
import { formatPath } from "../../src/util/tree-path.js";
import { applyChanges, diffValues } from "../../src/util/tree.js";

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** A pod-template-shaped object with keyed lists, plain lists, maps and scalars. */
function generate(next: () => number): Record<string, unknown> {
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)] as T;
  const container = (name: string) => ({
    name,
    image: `img/${name}:${pick(["1", "2", "3"])}`,
    env: Array.from({ length: Math.floor(next() * 4) }, (_, i) => ({ name: `VAR_${i}`, value: pick(["a", "b", "c"]) })),
    args: Array.from({ length: Math.floor(next() * 3) }, () => pick(["--x", "--y", "--z"])),
    ports: [{ name: "http", containerPort: pick([80, 8080]) }],
  });
  const names = ["api", "worker", "sidecar", "proxy"].filter(() => next() < 0.7);
  return {
    metadata: { name: "x", labels: Object.fromEntries(["a", "b", "c"].filter(() => next() < 0.6).map((k) => [k, pick(["1", "2"])])) },
    spec: {
      replicas: pick([1, 2, 3, null]),
      template: { spec: { containers: names.map(container), volumes: names.map((n) => ({ name: `v-${n}`, emptyDir: {} })) } },
      ...(next() < 0.5 ? { paused: pick([true, false]) } : {}),
    },
  };
}

/** Shuffle keyed lists so reorders are exercised. */
function shuffle(next: () => number, object: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(object);
  const containers = (copy.spec as { template: { spec: { containers: unknown[] } } }).template.spec.containers;
  containers.sort(() => next() - 0.5);
  return copy;
}

describe("diffValues", () => {
  it("is empty for identical objects, and applying its changes to the old object yields the new one", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const next = random(seed);
      const a = generate(next);
      const b = next() < 0.3 ? shuffle(next, generate(next)) : generate(next);
      expect(diffValues(a, structuredClone(a)), `seed ${seed}`).toStrictEqual([]);
      expect(applyChanges(a, diffValues(a, b)), `seed ${seed}`).toStrictEqual(b);
    }
  });

  it("reports an inserted container as one addition, not a cascade", () => {
    const before = { containers: [{ name: "api", image: "a:1" }, { name: "worker", image: "w:1" }] };
    const after = { containers: [{ name: "init", image: "i:1" }, { name: "api", image: "a:1" }, { name: "worker", image: "w:1" }] };
    const changes = diffValues(before, after);
    expect(changes.map((c) => [c.op, formatPath(c.path)])).toStrictEqual([
      ["add", "containers[name=init]"],
      ["reorder", "containers"],
    ]);
  });

  it("names list items by their merge key in paths", () => {
    const before = { spec: { template: { spec: { containers: [{ name: "api", image: "a:1", env: [{ name: "LOG", value: "info" }] }] } } } };
    const after = { spec: { template: { spec: { containers: [{ name: "api", image: "a:2", env: [{ name: "LOG", value: "debug" }] }] } } } };
    expect(diffValues(before, after).map((c) => formatPath(c.path))).toStrictEqual([
      "spec.template.spec.containers[name=api].image",
      "spec.template.spec.containers[name=api].env[name=LOG].value",
    ]);
  });

  it("quotes map keys that are not identifiers", () => {
    expect(formatPath([{ key: "metadata" }, { key: "labels" }, { key: "helm.sh/chart" }])).toBe('metadata.labels["helm.sh/chart"]');
  });

  it("falls back to positions for lists without a merge key", () => {
    expect(diffValues({ args: ["a", "b"] }, { args: ["a", "c"] }).map((c) => formatPath(c.path))).toStrictEqual(["args[1]"]);
    expect(diffValues({ args: ["a"] }, { args: ["a", "c"] })).toMatchObject([{ op: "change", before: ["a"], after: ["a", "c"] }]);
  });
});
