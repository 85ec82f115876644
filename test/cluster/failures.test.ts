// What the project's users fear most, seen at a real API server: each
// failure made to happen, and the engine's exact words recorded. They are
// what the live review must predict before anyone runs `pulumi up`.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Cluster } from "../helpers/cluster.js";
import { ENGINE_TEST_MS, ExampleProject, type Outcome } from "../helpers/engine.js";
import { deployedExample } from "../helpers/live.js";

const PASSWORD = "planted-failure-secret-6121";
const DEPLOYMENT = (chart: string, where: string) =>
  `urn:pulumi:dev::platform::chartroom:index:ChartDeployment$kubernetes:helm.sh/v4:Chart$kubernetes:apps/v1:Deployment::${chart}:${where}`;

/** A program of one resource, by the stack's `scenario` setting: what no chart of the example does. */
const PROGRAM = `import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";

const settings = new pulumi.Config();
const provider = new k8s.Provider("cluster", { kubeconfig: settings.requireSecret("kubeconfig") });
const scenario = settings.require("scenario");
if (scenario === "custom-resource") {
  new k8s.apiextensions.CustomResource("gizmo", { apiVersion: "gizmos.example.test/v1", kind: "Gizmo", metadata: { name: "first", namespace: "default" } }, { provider });
}
if (scenario === "configmap") {
  new k8s.core.v1.ConfigMap("settings", { metadata: { name: "settings", namespace: "default" }, data: { mode: "live" } }, { provider });
}
`;

/** The engine's error, without the lines that change from run to run. */
function diagnostics(outcome: Outcome): string {
  return `${outcome.stdout}\n${outcome.stderr}`;
}

describe("the failures users fear, at a real API server", () => {
  let cluster: Cluster;
  let project: ExampleProject;
  let single: ExampleProject;

  beforeAll(async () => {
    ({ cluster, project } = await deployedExample("chartroom-failures-", PASSWORD));
    single = await ExampleProject.create("chartroom-single-");
    await writeFile(join(single.dir, "pulumi", "index.ts"), PROGRAM);
  }, ENGINE_TEST_MS);

  afterAll(async () => {
    await project?.remove();
    await single?.remove();
    await cluster?.stop();
  });

  it("fails the refreshed preview on a field another manager took with kubectl apply --server-side, naming it and the field", async () => {
    const hotfix = await cluster.kubectl(["apply", "--server-side", "--field-manager=hotfix", "-f", "-"], {
      input: JSON.stringify({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "webapp", namespace: "web" }, spec: { replicas: 4 } }),
    });
    // Without --force-conflicts kubectl itself refuses: the field is Pulumi's.
    expect(hotfix.stderr).toMatch(/Apply failed with 1 conflict: conflict with "pulumi-kubernetes-[0-9a-f]{8}": \.spec\.replicas/);
    const forced = await cluster.kubectl(["apply", "--server-side", "--field-manager=hotfix", "--force-conflicts", "-f", "-"], {
      input: JSON.stringify({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "webapp", namespace: "web" }, spec: { replicas: 4 } }),
    });
    expect(forced.stdout).toContain("serverside-applied");
    const preview = await project.pulumi(["preview", "--refresh", "--target", DEPLOYMENT("webapp", "web/webapp")]);
    expect(preview.code).not.toBe(0);
    expect(diagnostics(preview)).toContain(
      'the Kubernetes API server reported that "web/webapp" failed to fully initialize or become live: Server-Side Apply field conflict detected.',
    );
    expect(diagnostics(preview)).toMatch(
      /The resource managed by field manager "pulumi-kubernetes-[0-9a-f]{8}" had an apply conflict: Apply failed with 1 conflict: conflict with "hotfix": \.spec\.replicas/,
    );
  });

  it("fails the refreshed preview where an HPA owns spec.replicas of a Deployment the chart gives replicas", async () => {
    const autoscale = await cluster.kubectl(["autoscale", "deployment", "shop-webapp", "-n", "shop", "--min=3", "--max=5", "--cpu-percent=80"]);
    expect(autoscale.code, autoscale.stderr).toBe(0);
    // Below its minimum the HPA scales without metrics (kwok has none): it writes spec.replicas through the scale subresource.
    const scaled = await cluster.kubectl(["wait", "deployment/shop-webapp", "-n", "shop", "--for=jsonpath={.spec.replicas}=3", "--timeout=240s"]);
    expect(scaled.code, `${scaled.stderr}\n${await cluster.explain()}`).toBe(0);
    const preview = await project.pulumi(["preview", "--refresh", "--target", DEPLOYMENT("storefront", "shop/shop-webapp")]);
    expect(preview.code).not.toBe(0);
    expect(diagnostics(preview)).toMatch(
      /had an apply conflict: Apply failed with 1 conflict: conflict with "kube-controller-manager" with subresource "scale" using apps\/v1: \.spec\.replicas/,
    );
  });

  it("fails an up with a custom resource whose CRD the cluster does not serve", async () => {
    await single.initStack("dev", PASSWORD, cluster.kubeconfig());
    await single.pulumi(["config", "set", "scenario", "custom-resource"]);
    const up = await single.pulumi(["up", "--yes", "--skip-preview"]);
    expect(up.code).not.toBe(0);
    expect(diagnostics(up)).toContain('no matches for kind "Gizmo" in version "gizmos.example.test/v1"');
    await single.pulumi(["stack", "rm", "--yes", "--force"]);
  });

  it("fails an up as a deployer allowed everything on ConfigMaps but patch: server-side apply is a patch", async () => {
    await cluster.grant([{ apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list", "watch", "create", "update", "delete"] }]);
    await single.initStack("deployer", PASSWORD, cluster.kubeconfig("deployer"));
    await single.pulumi(["config", "set", "scenario", "configmap"]);
    const up = await single.pulumi(["up", "--yes", "--skip-preview"]);
    expect(up.code).not.toBe(0);
    expect(diagnostics(up)).toContain(
      'configmaps "settings" is forbidden: User "deployer" cannot patch resource "configmaps" in API group "" in the namespace "default"',
    );
    const patched = (await cluster.audit()).filter((event) => event.user.username === "deployer" && event.verb === "patch");
    expect(patched.map((event) => event.responseStatus?.code)).toContain(403);
  });
});
