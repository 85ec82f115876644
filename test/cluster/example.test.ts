// The example platform deployed for real: `pulumi up` against the test
// cluster (kube-apiserver, controller-manager, scheduler, kwok), with the
// provider's readiness awaits on. Both engines: helm.v4.Chart children by
// server-side apply, the ledger a real Helm release with its hooks.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DiffReport } from "../../src/diff/model.js";
import { type Cluster, startCluster } from "../helpers/cluster.js";
import { ENGINE_TEST_MS, ExampleProject, type Outcome, previewSteps } from "../helpers/engine.js";
import { helm, isHook, live, providerWrites, type RenderedObject, rendered } from "../helpers/live.js";
import { fidelity } from "../helpers/managed.js";

const PASSWORD = "planted-cluster-secret-7730";
const CHARTS = ["webapp", "ledger", "widgets-operator", "storefront"];

/**
 * Fields the API server fills in for the Release's objects and attributes to
 * Helm's manager (a client-side create owns the whole object as stored),
 * each with why. Helm's own ownership metadata is the first two.
 */
const FILLED_FOR_HELM: Record<string, string> = {
  ".metadata.annotations": "Helm's meta.helm.sh/release-name and release-namespace",
  ".metadata.labels": "Helm's app.kubernetes.io/managed-by: Helm (on an object the chart gives no labels)",
  ".metadata.labels.app.kubernetes.io/managed-by": "Helm's app.kubernetes.io/managed-by: Helm",
  ".spec.internalTrafficPolicy": "Service default: Cluster",
  ".spec.sessionAffinity": "Service default: None",
  ".spec.type": "Service default: ClusterIP",
  '.spec.ports[{"port":80,"protocol":"TCP"}].protocol': "port default: TCP",
  ".spec.progressDeadlineSeconds": "Deployment default: 600",
  ".spec.revisionHistoryLimit": "Deployment default: 10",
  ".spec.strategy": "Deployment default: RollingUpdate 25%/25%",
  '.spec.template.spec.containers[{"name":"ledger"}].imagePullPolicy': "container default: IfNotPresent",
  '.spec.template.spec.containers[{"name":"ledger"}].ports[{"containerPort":9000,"protocol":"TCP"}].protocol': "port default: TCP",
  '.spec.template.spec.containers[{"name":"ledger"}].resources': "container default: {}",
  '.spec.template.spec.containers[{"name":"ledger"}].terminationMessagePath': "container default: /dev/termination-log",
  '.spec.template.spec.containers[{"name":"ledger"}].terminationMessagePolicy': "container default: File",
  ".spec.template.spec.dnsPolicy": "pod default: ClusterFirst",
  ".spec.template.spec.restartPolicy": "pod default: Always",
  ".spec.template.spec.schedulerName": "pod default: default-scheduler",
  ".spec.template.spec.securityContext": "pod default: {}",
  ".spec.template.spec.terminationGracePeriodSeconds": "pod default: 30",
};

describe("the example platform, deployed to a real API server", () => {
  let cluster: Cluster;
  let project: ExampleProject;
  let up: Outcome;
  let upTookMs: number;
  let objects: Map<string, RenderedObject[]>;

  beforeAll(async () => {
    cluster = await startCluster();
    project = await ExampleProject.create("chartroom-cluster-");
    await project.initStack("dev", PASSWORD, cluster.kubeconfig());
    const begun = Date.now();
    up = await project.pulumi(["up", "--yes", "--skip-preview"]);
    upTookMs = Date.now() - begun;
    // The program gives the web app these in code; chartroom gets them as a values file.
    await project.writeCodeValues(PASSWORD);
    objects = new Map();
    for (const chart of CHARTS) objects.set(chart, await rendered(project, chart, "dev", chart === "webapp" ? ["code-values.yaml"] : []));
  }, ENGINE_TEST_MS);

  afterAll(async () => {
    await project?.remove();
    await cluster?.stop();
  });

  it("deploys with pulumi up: the namespaces, every object of both engines, and every Deployment's pods Ready", async () => {
    expect(up.code, `${up.stdout}${up.stderr}\n${await cluster.explain()}`).toBe(0);
    expect(up.stdout).toMatch(/\+ 30 created/);
    const namespaces = await cluster.kubectl(["get", "namespaces", "-o", "jsonpath={.items[*].metadata.name}"]);
    expect(namespaces.stdout.split(" ")).toEqual(expect.arrayContaining(["ledger", "shop", "web", "widgets"]));
    for (const [chart, list] of objects) {
      for (const object of list.filter((item) => !isHook(item))) expect(await live(cluster, object), `${chart} ${object.id}`).toBeDefined();
    }
    const deployments = JSON.parse((await cluster.kubectl(["get", "deployments", "-A", "-o", "json"])).stdout) as {
      items: { metadata: { name: string }; spec: { replicas: number }; status: { readyReplicas?: number } }[];
    };
    expect(deployments.items.map((item) => [item.metadata.name, item.status.readyReplicas === item.spec.replicas])).toStrictEqual([
      ["ledger", true],
      ["shop-webapp", true],
      ["webapp", true],
      ["widgets-operator", true],
    ]);
    process.stdout.write(`[cluster] started in ${cluster.startedInMs} ms; pulumi up of the example took ${upTookMs} ms\n`);
  });

  it("holds each object as chartroom rendered it, in every field its deploying manager owns", async () => {
    const report: string[] = [];
    for (const [chart, list] of objects) {
      const release = chart === "ledger";
      for (const object of list.filter((item) => !isHook(item))) {
        const held = await live(cluster, object);
        // helm.v4.Chart children: server-side apply, one manager per resource; the Release: Helm's client-side writes.
        const entries = (held?.metadata.managedFields ?? []).filter((entry) =>
          release ? entry.manager === "pulumi-resource-kubernetes" && entry.operation === "Update" : entry.manager.startsWith("pulumi-kubernetes-"),
        );
        if (entries.length === 0) {
          // The server keeps no entry for a manager that owns no field: an object that is its name alone.
          expect(Object.keys(object.body).sort(), object.id).toStrictEqual(["apiVersion", "kind", "metadata"]);
          continue;
        }
        expect(entries.map((entry) => entry.operation)).toStrictEqual([release ? "Update" : "Apply"]);
        const seen = fidelity(entries[0] as (typeof entries)[0], held, object.body);
        for (const differ of seen.differs) report.push(`${chart} ${object.id} ${differ.path}`);
        for (const path of seen.added) {
          if (release && path in FILLED_FOR_HELM) continue;
          report.push(`${chart} ${object.id} added ${path}`);
        }
      }
    }
    // The one field that differs: the storefront's random password, which chartroom lists as changing on every render.
    expect(report).toStrictEqual(["storefront /Secret/shop/shop-webapp-auth .data.password"]);
    const ledger = await live(cluster, { kind: "Deployment", group: "apps", namespace: "ledger", name: "ledger" });
    expect(ledger?.metadata.annotations).toMatchObject({ "meta.helm.sh/release-name": "ledger", "meta.helm.sh/release-namespace": "ledger" });
    expect(ledger?.metadata.labels?.["app.kubernetes.io/managed-by"]).toBe("Helm");
  });

  it("installs the ledger as a Helm release that helm lists, with its hook run before the release's objects", async () => {
    const list = await helm(cluster, ["list", "-n", "ledger", "-o", "json"]);
    expect(JSON.parse(list.stdout)).toMatchObject([{ name: "ledger", namespace: "ledger", revision: "1", status: "deployed", chart: "ledger-0.1.0" }]);
    const history = await helm(cluster, ["history", "ledger", "-n", "ledger", "-o", "json"]);
    expect(JSON.parse(history.stdout)).toMatchObject([{ revision: 1, status: "deployed", description: "Install complete" }]);
    const writes = providerWrites(await cluster.audit(), "ledger").filter((write) => !write.includes(" events "));
    expect(writes).toStrictEqual([
      "create secrets sh.helm.release.v1.ledger.v1",
      // before-hook-creation: Helm deletes a Job of that name first (none yet: 404).
      "delete jobs ledger-migrate",
      "update secrets sh.helm.release.v1.ledger.v1",
      "create jobs ledger-migrate",
      // hook-succeeded: deleted once complete, then the release's objects.
      "delete jobs ledger-migrate",
      "create services ledger",
      "create deployments ledger",
      "update secrets sh.helm.release.v1.ledger.v1",
    ]);
    // The test hook is helm test's alone.
    expect(await live(cluster, { kind: "Pod", group: "", namespace: "ledger", name: "ledger-test-connection" })).toBeUndefined();
  });

  it("plans nothing on a refreshed preview right after, but the replacement chartroom says happens at every run", async () => {
    const preview = await project.pulumi(["preview", "--refresh", "--json"]);
    expect(preview.code, preview.stderr).toBe(0);
    const changed = previewSteps(preview.stdout)
      .filter((step) => step.op !== "same" && step.op !== "refresh")
      .map((step) => `${step.op} ${step.name}`);
    const explained = await project.chartroom(["explain", "storefront", "-o", "json"]);
    const churn = (JSON.parse(explained.stdout) as { churn: Record<string, { object: string; fields: string[]; step: string }[]> }).churn.dev ?? [];
    expect(churn).toStrictEqual([{ object: "Secret shop/shop-webapp-auth", fields: ["data.password"], step: "replace" }]);
    expect(changed).toStrictEqual(["replace storefront:shop/shop-webapp-auth"]);
    const diff = await project.pulumi(["preview", "--refresh", "--diff"]);
    expect(diff.stdout).not.toContain(PASSWORD);
  });

  it("fails the next pulumi up on the random Secret, as chartroom's diff says: the replacement is created first and the original's manager owns the field", async () => {
    const lock = JSON.parse(await readFile(join(project.dir, "charts.lock.json"), "utf8")) as { charts: Record<string, { version: string }> };
    const diff = await project.chartroom(["diff", "storefront", "--to", lock.charts.storefront?.version ?? "", "--stack", "dev", "--format", "json"]);
    expect((JSON.parse(diff.stdout) as DiffReport).charts[0]?.unstable.consequence).toBe(
      "helm.v4.Chart fails every `pulumi up` after the first on Secret shop/shop-webapp-auth: each run replaces it, creating the replacement first, and the changed fields belong to the original's field manager",
    );
    const again = await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(again.code).not.toBe(0);
    const said = `${again.stdout}${again.stderr}`;
    expect(said).toContain("kubernetes:core/v1:Secret storefront:shop/shop-webapp-auth creating replacement");
    expect(said).toMatch(/Apply failed with 1 conflict: conflict with "pulumi-kubernetes-[0-9a-f]{8}": \.data\.password/);
    expect(said).not.toContain("deleting original");
  });

  it("rolls the release back with helm rollback", async () => {
    const rollback = await helm(cluster, ["rollback", "ledger", "1", "-n", "ledger", "--wait", "--timeout", "5m"]);
    expect(rollback.stdout + rollback.stderr).toContain("Rollback was a success");
    const history = JSON.parse((await helm(cluster, ["history", "ledger", "-n", "ledger", "-o", "json"])).stdout) as {
      revision: number;
      status: string;
      description: string;
    }[];
    expect(history.map((entry) => [entry.revision, entry.status, entry.description])).toStrictEqual([
      [1, "superseded", "Install complete"],
      [2, "deployed", "Rollback to 1"],
    ]);
  });

  it("destroys everything with pulumi destroy but the CRD, which chartroom retains", async () => {
    const destroy = await project.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    expect(await live(cluster, { kind: "CustomResourceDefinition", group: "apiextensions.k8s.io", name: "widgets.example.com" })).toBeDefined();
    expect((await helm(cluster, ["list", "-A", "-o", "json"])).stdout.trim()).toBe("[]");
    for (const [kind, group, namespace, name] of [
      ["Deployment", "apps", "web", "webapp"],
      ["Deployment", "apps", "ledger", "ledger"],
      ["ClusterRole", "rbac.authorization.k8s.io", undefined, "widgets-operator"],
    ] as const) {
      expect(await live(cluster, { kind, group, namespace, name }), `${kind} ${name}`).toBeUndefined();
    }
  });
});
