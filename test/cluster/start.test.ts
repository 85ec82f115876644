// The test cluster itself: it starts, serves as each identity, schedules pods
// onto fake nodes that become Ready, and stops every part it started.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "../helpers/cluster.js";

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster();
}, 300_000);

afterAll(() => cluster?.stop());

describe("the test cluster", () => {
  it("serves kubectl as admin, with a stamped version", async () => {
    const version = await cluster.kubectl(["version", "-o", "json"]);
    expect(version.code).toBe(0);
    expect(JSON.parse(version.stdout).serverVersion.gitVersion).toBe("v1.34.4");
  });

  it("runs a Deployment's pods to Ready on a fake node, and completes a Job", async () => {
    const create = await cluster.kubectl(["create", "deployment", "web", "--image=registry.example.test/web:1", "--replicas=2"]);
    expect(create.stderr).toBe("");
    const rolled = await cluster.kubectl(["rollout", "status", "deployment/web", "--timeout=150s"]);
    expect(rolled.stdout, await cluster.explain()).toContain("successfully rolled out");
    const job = await cluster.kubectl(["create", "job", "once", "--image=registry.example.test/job:1"]);
    expect(job.code).toBe(0);
    const done = await cluster.kubectl(["wait", "--for=condition=complete", "job/once", "--timeout=150s"]);
    expect(done.stdout, await cluster.explain()).toContain("condition met");
  }, 400_000);

  it("refuses the deployer what it was not granted, names the verb, and allows what it was", async () => {
    const before = await cluster.kubectl(["get", "configmaps", "-n", "default"], { as: "deployer" });
    expect(before.code).not.toBe(0);
    expect(before.stderr).toContain('User "deployer" cannot list resource "configmaps"');
    await cluster.grant([{ apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list"] }]);
    const after = await cluster.kubectl(["get", "configmaps", "-n", "default"], { as: "deployer" });
    expect(after.code).toBe(0);
  });

  it("keeps an audit log with each request's verb, user and dry-run", async () => {
    await cluster.kubectl(["create", "configmap", "probe", "--from-literal=a=b", "--dry-run=server"]);
    const events = await cluster.audit();
    const dry = events.find((event) => event.verb === "create" && event.objectRef?.resource === "configmaps" && event.requestURI.includes("dryRun=All"));
    expect(dry?.user.username).toBe("admin");
    expect((await cluster.kubectl(["get", "configmap", "probe"])).code).not.toBe(0);
  });
});
