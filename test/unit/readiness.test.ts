// What each engine waits for before a deploy goes on, and where the wait
// proves little: checked per kind here; the cluster test shows a stuck pod.
import { describe, expect, it } from "vitest";
import { awaitsOf } from "../../src/engine/readiness.js";
import type { RenderedObject } from "../../src/model/objects.js";

const object = (group: string, kind: string, name: string, body: Record<string, unknown>, extra: Partial<RenderedObject> = {}): RenderedObject => ({
  id: `${group}/${kind}/web/${name}`,
  apiVersion: group === "" ? "v1" : `${group}/v1`,
  group,
  kind,
  namespace: "web",
  name,
  body,
  ...extra,
});
const pods = (probe: boolean) => ({ template: { spec: { containers: [{ name: "api", ...(probe ? { readinessProbe: { httpGet: { port: 80 } } } : {}) }] } } });

describe("what the engine waits for", () => {
  it("waits under helm.v4.Chart as the provider's awaiters do, and names a workload without a readiness probe", () => {
    const objects = [
      object("apps", "Deployment", "api", { spec: pods(false) }),
      object("apps", "StatefulSet", "db", { spec: pods(true) }),
      object("", "Service", "api", { spec: { selector: { app: "api" } } }),
      object("", "Service", "lb", { spec: { type: "LoadBalancer", selector: { app: "api" } } }),
      object("", "Service", "external", { spec: { type: "ExternalName", externalName: "example.test" } }),
      object("", "ConfigMap", "cfg", {}),
    ];
    expect(awaitsOf("chart", objects)).toStrictEqual([
      {
        id: "apps/Deployment/web/api",
        display: "Deployment.apps web/api",
        on: "rolled out: observedGeneration current, updated and available replicas, Progressing with NewReplicaSetAvailable",
        note: "no readinessProbe on api: ready as soon as started, so the wait proves little",
      },
      {
        id: "apps/StatefulSet/web/db",
        display: "StatefulSet.apps web/db",
        on: "rolled out: updated and ready replicas, currentRevision equal to updateRevision",
      },
      { id: "/Service/web/api", display: "Service web/api", on: "endpoints for its selector" },
      { id: "/Service/web/lb", display: "Service web/lb", on: "an address in status.loadBalancer (a load balancer controller must give one)" },
    ]);
  });

  it("says pulumi.com/skipAwait makes the wait nothing under helm.v4.Chart, and waits as Helm does under a Release, hooks included", () => {
    const skipped = object("apps", "Deployment", "api", { metadata: { annotations: { "pulumi.com/skipAwait": "true" } }, spec: pods(true) });
    expect(awaitsOf("chart", [skipped])[0]?.note).toBe("pulumi.com/skipAwait: not waited for at all; the deploy goes on before it is ready");
    const hook = { events: ["pre-upgrade"], weight: 0, deletePolicies: [], test: false };
    const test = { events: ["test"], weight: 0, deletePolicies: [], test: true };
    const release = awaitsOf("release", [
      object("batch", "Job", "migrate", {}, { hook }),
      object("", "Pod", "probe", {}, { hook: test }),
      object("", "Service", "api", { spec: { selector: { app: "api" } } }),
      object("apiextensions.k8s.io", "CustomResourceDefinition", "widgets.example.com", {}),
    ]);
    expect(release.map((item) => `${item.display}: ${item.on}`)).toStrictEqual([
      "Job.batch web/migrate: Complete (waitForJobs), as a hook before the release goes on",
      "Service web/api: a cluster IP",
      "CustomResourceDefinition.apiextensions.k8s.io web/widgets.example.com: Established",
    ]);
  });
});
