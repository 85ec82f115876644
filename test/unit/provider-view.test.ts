// An object as the Kubernetes provider sends it (nulls dropped; empty maps
// and lists dropped for built-in kinds), built without copying what it keeps
// as it is: the diff compares shared, unchanged blocks by identity.
import { describe, expect, it } from "vitest";
import { providerView } from "../../src/diff/provider-view.js";

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

  it("prunes a block both sides share once: the same block gives the same result", () => {
    const shared = { a: null, b: 1 };
    const one = providerView({ group: "", body: { x: shared } }) as { x: unknown };
    const two = providerView({ group: "", body: { y: shared } }) as { y: unknown };
    expect(one.x).toBe(two.y);
    expect(one.x).toStrictEqual({ b: 1 });
  });
});
