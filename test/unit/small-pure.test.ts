// Small pure helpers with no test of their own elsewhere: how a value prints
// in a report, which digests a lock holds, what the provider renders offline.
import { describe, expect, it } from "vitest";
import { engineKubernetes, OFFLINE_KUBE_VERSION, offlineRefusal } from "../../src/engine/offline.js";
import { lockedDigests, lockedUses } from "../../src/lockfile/images.js";
import type { LockedChart } from "../../src/lockfile/schema.js";
import { formatValue } from "../../src/report/format-value.js";

describe("formatValue", () => {
  it("prints a masked secret by its size, nothing as (none), a short value inline as JSON", () => {
    expect(formatValue({ masked: true, bytes: 12 })).toStrictEqual(["<hidden, 12 bytes>"]);
    expect(formatValue({ masked: true })).toStrictEqual(['{"masked":true}']);
    expect(formatValue({ masked: "yes", bytes: 3 })).toStrictEqual(['{"masked":"yes","bytes":3}']);
    expect(formatValue(undefined)).toStrictEqual(["(none)"]);
    expect(formatValue(null)).toStrictEqual(["null"]);
    expect(formatValue("x".repeat(78))).toStrictEqual([`"${"x".repeat(78)}"`]);
  });

  it("prints a value over 80 characters, or with a line break, as YAML lines", () => {
    expect(formatValue("x".repeat(79))).toStrictEqual(["x".repeat(79)]);
    expect(formatValue("one\ntwo")).toStrictEqual(["|-", "one", "two"]);
    expect(formatValue({ list: ["a".repeat(40), "b".repeat(40)] })).toStrictEqual(["list:", `  - ${"a".repeat(40)}`, `  - ${"b".repeat(40)}`]);
  });
});

describe("the digests a lock holds", () => {
  const digest = (c: string) => `sha256:${c.repeat(64)}`;
  const pin = {
    images: {
      dev: [
        { object: "Deployment.apps web/a", container: "a", image: "r.test/a:1", digest: digest("a") },
        { object: "Deployment.apps web/b", container: "b", image: "r.test/b:1", unresolved: "registry not declared" },
      ],
      prod: [{ object: "Deployment.apps web/c", container: "c", image: "r.test/c:2", digest: digest("c") }],
    },
  } as unknown as LockedChart;

  it("takes every use with a digest over all stacks, by the reference as written, and nothing else", () => {
    expect([...lockedUses(pin).keys()]).toStrictEqual(["r.test/a:1", "r.test/c:2"]);
    expect([...lockedDigests(pin)]).toStrictEqual([
      ["r.test/a:1", digest("a")],
      ["r.test/c:2", digest("c")],
    ]);
    expect(lockedDigests(undefined).size).toBe(0);
    expect(lockedUses({} as LockedChart).size).toBe(0);
  });
});

describe("rendering without a cluster", () => {
  const stack = { kubeVersion: "1.31.0", apiVersions: ["example.com/v1"] };

  it("renders helm.v4.Chart (and an engine not chosen yet) for v1.20.0 offline, a Release for the stack's cluster", () => {
    expect(engineKubernetes("chart", { ...stack, offline: true })).toStrictEqual({ kubeVersion: OFFLINE_KUBE_VERSION, apiVersions: [] });
    expect(engineKubernetes(undefined, { ...stack, offline: true })).toStrictEqual({ kubeVersion: "1.20.0", apiVersions: [] });
    expect(engineKubernetes("release", { ...stack, offline: true })).toStrictEqual(stack);
    expect(engineKubernetes("chart", { ...stack, offline: false })).toStrictEqual(stack);
    expect(engineKubernetes("chart", stack)).toStrictEqual(stack);
    expect(engineKubernetes("chart", undefined)).toStrictEqual({ kubeVersion: undefined, apiVersions: [] });
  });

  it("refuses offline a helm.v4.Chart chart whose kubeVersion excludes v1.20.0, and nothing else", () => {
    expect(offlineRefusal("chart", ">=1.25.0-0")).toContain("requires Kubernetes >=1.25.0-0");
    expect(offlineRefusal(undefined, ">=1.25.0")).toBeDefined();
    expect(offlineRefusal("chart", ">=1.19.0-0")).toBeUndefined();
    expect(offlineRefusal("chart", undefined)).toBeUndefined();
    expect(offlineRefusal("release", ">=1.25.0")).toBeUndefined();
  });
});
