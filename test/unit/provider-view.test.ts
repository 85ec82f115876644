// An object as the Kubernetes provider sends it (nulls dropped; empty maps
// and lists dropped for built-in kinds), built without copying what it keeps
// as it is: the diff compares shared, unchanged blocks by identity.
import { describe, expect, it } from "vitest";
import { providerFields, providerView } from "../../src/diff/provider-view.js";
import { diffValues } from "../../src/util/tree.js";

describe("providerView", () => {
  it("drops nulls everywhere, and empty maps and lists of built-in kinds only", () => {
    const body = { a: null, b: { c: null, d: 1 }, e: [], f: {}, g: [{ h: null }], i: [null, 1] };
    expect(providerView({ group: "apps", body })).toStrictEqual({ b: { d: 1 }, g: [{}], i: [null, 1] });
    expect(providerView({ group: "example.com", body })).toStrictEqual({ b: { d: 1 }, e: [], f: {}, g: [{}], i: [null, 1] });
    // An empty map left by dropping its nulls is dropped too, and the order of the other keys kept.
    expect(Object.keys(providerView({ group: "", body: { z: 1, y: { n: null }, x: 2 } }))).toStrictEqual(["z", "x"]);
  });

  it("gives back what has nothing to prune, itself, and copies only along a path that changed", () => {
    const same = { spec: { replicas: 1, containers: [{ name: "a" }] } };
    expect(providerView({ group: "apps", body: same })).toBe(same);
    const untouched = { deep: { list: [1, 2] } };
    const body = { keep: untouched, list: [{ x: 1 }, { y: null }, { z: 2 }], gone: null };
    const view = providerView({ group: "apps", body }) as typeof body;
    expect(view).not.toBe(body);
    expect(view.keep).toBe(untouched);
    expect(view.list).not.toBe(body.list);
    expect(view.list[0]).toBe(body.list[0]);
    expect(view.list[2]).toBe(body.list[2]);
    expect(body).toStrictEqual({ keep: untouched, list: [{ x: 1 }, { y: null }, { z: 2 }], gone: null });
  });

  it("is what the diff walks: a change of the view is a change of the objects pruned first, and no copy is made", () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const [a, b] = [tree(next, 4), next() < 0.5 ? tree(next, 4) : mutate(next, tree(next, 4))];
      for (const group of ["apps", "example.com"]) {
        const before = { group, body: { spec: a } };
        const after = { group, body: { spec: b } };
        const frozen = JSON.stringify([before, after]);
        expect(diffValues(before.body, after.body, providerFields(after)), `seed ${seed} ${group}`).toStrictEqual(
          diffValues(providerView(before), providerView(after)),
        );
        expect(JSON.stringify([before, after])).toBe(frozen);
      }
    }
  });

  it("sees a field the provider drops as no field, on either side", () => {
    const view = providerFields({ group: "apps" });
    expect(diffValues({ a: null, b: { c: [] }, d: 1 }, { d: 1 }, view)).toStrictEqual([]);
    expect(diffValues({ a: {} }, { a: { x: 1 } }, view)).toStrictEqual([{ path: [{ key: "a" }], op: "add", after: { x: 1 } }]);
    expect(diffValues({ a: { x: 1, y: null } }, { a: [] }, view)).toStrictEqual([{ path: [{ key: "a" }], op: "remove", before: { x: 1 } }]);
    // A custom resource's empty map is sent, and so compared.
    expect(diffValues({ a: {} }, { a: [] }, providerFields({ group: "example.com" }))).toStrictEqual([
      { path: [{ key: "a" }], op: "change", before: {}, after: [] },
    ]);
  });
});

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** A tree of maps, lists (some keyed by name, as containers are) and scalars, rich in what the provider drops: nulls, empty and all-null maps, empty lists. */
function tree(next: () => number, depth: number): unknown {
  const roll = next();
  if (depth === 0 || roll < 0.25) return [null, null, 0, "", "x", 1, true, {}, [], { n: null }][Math.floor(next() * 10)];
  if (roll < 0.45)
    return Array.from({ length: Math.floor(next() * 3) }, (_, i) => (next() < 0.5 ? tree(next, depth - 1) : { name: `c${i}`, v: tree(next, depth - 1) }));
  if (roll < 0.55)
    return {
      containers: Array.from({ length: Math.floor(next() * 3) }, (_, i) => ({ name: `c${(i + Math.floor(next() * 2)) % 3}`, v: tree(next, depth - 1) })),
    };
  const out: Record<string, unknown> = {};
  for (const key of ["a", "b", "c", "d"]) if (next() < 0.6) out[key] = tree(next, depth - 1);
  return out;
}

/** The same tree with a few fields changed, dropped, nulled or emptied. */
function mutate(next: () => number, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (next() < 0.3 ? mutate(next, item) : item));
  if (typeof value !== "object" || value === null) return next() < 0.3 ? tree(next, 1) : value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const roll = next();
    if (roll < 0.1) continue;
    out[key] = roll < 0.2 ? null : roll < 0.3 ? {} : roll < 0.5 ? mutate(next, item) : item;
  }
  return out;
}
