import { describe, expect, it } from "vitest";
import type { RenderedObject } from "../../src/model/objects.js";
import { inputsDigest, knownUnstable } from "../../src/render/recorded.js";
import type { RenderInput } from "../../src/render/render.js";

// The lock records a digest of the inputs its facts were rendered from, so a
// review of the pin renders once where the probe renders twice. The digest
// must change with every input that can change a render, and must not hold
// a secret in any form.
describe("the record of a render's inputs", () => {
  const input = (values: Record<string, unknown>, more: Partial<RenderInput> = {}): RenderInput => ({
    archive: { path: "/store/web.tgz", digest: "sha256:aa" },
    helm: { path: "helm", version: "4.1.4", origin: "test" },
    label: "web",
    releaseName: "web",
    namespace: "apps",
    kubeVersion: "1.31.0",
    apiVersions: [],
    values: [{ name: "values/web/values.yaml", text: "", values }],
    ...more,
  });
  const digest = (values: Record<string, unknown>, more: Partial<RenderInput> = {}, secretPaths: string[] = []) =>
    inputsDigest(input(values, more), secretPaths);

  it("is the same for the same inputs, and a hex sha256", () => {
    expect(digest({ replicas: 2 })).toBe(digest({ replicas: 2 }));
    expect(digest({ replicas: 2 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it("changes with a value, the archive, helm, the Kubernetes version, the release and the namespace", () => {
    const base = digest({ mode: "generate" });
    const others = [
      digest({ mode: "provided" }),
      digest({ mode: "generate", extra: true }),
      digest({ mode: "generate" }, { archive: { path: "/store/web.tgz", digest: "sha256:bb" } }),
      digest({ mode: "generate" }, { helm: { path: "helm", version: "3.17.2", origin: "test" } }),
      digest({ mode: "generate" }, { kubeVersion: "1.32.0" }),
      digest({ mode: "generate" }, { apiVersions: ["example.test/v1"] }),
      digest({ mode: "generate" }, { releaseName: "web2" }),
      digest({ mode: "generate" }, { namespace: "other" }),
      digest({ mode: "generate" }, { includeCrds: false }),
      digest({ mode: "generate" }, { schemaFetch: "references" }),
    ];
    for (const other of others) expect(other).not.toBe(base);
    expect(new Set(others).size).toBe(others.length);
  });

  it("is this digest for these inputs: a change to what it reads, or how, is a change on purpose (every lock's record then misses once)", () => {
    expect(digest({ replicas: 2, auth: { password: "hunter2" } })).toBe("3b6b6aeabb000d9cce9b986fb83fdbbf93eb570da6b7b286e36bf42f2ba759e0");
  });

  it("reads what helm reads: defaults as helm takes them, each list item, the schema fetch", () => {
    expect(digest({}, { includeCrds: true })).toBe(digest({}));
    expect(digest({}, { schemaFetch: "references" })).not.toBe(digest({}, { schemaFetch: "meta-schema" }));
    expect(digest({ list: ["a"] })).not.toBe(digest({ list: ["b"] }));
    expect(digest({ list: [{ name: "a" }] })).not.toBe(digest({ list: [{ name: "b" }] }));
  });

  it("tells the values files apart by name and order", () => {
    const layers = (names: string[]) => inputsDigest(input({}, { values: names.map((name) => ({ name, text: "", values: { a: 1 } })) }), []);
    expect(layers(["values/web/values.yaml", "values/web/dev.yaml"])).not.toBe(layers(["values/web/dev.yaml", "values/web/values.yaml"]));
    expect(layers(["values/web/values.yaml"])).not.toBe(layers(["values/web/dev.yaml"]));
  });

  it("holds a value under a secret-looking key only as set or not", () => {
    expect(digest({ auth: { password: "hunter2" } })).toBe(digest({ auth: { password: "correct horse" } }));
    expect(digest({ auth: { apiKey: 1234 } })).toBe(digest({ auth: { apiKey: 5678 } }));
    // Emptied, or set where it was empty: the chart generates what is not set.
    expect(digest({ auth: { password: "" } })).not.toBe(digest({ auth: { password: "hunter2" } }));
    // What only names a secret is no secret: it counts in full.
    expect(digest({ auth: { existingSecret: "a" } })).not.toBe(digest({ auth: { existingSecret: "b" } }));
    expect(digest({ auth: { password: "x", enabled: true } })).not.toBe(digest({ auth: { password: "x", enabled: false } }));
    // Only a string or a number is a secret's material: a switch or a null under such a key counts in full.
    expect(digest({ token: true })).not.toBe(digest({ token: false }));
    expect(digest({ token: null })).not.toBe(digest({ token: "abc" }));
  });

  it("holds a value a rendered Secret holds only as set, at the paths the render found", () => {
    const held = ['["admin","pin"]', '["users",0,"pw"]'];
    expect(digest({ admin: { pin: "1" } }, {}, held)).toBe(digest({ admin: { pin: "2" } }, {}, held));
    expect(digest({ users: [{ pw: "a" }] }, {}, held)).toBe(digest({ users: [{ pw: "b" }] }, {}, held));
    expect(digest({ admin: { pin: "1" } }, {}, [])).not.toBe(digest({ admin: { pin: "2" } }, {}, []));
    expect(digest({ admin: { pin: "" } }, {}, held)).not.toBe(digest({ admin: { pin: "1" } }, {}, held));
    // A Secret holds strings: a number at such a path is not the string it holds.
    expect(digest({ admin: { pin: 1 } }, {}, held)).not.toBe(digest({ admin: { pin: 2 } }, {}, held));
  });

  it("is not made for a post-renderer or a --set flag", () => {
    expect(digest({}, { postRenderer: { command: "kustomize", args: [] } })).toBeUndefined();
    expect(inputsDigest(input({}, { values: [{ name: "--set", text: "a: 1", values: { a: 1 }, flag: { option: "set", arg: "a=1" } }] }), [])).toBeUndefined();
    expect(inputsDigest(input({}, { values: [{ name: "code", text: "a: 1" }] }), [])).toBeUndefined();
  });
});

describe("the lock's fields that change on every render, named in one render", () => {
  const object = (kind: string, name: string, group = ""): RenderedObject =>
    ({ id: `${group}/${kind}/apps/${name}`, group, kind, namespace: "apps", name, body: {} }) as RenderedObject;
  const objects = [object("Secret", "web-auth"), object("Deployment", "web", "apps"), object("ConfigMap", "web")];

  it("are the ids and paths of the objects the render made, sorted", () => {
    expect(
      knownUnstable(['Deployment.apps apps/web: spec.template.metadata.annotations["x: y"]', "Secret apps/web-auth: data.password"], objects),
    ).toStrictEqual(["/Secret/apps/web-auth data.password", 'apps/Deployment/apps/web spec.template.metadata.annotations["x: y"]']);
    expect(knownUnstable([], objects)).toStrictEqual([]);
  });

  it("are not known when an object is not rendered, is named twice, or the entry has no name", () => {
    expect(knownUnstable(["Secret apps/other: data.password"], objects)).toBeUndefined();
    expect(knownUnstable(["ConfigMap apps/web: data.a"], [...objects, object("ConfigMap", "web")])).toBeUndefined();
    expect(knownUnstable(["data.password"], objects)).toBeUndefined();
    // An entry without ": " names nothing, even when all but its last character is an object's name.
    expect(knownUnstable(["Secret apps/web-authx"], objects)).toBeUndefined();
  });
});
