import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RenderedObject } from "../../src/model/objects.js";
import { sealSecrets, valuePathsInSecrets } from "../../src/render/seal.js";

// Where the values hold a string a rendered Secret holds whole: what the
// lock's record of a render's inputs leaves out (render/recorded.ts).
describe("values paths a Secret holds", () => {
  const key = randomBytes(32);
  const secret = (body: Record<string, unknown>): RenderedObject =>
    ({ id: "/Secret/apps/auth", group: "", kind: "Secret", namespace: "apps", name: "auth", body }) as RenderedObject;
  const configMap = {
    id: "/ConfigMap/apps/cm",
    group: "",
    kind: "ConfigMap",
    namespace: "apps",
    name: "cm",
    apiVersion: "v1",
    body: { data: { pin: "4321" } },
  } as RenderedObject;
  const layer = (values: Record<string, unknown>) => ({ name: "values/web/values.yaml", text: "", values });

  it("finds a string in data (base64) or stringData, at every layer and list index", () => {
    const objects = sealSecrets([secret({ data: { pin: Buffer.from("4321").toString("base64") }, stringData: { user: "admin-7" } }), configMap], key);
    const paths = valuePathsInSecrets(objects, [layer({ admin: { pin: "4321", note: "4321x" } }), layer({ users: ["x", "admin-7"] })], key);
    expect(paths).toStrictEqual(['["admin","pin"]', '["users",1]']);
  });

  it("finds nothing a ConfigMap holds, nor anything when no Secret has values", () => {
    expect(valuePathsInSecrets(sealSecrets([configMap], key), [layer({ pin: "4321" })], key)).toStrictEqual([]);
    expect(valuePathsInSecrets(sealSecrets([secret({ type: "Opaque" })], key), [layer({ pin: "4321" })], key)).toStrictEqual([]);
  });
});
