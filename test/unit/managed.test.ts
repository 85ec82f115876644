// The fieldsV1 walk the live fidelity test rests on: a wrong walk would pass
// every object, so it is checked on its own.
import { describe, expect, it } from "vitest";
import { fidelity } from "../helpers/managed.js";

const entry = (fieldsV1: object) => ({ manager: "m", operation: "Apply", fieldsV1: fieldsV1 as never });

describe("fidelity of a live object to its render, in the fields a manager owns", () => {
  it("finds nothing where every owned leaf equals the render", () => {
    const object = { metadata: { labels: { a: "1" } }, spec: { replicas: 2 } };
    expect(fidelity(entry({ "f:metadata": { "f:labels": { "f:a": {} } }, "f:spec": { "f:replicas": {} } }), object, object)).toStrictEqual({
      differs: [],
      added: [],
    });
  });

  it("names an owned leaf whose live value differs, with both values", () => {
    const seen = fidelity(entry({ "f:spec": { "f:replicas": {} } }), { spec: { replicas: 4 } }, { spec: { replicas: 2 } });
    expect(seen.differs).toStrictEqual([{ path: ".spec.replicas", live: 4, rendered: 2 }]);
  });

  it("names an owned field the render does not have as added, once for its whole subtree", () => {
    const seen = fidelity(
      entry({ "f:spec": { "f:strategy": { "f:type": {}, "f:rollingUpdate": { ".": {}, "f:maxSurge": {} } }, "f:replicas": {} } }),
      { spec: { replicas: 1, strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%" } } } },
      { spec: { replicas: 1 } },
    );
    expect(seen).toStrictEqual({ differs: [], added: [".spec.strategy"] });
  });

  it("matches keyed list members, a key the render leaves out (a port's protocol) counted as the server's default", () => {
    const trie = { "f:ports": { 'k:{"port":80,"protocol":"TCP"}': { ".": {}, "f:port": {}, "f:protocol": {}, "f:targetPort": {} } } };
    const live = { ports: [{ port: 80, protocol: "TCP", targetPort: 8080 }] };
    expect(fidelity(entry(trie), live, { ports: [{ port: 80, targetPort: 8080 }] })).toStrictEqual({
      differs: [],
      added: ['.ports[{"port":80,"protocol":"TCP"}].protocol'],
    });
    expect(fidelity(entry(trie), live, { ports: [{ port: 80, targetPort: 9090 }] }).differs).toStrictEqual([
      { path: '.ports[{"port":80,"protocol":"TCP"}].targetPort', live: 8080, rendered: 9090 },
    ]);
    expect(fidelity(entry(trie), live, { ports: [{ port: 81, targetPort: 8080 }] }).added).toStrictEqual(['.ports[{"port":80,"protocol":"TCP"}]']);
    // A member with none of the keys is no match.
    expect(fidelity(entry(trie), live, { ports: [{ targetPort: 8080 }] }).added).toStrictEqual(['.ports[{"port":80,"protocol":"TCP"}]']);
  });

  it("compares an atomic value (a selector, a set member) whole", () => {
    const trie = { "f:selector": {}, "f:finalizers": { 'v:"a"': {} } };
    expect(fidelity(entry(trie), { selector: { x: "1" }, finalizers: ["a"] }, { selector: { x: "1" }, finalizers: ["a"] }).differs).toStrictEqual([]);
    expect(fidelity(entry(trie), { selector: { x: "1", y: "2" }, finalizers: ["a"] }, { selector: { x: "1" }, finalizers: [] })).toStrictEqual({
      differs: [{ path: ".selector", live: { x: "1", y: "2" }, rendered: { x: "1" } }],
      added: ['.finalizers[="a"]'],
    });
  });
});
