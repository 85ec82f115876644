// A live review splits what an apply changes into the change under review and
// drift (the cluster differs from the last deploy where the two renders
// agree), and reads Helm's stored release records. Both are pure, checked here
// on the shapes the API server returns; the cluster tests show them live.
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeRelease, upgradeBase } from "../../src/cluster/release.js";
import { liveChanges, removedKeys } from "../../src/diff/live-changes.js";

const owns = (fieldsV1: object) => ({ manager: "pulumi-kubernetes-1", operation: "Apply", fieldsV1: fieldsV1 as never });
const LABELS = { "f:metadata": { "f:labels": { "f:app": {}, "f:tier": {} } }, "f:spec": { "f:replicas": {} } };
const object = (labels: Record<string, string>, replicas: number) => ({ metadata: { labels }, spec: { replicas } });

describe("what an apply changes on a live object: the change under review, and drift", () => {
  it("calls a field the renders agree on and the cluster does not drift, and the one the new version changes the change", () => {
    const seen = liveChanges({
      live: object({ app: "web" }, 2),
      result: object({ app: "web", tier: "front" }, 3),
      applied: owns(LABELS),
      before: object({ app: "web", tier: "front" }, 2),
      after: object({ app: "web", tier: "front" }, 3),
      sealedBefore: false,
    });
    expect(seen).toStrictEqual({ fields: [".spec.replicas"], drift: [".metadata.labels.tier"] });
  });

  it("finds no drift when nothing was deployed before, and counts a field the apply removes as the change", () => {
    const removed = liveChanges({
      live: object({ app: "web", tier: "front" }, 2),
      result: object({ app: "web" }, 2),
      applied: owns({ "f:metadata": { "f:labels": { "f:app": {} } }, "f:spec": { "f:replicas": {} } }),
      owned: owns(LABELS),
      before: object({ app: "web", tier: "front" }, 2),
      after: object({ app: "web" }, 2),
      sealedBefore: false,
    });
    expect(removed).toStrictEqual({ fields: [".metadata.labels.tier"], drift: [] });
    const fresh = liveChanges({
      live: object({ app: "x" }, 2),
      result: object({ app: "web" }, 2),
      applied: owns(LABELS),
      after: object({ app: "web" }, 2),
      sealedBefore: false,
    });
    expect(fresh).toStrictEqual({ fields: [".metadata.labels.app"], drift: [] });
  });

  it("never calls a Secret value drift when the old side's values are sealed", () => {
    const secret = (password: string) => ({ data: { password } });
    const seen = liveChanges({
      live: secret("bGl2ZQ=="),
      result: secret("bmV3"),
      applied: owns({ "f:data": { "f:password": {} } }),
      before: secret("(sealed)"),
      after: secret("bmV3"),
      sealedBefore: true,
    });
    expect(seen).toStrictEqual({ fields: [".data.password"], drift: [] });
  });
});

describe("what helm upgrade's three-way merge removes", () => {
  it("names the map keys the release set, the new render drops and the live object still has", () => {
    const before = { metadata: { labels: { keep: "yes", tier: "old", gone: "x" } }, spec: { ports: [{ port: 80 }] } };
    const after = { metadata: { labels: { keep: "yes" } }, spec: { ports: [] } };
    const live = { metadata: { labels: { keep: "yes", tier: "old" }, uid: "1" }, spec: { ports: [{ port: 80, protocol: "TCP" }] } };
    expect(removedKeys(before, after, live)).toStrictEqual([".metadata.labels.tier"]);
    expect(removedKeys(before, { metadata: {} }, live)).toStrictEqual([".metadata.labels", ".spec"]);
  });
});

const record = (version: number, status: string, extra: object = {}) =>
  Buffer.from(
    gzipSync(
      JSON.stringify({ version, info: { status }, chart: { metadata: { name: "ledger", version: "0.1.0" } }, manifest: "---\nkind: Service\n", ...extra }),
    ).toString("base64"),
  ).toString("base64");

describe("Helm's stored release records", () => {
  it("reads the revision, status, chart and manifest of a record as the API server returns it", () => {
    expect(decodeRelease(record(3, "deployed", { config: { password: "planted" } }))).toStrictEqual({
      revision: 3,
      status: "deployed",
      chart: "ledger-0.1.0",
      manifest: "---\nkind: Service\n",
    });
  });

  it("returns nothing for a value that is not a Helm record", () => {
    expect(decodeRelease(Buffer.from("not a record").toString("base64"))).toBeUndefined();
    expect(decodeRelease(Buffer.from(Buffer.from('{"name":"x"}').toString("base64")).toString("base64"))).toBeUndefined();
  });

  it("upgrades from the newest deployed revision, else the newest", () => {
    const at = (revision: number, status: string) => ({ revision, status, chart: "c-1", manifest: "" });
    expect(upgradeBase([at(3, "failed"), at(2, "deployed"), at(1, "superseded")])?.revision).toBe(2);
    expect(upgradeBase([at(2, "failed"), at(1, "failed")])?.revision).toBe(2);
    expect(upgradeBase([])).toBeUndefined();
  });
});
