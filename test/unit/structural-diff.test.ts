import { describe, expect, it } from "vitest";
import { formatPath } from "../../src/util/tree-path.js";
import { applyChanges, diffValues, sameValue } from "../../src/util/tree.js";

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
    const before = {
      containers: [
        { name: "api", image: "a:1" },
        { name: "worker", image: "w:1" },
      ],
    };
    const after = {
      containers: [
        { name: "init", image: "i:1" },
        { name: "api", image: "a:1" },
        { name: "worker", image: "w:1" },
      ],
    };
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

describe("sameValue", () => {
  it.each([
    [1, 1, true],
    [1, "1", false],
    [null, null, true],
    [null, {}, false],
    [{}, null, false],
    [[1, 2], [1, 2], true],
    [[1, 2], [2, 1], false],
    [[1], [1, 1], false],
    [[], {}, false],
    [{}, [], false],
    [{ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [{ a: 1, b: 2 }, { a: 1, c: 2 }, false],
    [{ a: { b: 1 } }, { a: { b: 2 } }, false],
    ["x", { x: 1 }, false],
  ])("%j and %j: %s", (a, b, expected) => {
    expect(sameValue(a, b)).toBe(expected);
    expect(sameValue(b, a)).toBe(expected);
  });
});

describe("diffValues at the edges", () => {
  it("reports a map that became a list, or a value that became a map, as one change", () => {
    expect(diffValues({ a: { b: 1 } }, { a: [1] })).toStrictEqual([{ path: [{ key: "a" }], op: "change", before: { b: 1 }, after: [1] }]);
    expect(diffValues({ a: "x" }, { a: { b: 1 } })).toStrictEqual([{ path: [{ key: "a" }], op: "change", before: "x", after: { b: 1 } }]);
    expect(diffValues({ a: [1] }, { a: [1] })).toStrictEqual([]);
  });

  it("matches by a numeric merge key, and by position when the key repeats or is missing", () => {
    const ports = (...list: { containerPort: number; protocol?: string }[]) => ({ ports: list });
    expect(
      diffValues(ports({ containerPort: 80 }, { containerPort: 443 }), ports({ containerPort: 443, protocol: "TCP" }, { containerPort: 80 })).map((c) => [
        c.op,
        formatPath(c.path),
      ]),
    ).toStrictEqual([
      ["add", "ports[containerPort=443].protocol"],
      ["reorder", "ports"],
    ]);
    // Two items with one name: no key identifies them, positions do.
    const twice = {
      containers: [
        { name: "a", image: "1" },
        { name: "a", image: "2" },
      ],
    };
    expect(
      diffValues(twice, {
        containers: [
          { name: "a", image: "1" },
          { name: "a", image: "3" },
        ],
      }).map((c) => formatPath(c.path)),
    ).toStrictEqual(["containers[1].image"]);
    // An item without the key: positions again.
    expect(diffValues({ containers: [{ image: "1" }] }, { containers: [{ image: "2" }] }).map((c) => formatPath(c.path))).toStrictEqual([
      "containers[0].image",
    ]);
    // A list at the top (no field name): positions.
    expect(diffValues([1, 2], [1, 3]).map((c) => formatPath(c.path))).toStrictEqual(["[1]"]);
  });

  it("finds no merge key for a list under a name Object.prototype has", () => {
    // MERGE_KEYS is a plain object: `constructor` read through it was a function, and the diff threw.
    for (const field of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const before = JSON.parse(`{"${field}": [1, 2]}`) as unknown;
      const after = JSON.parse(`{"${field}": [1, 3]}`) as unknown;
      expect(
        diffValues(before, after).map((c) => formatPath(c.path)),
        field,
      ).toStrictEqual([`${field}[1]`]);
    }
  });
});
