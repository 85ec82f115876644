import { describe, expect, it } from "vitest";
import { isSecretValuePath, maskSecretBody, maskSecretChange, unchangedSecretValues } from "../../src/diff/secrets.js";
import { parsePath } from "../../src/util/tree-path.js";

const b64 = (text: string) => Buffer.from(text).toString("base64");

describe("Secret values in a diff", () => {
  it("knows which paths hold Secret values", () => {
    expect(isSecretValuePath(parsePath("data.password"))).toBe(true);
    expect(isSecretValuePath(parsePath("stringData"))).toBe(true);
    expect(isSecretValuePath(parsePath("metadata.name"))).toBe(false);
    expect(isSecretValuePath(parsePath("type"))).toBe(false);
    expect(isSecretValuePath([])).toBe(false);
    expect(isSecretValuePath([{ index: 0 }])).toBe(false);
  });

  it("masks one value's change by its byte length, per side", () => {
    const path = parsePath("data.password");
    expect(maskSecretChange({ path, op: "change", before: b64("1234"), after: b64("123456") })).toStrictEqual([
      { path, op: "change", before: { masked: true, bytes: 4 }, after: { masked: true, bytes: 6 }, secret: "changed" },
    ]);
    expect(maskSecretChange({ path, op: "add", after: b64("abc") })).toStrictEqual([
      { path, op: "add", before: undefined, after: { masked: true, bytes: 3 }, secret: "added" },
    ]);
    expect(maskSecretChange({ path, op: "remove", before: b64("ab") })).toStrictEqual([
      { path, op: "remove", before: { masked: true, bytes: 2 }, after: undefined, secret: "removed" },
    ]);
    // stringData is text, not base64.
    expect(maskSecretChange({ path: parsePath("stringData.token"), op: "add", after: "plain" })[0]?.after).toStrictEqual({ masked: true, bytes: 5 });
    expect(maskSecretChange({ path: parsePath("metadata.labels.a"), op: "add", after: "x" })).toStrictEqual([]);
  });

  it("splits a whole map's change into one change per key, sorted, unchanged keys left out", () => {
    const change = {
      path: parsePath("data"),
      op: "change" as const,
      before: { b: b64("same"), a: b64("old"), gone: b64("x") },
      after: { b: b64("same"), a: b64("newer"), c: b64("new") },
    };
    expect(maskSecretChange(change)).toStrictEqual([
      { path: parsePath("data.a"), op: "change", before: { masked: true, bytes: 3 }, after: { masked: true, bytes: 5 }, secret: "changed" },
      { path: parsePath("data.c"), op: "add", after: { masked: true, bytes: 3 }, secret: "added" },
      { path: parsePath("data.gone"), op: "remove", before: { masked: true, bytes: 1 }, secret: "removed" },
    ]);
    expect(maskSecretChange({ path: parsePath("data"), op: "add", after: { k: b64("v") } })).toStrictEqual([
      { path: parsePath("data.k"), op: "add", after: { masked: true, bytes: 1 }, secret: "added" },
    ]);
  });

  it("masks a whole Secret body, keeping its other fields", () => {
    expect(maskSecretBody({ kind: "Secret", type: "Opaque", data: { a: b64("1234") }, stringData: { b: "xy" } })).toStrictEqual({
      kind: "Secret",
      type: "Opaque",
      data: { a: "<4 bytes, hidden>" },
      stringData: { b: "<2 bytes, hidden>" },
    });
    expect(maskSecretBody({ kind: "Secret", data: "odd" })).toStrictEqual({ kind: "Secret", data: "odd" });
  });

  it("lists the values present and equal on both sides, sorted, by byte length", () => {
    const before = { data: { z: b64("12"), a: b64("1"), changed: b64("x") }, stringData: { s: "abc" } };
    const after = { data: { a: b64("1"), z: b64("12"), changed: b64("y"), added: b64("n") }, stringData: { s: "abc" } };
    expect(unchangedSecretValues(before, after)).toStrictEqual([
      { path: "data.a", bytes: 1 },
      { path: "data.z", bytes: 2 },
      { path: "stringData.s", bytes: 3 },
    ]);
    expect(unchangedSecretValues({ data: "x", stringData: { s: "abc" } }, after)).toStrictEqual([{ path: "stringData.s", bytes: 3 }]);
  });
});
