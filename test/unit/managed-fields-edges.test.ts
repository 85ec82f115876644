// The fieldsV1 walk (src/diff/managed-fields.ts) at its edges: which entry is
// a manager's, indexed and set members, fields under values that are not
// objects, and a key the walk does not know.
import { describe, expect, it } from "vitest";
import { entryOf, fidelity, type ManagedEntry } from "../../src/diff/managed-fields.js";
import { InternalError } from "../../src/errors/index.js";

const entry = (fieldsV1: object): ManagedEntry => ({ manager: "m", operation: "Apply", fieldsV1: fieldsV1 as never });

describe("a manager's entry", () => {
  const managed: ManagedEntry[] = [
    { manager: "kube-controller-manager", operation: "Update", subresource: "status" },
    { manager: "pulumi", operation: "Apply", subresource: "scale" },
    { manager: "pulumi", operation: "Update" },
    { manager: "pulumi", operation: "Apply", fieldsV1: { "f:spec": {} } },
    { manager: "pulumi", operation: "Apply", fieldsV1: { "f:metadata": {} } },
  ];

  it("is the first of its operation on the object itself, not a subresource", () => {
    expect(entryOf(managed, "pulumi")).toBe(managed[3]);
    expect(entryOf(managed, "pulumi", "Update")).toBe(managed[2]);
    expect(entryOf(managed, "kube-controller-manager", "Update")).toBeUndefined();
    expect(entryOf(managed, "helm")).toBeUndefined();
    expect(entryOf(undefined, "pulumi")).toBeUndefined();
  });
});

describe("the walk", () => {
  it("compares list items by index", () => {
    const trie = { "f:args": { "i:0": {}, "i:2": {} } };
    expect(fidelity(entry(trie), { args: ["a", "b", "c"] }, { args: ["a", "b", "x"] })).toStrictEqual({
      differs: [{ path: ".args[2]", live: "c", rendered: "x" }],
      added: [],
    });
    expect(fidelity(entry(trie), { args: "not a list" }, { args: ["a"] })).toStrictEqual({
      differs: [{ path: ".args[0]", live: undefined, rendered: "a" }],
      added: [".args[2]"],
    });
    expect(fidelity(entry(trie), { args: ["a"] }, { args: "not a list" }).added).toStrictEqual([".args[0]", ".args[2]"]);
  });

  it("finds a set member on either side, and a new one as a difference", () => {
    const trie = { "f:finalizers": { 'v:"a"': {}, 'v:{"b":1}': {} } };
    expect(fidelity(entry(trie), { finalizers: ["a", { b: 1 }] }, { finalizers: [{ b: 1 }, "a"] })).toStrictEqual({ differs: [], added: [] });
    expect(fidelity(entry(trie), { finalizers: [] }, { finalizers: ["a", { b: 1 }] }).differs).toStrictEqual([
      { path: '.finalizers[="a"]', live: undefined, rendered: "a" },
      { path: '.finalizers[={"b":1}]', live: undefined, rendered: { b: 1 } },
    ]);
    expect(fidelity(entry(trie), { finalizers: "a" }, { finalizers: ["a"] }).differs).toStrictEqual([
      { path: '.finalizers[="a"]', live: undefined, rendered: "a" },
    ]);
  });

  it("reads no field of a list, a string or null", () => {
    const trie = { "f:spec": { "f:replicas": {} } };
    for (const live of [{ spec: [{ replicas: 2 }] }, { spec: "replicas" }, { spec: null }, null, "text"]) {
      expect(fidelity(entry(trie), live, { spec: { replicas: 2 } }).differs, JSON.stringify(live)).toStrictEqual([
        { path: ".spec.replicas", live: undefined, rendered: 2 },
      ]);
    }
    expect(fidelity(entry(trie), { spec: { replicas: 2 } }, { spec: [{ replicas: 2 }] }).added).toStrictEqual([".spec.replicas"]);
  });

  it("matches a keyed member on every key it has, in a list only, skipping items that are not objects", () => {
    const trie = { "f:ports": { 'k:{"name":"http","port":80}': { "f:targetPort": {} } } };
    const live = { ports: [null, { name: "http", port: 81, targetPort: 1 }, { name: "http", port: 80, targetPort: 2 }] };
    expect(fidelity(entry(trie), live, { ports: [{ name: "http", port: 80, targetPort: 2 }] })).toStrictEqual({ differs: [], added: [] });
    expect(fidelity(entry(trie), { ports: { name: "http", port: 80 } }, { ports: [{ name: "http", port: 80, targetPort: 2 }] }).differs).toStrictEqual([
      { path: '.ports[{"name":"http","port":80}].targetPort', live: undefined, rendered: 2 },
    ]);
  });

  it("walks nothing for an entry without fields, and refuses a key kind it does not know", () => {
    expect(fidelity({ manager: "m", operation: "Apply" }, { a: 1 }, { a: 2 })).toStrictEqual({ differs: [], added: [] });
    expect(() => fidelity(entry({ "x:odd": {} }), {}, {})).toThrow(InternalError);
  });
});
