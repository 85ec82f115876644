// `chartroom check --cluster`: whether the deploying identity may do what the
// stack's deploy does, asked of a real API server, and the least-privilege
// Role it prints — applied, then enough for a real `pulumi up` by that
// identity from nothing, and no more than chartroom said.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAll } from "js-yaml";
import type { CheckReport } from "../../src/report/check.js";
import { type Cluster, startCluster } from "../helpers/cluster.js";
import { ENGINE_TEST_MS, ExampleProject } from "../helpers/engine.js";
import { mustPass } from "../helpers/live.js";

const PASSWORD = "planted-rights-secret-5120";

describe("chartroom check --cluster: the deployer's rights, and the Role that grants them", () => {
  let cluster: Cluster;
  let project: ExampleProject;

  const check = async (format: "json" | "yaml" | "text") => {
    const outcome = await project.chartroom(["check", "--stack", "dev", "--cluster", "--kubeconfig", cluster.kubeconfigFile("deployer"), "--format", format]);
    if (outcome.code === 1) throw new Error(`chartroom check --cluster failed:\n${outcome.stderr}`);
    return outcome;
  };
  const rightsOf = async () => {
    const outcome = await check("json");
    const rights = (JSON.parse(outcome.stdout) as CheckReport).rights;
    if (rights === undefined) throw new Error(`no rights section:\n${outcome.stdout.slice(0, 2000)}`);
    return { outcome, rights };
  };

  beforeAll(async () => {
    cluster = await startCluster();
    project = await ExampleProject.create("chartroom-rights-");
    await project.initStack("dev", PASSWORD, cluster.kubeconfig("deployer"));
    await project.writeCodeValues(PASSWORD);
  }, ENGINE_TEST_MS);

  afterAll(async () => {
    await project?.remove();
    await cluster?.stop();
  });

  it("names each verb a restricted deployer lacks as the API server words it, patch and watch pods among them", async () => {
    const role = loadAll((await check("yaml")).stdout) as {
      kind: string;
      metadata: { namespace?: string };
      rules?: { resources: string[]; verbs: string[] }[];
    }[];
    // Everything the Role asks for but `patch` on Deployments and `watch` on pods.
    for (const document of role) {
      for (const rule of document.rules ?? []) {
        if (rule.resources.includes("deployments")) rule.verbs = rule.verbs.filter((verb) => verb !== "patch");
        if (rule.resources.includes("pods")) rule.verbs = rule.verbs.filter((verb) => verb !== "watch");
      }
    }
    const applied = await cluster.kubectl(["apply", "-f", "-"], { input: role.map((document) => JSON.stringify(document)).join("\n") });
    expect(applied.code, applied.stderr).toBe(0);
    const { outcome, rights } = await rightsOf();
    expect(outcome.code).toBe(2);
    expect(rights.user).toBe("deployer");
    const missing = rights.missing.map((item) => `${item.verb} ${item.resource} ${item.namespace}`).sort();
    expect(missing).toStrictEqual([
      "patch deployments ledger",
      "patch deployments shop",
      "patch deployments web",
      "patch deployments widgets",
      "watch pods ledger",
      "watch pods shop",
      "watch pods web",
      "watch pods widgets",
    ]);
    // The API server refuses the same verbs with the same words.
    const deployment = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "webapp", namespace: "web" } };
    const patch = await cluster.kubectl(["apply", "--server-side", "--dry-run=server", "-f", "-"], { as: "deployer", input: JSON.stringify(deployment) });
    expect(patch.stderr).toContain(rights.missing.find((item) => item.verb === "patch" && item.namespace === "web")?.message ?? "?");
    const watch = await cluster.kubectl(["get", "--raw", "/api/v1/namespaces/web/pods?watch=true&timeoutSeconds=1"], { as: "deployer" });
    expect(watch.stderr).toContain(rights.missing.find((item) => item.verb === "watch" && item.namespace === "web")?.message ?? "?");
  });

  it("prints a Role that, applied, lets the deployer run `pulumi up` from nothing, and no write it makes was unforeseen", async () => {
    const yaml = (await check("yaml")).stdout;
    expect(yaml.split("\n")[0]).toContain("What deploying stack dev needs at");
    const applied = await cluster.kubectl(["apply", "-f", "-"], { input: yaml });
    expect(applied.code, applied.stderr).toBe(0);
    const { outcome, rights } = await rightsOf();
    expect(outcome.code, outcome.stdout.slice(0, 3000)).toBe(0);
    expect(rights.missing).toStrictEqual([]);
    const text = await check("text");
    expect(text.stdout).toMatch(/deploy rights of deployer at https:\/\/127\.0\.0\.1:\d+ \(context deployer\): \d+ needed, 0 missing/);
    await mustPass(project, ["up", "--yes", "--skip-preview"], cluster);
    // Every write the deploy made as the deployer is one chartroom listed.
    const granted = (event: { verb: string; objectRef?: { resource?: string; namespace?: string } }) => {
      // A Namespace's own events carry its name as their namespace.
      const namespace = event.objectRef?.resource === "namespaces" ? "" : (event.objectRef?.namespace ?? "");
      return rights.rights.some((right) => right.resource === event.objectRef?.resource && right.namespace === namespace && right.verbs.includes(event.verb));
    };
    const writes = (await cluster.audit()).filter(
      (event) =>
        event.user.username === "deployer" &&
        event.stage === "ResponseComplete" &&
        ["create", "patch", "update", "delete"].includes(event.verb) &&
        // chartroom's own questions (self-reviews, stored nowhere).
        event.objectRef?.resource?.startsWith("selfsubject") !== true,
    );
    expect(writes.length).toBeGreaterThan(10);
    expect(writes.filter((event) => !granted(event)).map((event) => `${event.verb} ${event.requestURI}`)).toStrictEqual([]);
    expect((loadAll(yaml) as { kind: string }[]).map((document) => document.kind).slice(0, 6)).toStrictEqual([
      "Namespace",
      "Namespace",
      "Namespace",
      "Namespace",
      "ClusterRole",
      "ClusterRoleBinding",
    ]);
  });
});
