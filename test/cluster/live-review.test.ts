// `chartroom diff --cluster`: the new side of a chart asked of the live
// cluster as the provider's preview asks it, before anything is applied. Each
// case is made to happen on the test cluster, and the engine's own preview is
// held to what chartroom said.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DiffReport, LiveSection } from "../../src/diff/model.js";
import type { AuditEvent, Cluster } from "../helpers/cluster.js";
import { ENGINE_TEST_MS, type ExampleProject, type Outcome } from "../helpers/engine.js";
import { packChart } from "../helpers/pack.js";
import { deployedExample, helm, live as liveObject } from "../helpers/live.js";

const PASSWORD = "planted-live-secret-3391";
const DEPLOYMENT = (chart: string, where: string) =>
  `urn:pulumi:dev::platform::chartroom:index:ChartDeployment$kubernetes:helm.sh/v4:Chart$kubernetes:apps/v1:Deployment::${chart}:${where}`;

/** A server-side apply that stores nothing. */
const isDryRun = (event: AuditEvent) => event.verb === "patch" && event.requestURI.includes("dryRun=All");
/** A question about the identity itself (SelfSubjectReview, SelfSubjectAccessReview): the server stores nothing of it. */
const isSelfReview = (event: AuditEvent) => event.verb === "create" && event.objectRef?.resource?.startsWith("selfsubject") === true;

describe("chartroom diff --cluster, against a real API server", () => {
  let cluster: Cluster;
  let project: ExampleProject;
  let pins: Record<string, { version: string }>;

  const review = async (chart: string, options: { to?: string; as?: "admin" | "deployer" } = {}): Promise<{ outcome: Outcome; live: LiveSection }> => {
    const to = options.to ?? pins[chart]?.version ?? "";
    const values = chart === "webapp" ? ["-f", "code-values.yaml"] : [];
    const args = [
      "diff",
      chart,
      "--to",
      to,
      "--stack",
      "dev",
      ...values,
      "--format",
      "json",
      "--cluster",
      "--kubeconfig",
      cluster.kubeconfigFile(options.as),
      "--detailed-exitcode",
    ];
    const outcome = await project.chartroom(args);
    if (outcome.code === 1) throw new Error(`chartroom ${args.join(" ")} failed:\n${outcome.stderr}`);
    const live = (JSON.parse(outcome.stdout) as DiffReport).charts[0]?.live;
    if (live === undefined) throw new Error(`no live section:\n${outcome.stdout.slice(0, 2000)}`);
    return { outcome, live };
  };

  /** The lines of the README's first code block after `marker`. */
  const readmeBlock = async (marker: string): Promise<string[]> => {
    const readme = await readFile(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    const shown = readme.slice(readme.indexOf(marker));
    expect(shown.length).toBeLessThan(readme.length);
    return shown.slice(shown.indexOf("```\n") + 4, shown.indexOf("\n```", shown.indexOf("```\n") + 4)).split("\n");
  };
  const withPort = (text: string) => text.replace(cluster.server.split(":").at(-1) ?? "", "<port>");

  /** Lets `upgrade` move the ledger to 0.2.0 (its range stops below it); returns what puts the config back. */
  const widenLedger = async (): Promise<() => Promise<void>> => {
    const file = join(project.dir, "chartroom.config.ts");
    const config = await readFile(file, "utf8");
    const widened = config.replace('ledger: { repository: "local", version: "^0.1.0"', 'ledger: { repository: "local", version: ">=0.1.0 <0.3.0"');
    expect(widened).not.toBe(config);
    await writeFile(file, widened);
    return () => writeFile(file, config);
  };

  beforeAll(async () => {
    ({ cluster, project } = await deployedExample("chartroom-live-review-", PASSWORD));
    pins = (JSON.parse(await readFile(join(project.dir, "charts.lock.json"), "utf8")) as { charts: Record<string, { version: string }> }).charts;
  }, ENGINE_TEST_MS);

  afterAll(async () => {
    await project?.remove();
    await cluster?.stop();
  });

  it("finds the deployed web app the same live, the random Secret an update, and writes nothing", async () => {
    const offlineArgs = ["diff", "webapp", "--to", pins.webapp?.version ?? "", "--stack", "dev", "-f", "code-values.yaml"];
    await project.chartroom(offlineArgs);
    // Both timed with the render cache warm: the live review renders the new side again (Secret values as they are) and asks the server.
    const offlineBegun = Date.now();
    const offline = await project.chartroom(offlineArgs);
    const offlineMs = Date.now() - offlineBegun;
    expect(offline.code, offline.stderr).toBe(0);
    const begun = Date.now();
    const { outcome, live } = await review("webapp");
    const liveMs = Date.now() - begun;
    expect(outcome.code).toBe(0);
    expect(live).toMatchObject({ server: cluster.server, context: "admin", counts: { same: 5 }, objects: [] });
    const storefront = await review("storefront");
    // The password changes at every render: the server would store another one, and the report names the path only.
    expect(storefront.live.objects).toStrictEqual([
      {
        id: "/Secret/shop/shop-webapp-auth",
        display: "Secret shop/shop-webapp-auth",
        outcome: "update",
        manager: expect.stringMatching(/^pulumi-kubernetes-/),
        fields: [".data.password"],
      },
    ]);
    expect(storefront.outcome.stdout).not.toMatch(/"password":\s*"/);
    const writes = (await cluster.audit()).filter(
      (event) => event.userAgent === "chartroom-live-review" && !(["get", "list"].includes(event.verb) || isDryRun(event) || isSelfReview(event)),
    );
    expect(writes).toStrictEqual([]);
    const asked = (await cluster.audit()).filter((event) => event.userAgent === "chartroom-live-review" && event.stage === "ResponseComplete");
    expect(asked.length).toBeGreaterThan(0);
    process.stdout.write(`[live review] webapp: offline diff ${offlineMs} ms, with --cluster ${liveMs} ms; ${asked.length} requests for two charts\n`);
  });

  it("reviews a helm.v3.Release from the release Helm stored: per object, its status, and the hooks the upgrade runs, as helm upgrade lists them", async () => {
    const { outcome, live } = await review("ledger", { to: "0.2.0" });
    expect(outcome.code).toBe(2);
    expect(live.release).toStrictEqual({ name: "ledger", namespace: "ledger", revision: 1, status: "deployed", chart: `ledger-${pins.ledger?.version}` });
    expect(live.counts).toStrictEqual({ update: 1, same: 1 });
    expect(live.objects).toStrictEqual([
      {
        id: "apps/Deployment/ledger/ledger",
        display: "Deployment.apps ledger/ledger",
        outcome: "update",
        manager: "helm",
        fields: ['.spec.template.spec.containers[{"name":"ledger"}].image'],
      },
    ]);
    expect(live.hooks).toStrictEqual([
      {
        id: "batch/Job/ledger/ledger-migrate",
        display: "Job.batch ledger/ledger-migrate",
        events: ["pre-upgrade"],
        weight: -5,
        deletePolicies: ["before-hook-creation", "hook-succeeded"],
      },
    ]);
    const text = await project.chartroom(["diff", "ledger", "--to", "0.2.0", "--stack", "dev", "--cluster", "--kubeconfig", cluster.kubeconfigFile()]);
    for (const line of await readmeBlock("lists\nthe same hooks):")) expect(withPort(text.stdout)).toContain(line);
    // Helm's own server dry run of the same upgrade lists the same hooks (and the test hook, which only `helm test` runs).
    const dry = await helm(cluster, ["upgrade", "ledger", join(project.dir, "charts", "ledger-0.2.0.tgz"), "-n", "ledger", "--dry-run=server"]);
    expect(dry.code, dry.stderr).toBe(0);
    const hooks = dry.stdout.slice(dry.stdout.indexOf("HOOKS:"), dry.stdout.indexOf("MANIFEST:"));
    const named = [...hooks.matchAll(/^kind: (\w+)\nmetadata:\n {2}name: ([\w-]+)\n {2}annotations:\n {4}"helm\.sh\/hook": ([\w,-]+)/gm)];
    expect(named.map((match) => `${match[1]} ${match[2]} ${match[3]}`)).toStrictEqual([
      "Pod ledger-test-connection test",
      "Job ledger-migrate pre-install,pre-upgrade",
    ]);
  });

  it("says a Release whose newest revision is pending is blocked, as helm upgrade then refuses it", async () => {
    const stored = await cluster.kubectl(["get", "secret", "sh.helm.release.v1.ledger.v1", "-n", "ledger", "-o", "json"]);
    expect(stored.code, stored.stderr).toBe(0);
    const secret = JSON.parse(stored.stdout) as { data: { release: string } };
    const record = JSON.parse(gunzipSync(Buffer.from(Buffer.from(secret.data.release, "base64").toString(), "base64")).toString()) as {
      version: number;
      info: { status: string };
    };
    record.version = 2;
    record.info.status = "pending-upgrade";
    const pending = {
      apiVersion: "v1",
      kind: "Secret",
      type: "helm.sh/release.v1",
      metadata: {
        name: "sh.helm.release.v1.ledger.v2",
        namespace: "ledger",
        labels: { owner: "helm", name: "ledger", status: "pending-upgrade", version: "2" },
      },
      data: { release: Buffer.from(gzipSync(JSON.stringify(record)).toString("base64")).toString("base64") },
    };
    const created = await cluster.kubectl(["create", "-f", "-"], { input: JSON.stringify(pending) });
    expect(created.code, created.stderr).toBe(0);
    try {
      const { outcome, live } = await review("ledger");
      expect(outcome.code).toBe(2);
      expect(live.release).toMatchObject({ revision: 2, status: "pending-upgrade", comparedWith: 1 });
      expect(live.objects).toContainEqual(
        expect.objectContaining({ outcome: "blocked", display: "release ledger/ledger", fix: expect.stringContaining("helm rollback ledger -n ledger") }),
      );
      const refusedByHelm = await helm(cluster, ["upgrade", "ledger", join(project.dir, "charts", "ledger-0.2.0.tgz"), "-n", "ledger", "--dry-run=server"]);
      expect(refusedByHelm.code).not.toBe(0);
      expect(refusedByHelm.stderr).toContain("another operation (install/upgrade/rollback) is in progress");
      // upgrade --cluster does not pin a version the deploy would stop on: the lock stays byte for byte.
      const lock = await readFile(join(project.dir, "charts.lock.json"), "utf8");
      const restore = await widenLedger();
      try {
        const upgrade = await project.chartroom(["upgrade", "ledger", "--stack", "dev", "--cluster", "--kubeconfig", cluster.kubeconfigFile()]);
        expect(upgrade.code, `${upgrade.stdout}${upgrade.stderr}`).toBe(2);
        expect(upgrade.stdout).toContain("not written: the live review found what the deploy would stop on in ledger [dev]");
        expect(await readFile(join(project.dir, "charts.lock.json"), "utf8")).toBe(lock);
      } finally {
        await restore();
      }
    } finally {
      await cluster.kubectl(["delete", "secret", "sh.helm.release.v1.ledger.v2", "-n", "ledger"]);
    }
  });

  it("shows drift apart: a label removed out of band, which pulumi preview --refresh and helm upgrade put back", async () => {
    for (const [name, namespace, label] of [
      ["webapp", "web", "app.kubernetes.io/version"],
      ["ledger", "ledger", "app.kubernetes.io/name"],
    ] as const) {
      const removed = await cluster.kubectl(["label", "deployment", name, "-n", namespace, `${label}-`]);
      expect(removed.code, removed.stderr).toBe(0);
    }
    // A label added out of band is another manager's field: no apply removes it, so it is no drift.
    expect((await cluster.kubectl(["label", "deployment", "webapp", "-n", "web", "example.test/edited=yes"])).code).toBe(0);
    const web = await review("webapp");
    expect(web.outcome.code).toBe(2);
    expect(web.live.objects).toStrictEqual([
      {
        id: "apps/Deployment/web/webapp",
        display: "Deployment.apps web/webapp",
        outcome: "drift",
        manager: expect.stringMatching(/^pulumi-kubernetes-/),
        fields: [],
        drift: [".metadata.labels.app.kubernetes.io/version"],
      },
    ]);
    // The same drift under a version bump that changes other labels: those are the change, this one stays drift.
    const ledger = await review("ledger", { to: "0.2.0" });
    expect(ledger.live.objects.find((object) => object.display === "Deployment.apps ledger/ledger")).toMatchObject({
      outcome: "update",
      fields: ['.spec.template.spec.containers[{"name":"ledger"}].image'],
      drift: [".metadata.labels.app.kubernetes.io/name"],
    });
    const preview = await project.pulumi(["preview", "--refresh", "--diff", "--target", DEPLOYMENT("webapp", "web/webapp")]);
    expect(preview.code, preview.stderr).toBe(0);
    // The labels block holds that one label: the one added out of band is left alone, as chartroom said.
    expect(preview.stdout).toMatch(/~ labels: \{\n\s+\+ app\.kubernetes\.io\/version: "[^"]+"\n\s+\}/);
    const upgraded = await helm(cluster, [
      "upgrade",
      "ledger",
      join(project.dir, "charts", `ledger-${pins.ledger?.version}.tgz`),
      "-n",
      "ledger",
      "--reuse-values",
    ]);
    expect(upgraded.code, upgraded.stderr).toBe(0);
    expect((await liveObject(cluster, { kind: "Deployment", group: "apps", namespace: "ledger", name: "ledger" }))?.metadata.labels).toMatchObject({
      "app.kubernetes.io/name": "ledger",
    });
    expect((await review("ledger")).live).toMatchObject({ counts: { same: 2 }, objects: [], release: { revision: 2, status: "deployed" } });
  });

  it("says what each engine waits for, where the wait proves little, and a pod already stuck where it would wait", async () => {
    const listed = await cluster.kubectl(["get", "pods", "-n", "ledger", "-l", "app.kubernetes.io/name=ledger", "-o", "json"]);
    const pod = (JSON.parse(listed.stdout) as { items: { metadata: { name: string } }[] }).items[0]?.metadata.name ?? "?";
    const waiting = { reason: "ImagePullBackOff", message: 'Back-off pulling image "registry.example.test/ledger:3.2.0"' };
    const status = {
      containerStatuses: [{ name: "ledger", image: "registry.example.test/ledger:3.2.0", imageID: "", ready: false, restartCount: 0, state: { waiting } }],
    };
    const stuck = await cluster.kubectl(["patch", "pod", pod, "-n", "ledger", "--subresource=status", "--type=merge", "-p", JSON.stringify({ status })]);
    expect(stuck.code, stuck.stderr).toBe(0);
    const { outcome, live } = await review("ledger");
    expect(outcome.code).toBe(2);
    expect(live.awaits).toStrictEqual([
      {
        id: "apps/Deployment/ledger/ledger",
        display: "Deployment.apps ledger/ledger",
        on: "its new ReplicaSet's ready pods (replicas less maxUnavailable)",
        note: "no readinessProbe on ledger: ready as soon as started, so the wait proves little",
        failing: [`${pod} ledger: ImagePullBackOff: ${waiting.message}`],
      },
      { id: "batch/Job/ledger/ledger-migrate", display: "Job.batch ledger/ledger-migrate", on: "Complete (waitForJobs), as a hook before the release goes on" },
      { id: "/Service/ledger/ledger", display: "Service ledger/ledger", on: "a cluster IP" },
    ]);
    // Under helm.v4.Chart the provider's awaiters: a Service waits for endpoints.
    const web = await review("webapp");
    expect(web.live.awaits?.find((awaited) => awaited.display === "Service web/webapp")?.on).toBe("endpoints for its selector");
    expect(web.live.awaits?.find((awaited) => awaited.display === "Deployment.apps web/webapp")?.on).toContain("NewReplicaSetAvailable");
  });

  it("names an immutable field the new version changes, before helm.v4.Chart's replacement fails on it", async () => {
    const { outcome, live } = await review("webapp", { to: "2.0.0" });
    expect(outcome.code).toBe(2);
    const deployment = live.objects.find((object) => object.display === "Deployment.apps web/webapp");
    expect(deployment).toMatchObject({ outcome: "immutable", fields: ["spec.selector"] });
    expect(deployment?.message).toContain("field is immutable");
  });

  it("names the manager that took a field with kubectl apply --server-side, with its fix, as the engine's preview then fails", async () => {
    const forced = await cluster.kubectl(["apply", "--server-side", "--field-manager=hotfix", "--force-conflicts", "-f", "-"], {
      input: JSON.stringify({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "webapp", namespace: "web" }, spec: { replicas: 4 } }),
    });
    expect(forced.code, forced.stderr).toBe(0);
    const { outcome, live } = await review("webapp");
    expect(outcome.code).toBe(2);
    expect(live.objects.find((object) => object.display === "Deployment.apps web/webapp")).toMatchObject({
      outcome: "conflict",
      conflicts: [{ manager: "hotfix", field: ".spec.replicas", owner: "other", fix: expect.stringContaining("pulumi.com/patchForce") }],
    });
    const text = await project.chartroom([
      "diff",
      "webapp",
      "--to",
      pins.webapp?.version ?? "",
      "--stack",
      "dev",
      "-f",
      "code-values.yaml",
      "--cluster",
      "--kubeconfig",
      cluster.kubeconfigFile(),
    ]);
    expect(text.stdout).toContain('.spec.replicas is owned by "hotfix"');
    // The README shows this very output.
    for (const line of await readmeBlock("then fails on the same field, which the test checks):")) expect(withPort(text.stdout)).toContain(line);
    const preview = await project.pulumi(["preview", "--refresh", "--target", DEPLOYMENT("webapp", "web/webapp")]);
    expect(preview.code).not.toBe(0);
    expect(`${preview.stdout}${preview.stderr}`).toMatch(/conflict with "hotfix": \.spec\.replicas/);
  });

  it("names an autoscaler that owns spec.replicas through the scale subresource, with its fix", async () => {
    expect((await cluster.kubectl(["autoscale", "deployment", "shop-webapp", "-n", "shop", "--min=3", "--max=5", "--cpu-percent=80"])).code).toBe(0);
    const scaled = await cluster.kubectl(["wait", "deployment/shop-webapp", "-n", "shop", "--for=jsonpath={.spec.replicas}=3", "--timeout=240s"]);
    expect(scaled.code, scaled.stderr).toBe(0);
    const { live } = await review("storefront");
    expect(live.objects.find((object) => object.display === "Deployment.apps shop/shop-webapp")).toMatchObject({
      outcome: "conflict",
      conflicts: [
        {
          manager: "kube-controller-manager",
          subresource: "scale",
          field: ".spec.replicas",
          owner: "autoscaler",
          fix: expect.stringContaining("stop declaring them"),
        },
      ],
    });
    const preview = await project.pulumi(["preview", "--refresh", "--target", DEPLOYMENT("storefront", "shop/shop-webapp")]);
    expect(`${preview.stdout}${preview.stderr}`).toMatch(/conflict with "kube-controller-manager" with subresource "scale" using apps\/v1: \.spec\.replicas/);
  });

  it("names a field changed by kubectl and one a webhook-style manager took, each with its fix, as the engine's preview fails on both", async () => {
    const set = await cluster.kubectl([
      "set",
      "image",
      "deployment/widgets-operator",
      "operator=registry.example.test/widgets-operator:patched",
      "-n",
      "widgets",
    ]);
    expect(set.code, set.stderr).toBe(0);
    const injected = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "widgets-operator", namespace: "widgets" },
      spec: { template: { spec: { serviceAccountName: "default" } } },
    };
    const applied = await cluster.kubectl(["apply", "--server-side", "--field-manager=istio-sidecar-injector", "--force-conflicts", "-f", "-"], {
      input: JSON.stringify(injected),
    });
    expect(applied.code, applied.stderr).toBe(0);
    const { outcome, live } = await review("widgets-operator");
    expect(outcome.code).toBe(2);
    const conflicts = live.objects.find((object) => object.display === "Deployment.apps widgets/widgets-operator")?.conflicts ?? [];
    expect(conflicts.map((conflict) => `${conflict.manager} ${conflict.owner} ${conflict.field}`).sort()).toStrictEqual([
      "istio-sidecar-injector webhook .spec.template.spec.serviceAccountName",
      'kubectl-set kubectl .spec.template.spec.containers[name="operator"].image',
    ]);
    expect(conflicts.find((conflict) => conflict.owner === "webhook")?.fix).toContain("leave the field unset");
    expect(conflicts.find((conflict) => conflict.owner === "kubectl")?.fix).toContain("pulumi.com/patchForce");
    const preview = await project.pulumi(["preview", "--refresh", "--target", DEPLOYMENT("widgets-operator", "widgets/widgets-operator")]);
    expect(preview.code).not.toBe(0);
    const said = `${preview.stdout}${preview.stderr}`;
    expect(said).toMatch(/conflicts with "istio-sidecar-injector":\n\s*- \.spec\.template\.spec\.serviceAccountName/);
    expect(said).toMatch(/conflicts with "kubectl-set" using apps\/v1:\n\s*- \.spec\.template\.spec\.containers\[name="operator"\]\.image/);
  });

  it("names the verb a restricted identity lacks, as the API server words it", async () => {
    await cluster.grant([{ apiGroups: ["", "apps", "networking.k8s.io"], resources: ["*"], verbs: ["get", "list", "watch"] }]);
    const { outcome, live } = await review("widgets-operator", { as: "deployer" });
    expect(outcome.code).toBe(2);
    const deployment = live.objects.find((object) => object.display === "Deployment.apps widgets/widgets-operator");
    expect(deployment).toMatchObject({ outcome: "forbidden" });
    expect(deployment?.message).toBe(
      'deployments.apps "widgets-operator" is forbidden: User "deployer" cannot patch resource "deployments" in API group "apps" in the namespace "widgets"',
    );
    // The chart's rights as a whole, asked of the server: patch among them, in its words.
    expect(live.missingRights).toContain('User "deployer" cannot patch resource "deployments" in API group "apps" in the namespace "widgets"');
    // Not granted at all: the GET is refused.
    expect(live.objects.find((object) => object.display === "ClusterRole.rbac.authorization.k8s.io widgets-operator")?.message).toContain(
      'cannot get resource "clusterroles"',
    );
  });

  it("refuses --cluster without a kubeconfig named, and a kubeconfig that runs a program", async () => {
    const unnamed = await project.chartroom(["diff", "webapp", "--to", "1.0.1", "--cluster"]);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain("error USAGE: --cluster needs the cluster named: --kubeconfig <file> [--context <name>]");
    const exec = join(project.dir, "exec.kubeconfig");
    await writeFile(
      exec,
      "apiVersion: v1\nkind: Config\ncurrent-context: c\ncontexts: [{name: c, context: {cluster: k, user: u}}]\nclusters: [{name: k, cluster: {server: https://127.0.0.1:1}}]\nusers: [{name: u, user: {exec: {command: touch, args: [/tmp/chartroom-exec-ran]}}}]\n",
    );
    const refused = await project.chartroom(["diff", "webapp", "--to", "1.0.1", "--cluster", "--kubeconfig", exec]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error CLUSTER_CONFIG_INVALID: context "c" authenticates with an exec plugin, which chartroom does not run');
  });

  it("takes the cluster a stack names in the config, for diff, upgrade and plan", async () => {
    const file = join(project.dir, "chartroom.config.ts");
    const config = await readFile(file, "utf8");
    await writeFile(
      file,
      config.replace('dev: { kubeVersion: "1.31.0" }', `dev: { kubeVersion: "1.31.0", cluster: { kubeconfig: ${JSON.stringify(cluster.kubeconfigFile())} } }`),
    );
    try {
      const diff = await project.chartroom(["diff", "ledger", "--to", "0.2.0", "--stack", "dev", "--cluster", "--format", "json", "--detailed-exitcode"]);
      expect(diff.code, diff.stderr).toBe(2);
      expect((JSON.parse(diff.stdout) as DiffReport).charts[0]?.live).toMatchObject({ server: cluster.server, release: { name: "ledger" } });
      const plan = await project.chartroom(["plan", "ledger", "--cluster"]);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toMatch(/ {4}dev: .*; live: 1 update/);
      expect(plan.stdout).not.toMatch(/ {4}prod: .*; live:/);
      const restore = await widenLedger();
      const upgrade = await project.chartroom(["upgrade", "ledger", "--stack", "dev", "--cluster", "--dry-run", "--detailed-exitcode"]);
      await restore();
      expect(upgrade.code, upgrade.stderr).toBe(2);
      expect(upgrade.stdout).toContain(`live: ${cluster.server} (context admin)`);
      // Without a stack that names one, --cluster still needs the file.
      const both = await project.chartroom(["diff", "ledger", "--to", "0.2.0", "--cluster"]);
      expect(both.stderr).toContain("(more than one stack is asked about)");
    } finally {
      await writeFile(file, config);
    }
  });

  it("says a namespace that does not exist yet is created first, and a kind the cluster no longer serves fails", async () => {
    const file = join(project.dir, "chartroom.config.ts");
    const config = await readFile(file, "utf8");
    await writeFile(file, config.replace('namespace: "web" }', 'namespace: "web-next" }'));
    try {
      const { live } = await review("webapp");
      expect(live.counts).toStrictEqual({ create: 5 });
      expect(live.objects.find((object) => object.display === "Deployment.apps web-next/webapp")?.fix).toBe(
        "its namespace web-next does not exist yet: deployCharts creates it first",
      );
    } finally {
      await writeFile(file, config);
    }
    // A CRD gone from the cluster: the chart that ships it creates it first, then its custom resources.
    const deleted = await cluster.kubectl(["delete", "crd", "widgets.example.com", "--timeout=120s"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    const operator = await review("widgets-operator");
    expect(operator.live.objects.find((object) => object.id.startsWith("example.com/Widget/"))).toMatchObject({
      outcome: "create",
      fix: "its CRD is in the same chart: it is created first",
    });
    // A chart whose custom resource no chart of the stack gives a CRD for.
    const gizmo = "apiVersion: gizmos.example.test/v1\nkind: Gizmo\nmetadata:\n  name: first\n";
    const files = new Map([
      ["Chart.yaml", Buffer.from("apiVersion: v2\nname: gizmos\nversion: 1.0.0\n")],
      ["templates/gizmo.yaml", Buffer.from(gizmo)],
    ]);
    await writeFile(join(project.dir, "charts", "gizmos-1.0.0.tgz"), await packChart("gizmos", files, new Date(0)));
    const indexed = await helm(cluster, ["repo", "index", join(project.dir, "charts")]);
    expect(indexed.code, indexed.stderr).toBe(0);
    await writeFile(file, config.replace("  charts: {\n", '  charts: {\n    gizmos: { repository: "local", version: "1.0.0", namespace: "default" },\n'));
    try {
      const locked = await project.chartroom(["lock"]);
      expect(locked.code, locked.stderr).toBe(0);
      const { outcome, live } = await review("gizmos", { to: "1.0.0" });
      expect(outcome.code).toBe(2);
      expect(live.objects).toStrictEqual([
        {
          id: "gizmos.example.test/Gizmo/default/first",
          display: "Gizmo.gizmos.example.test default/first",
          outcome: "unknown-kind",
          message: 'no matches for kind "Gizmo" in version "gizmos.example.test/v1"',
          fix: "the cluster does not serve this kind: install its CRD first (dependsOn the chart that ships it), or the apiVersion was removed",
        },
      ]);
    } finally {
      await writeFile(file, config);
    }
  });

  it("names what a new version stops rendering that is still in the cluster, and an immutable ConfigMap it changes, under both engines", async () => {
    // ConfigMap a is immutable and its data changes; b is dropped; c and d change their data (three ConfigMaps: read with one LIST).
    // c also drops one of its labels: both engines remove it (Helm by its three-way merge).
    const configMap = (suffix: string, value: string) => {
      const labels = suffix === "c" ? `\n  labels:\n    keep: "yes"${value === "v" ? '\n    tier: "old"' : ""}` : "";
      return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-${suffix}${labels}\nimmutable: ${suffix === "a"}\ndata:\n  k: ${value}\n`;
    };
    for (const [version, templates, value] of [
      ["1.0.0", ["a", "b", "c", "d"], "v"],
      ["1.1.0", ["a", "c", "d"], "w"],
    ] as const) {
      const files = new Map([["Chart.yaml", Buffer.from(`apiVersion: v2\nname: gadgets\nversion: ${version}\n`)]]);
      for (const suffix of templates) files.set(`templates/${suffix}.yaml`, Buffer.from(configMap(suffix, value)));
      await writeFile(join(project.dir, "charts", `gadgets-${version}.tgz`), await packChart("gadgets", files, new Date(0)));
    }
    expect((await helm(cluster, ["repo", "index", join(project.dir, "charts")])).code).toBe(0);
    const file = join(project.dir, "chartroom.config.ts");
    const config = await readFile(file, "utf8");
    const declared = [
      'gadgets: { repository: "local", version: "1.0.0", namespace: "default" },',
      '"gadgets-helm": { repository: "local", chart: "gadgets", version: "1.0.0", namespace: "default", engine: "release" },',
    ];
    await writeFile(file, config.replace("  charts: {\n", `  charts: {\n    ${declared.join("\n    ")}\n`));
    try {
      expect((await project.chartroom(["lock"])).code).toBe(0);
      // Deployed as each engine deploys: server-side applied by a provider-named manager, and installed by Helm.
      const manifest = await project.chartroom(["render", "gadgets", "--stack", "dev"]);
      const applied = await cluster.kubectl(["apply", "--server-side", "--field-manager=pulumi-kubernetes-0badc0de", "-n", "default", "-f", "-"], {
        input: manifest.stdout,
      });
      expect(applied.code, applied.stderr).toBe(0);
      const installed = await helm(cluster, ["install", "gadgets-helm", join(project.dir, "charts", "gadgets-1.0.0.tgz"), "-n", "default"]);
      expect(installed.code, installed.stderr).toBe(0);
      for (const [chart, name] of [
        ["gadgets", "gadgets-b"],
        ["gadgets-helm", "gadgets-helm-b"],
      ] as const) {
        const { outcome, live } = await review(chart, { to: "1.1.0" });
        expect(outcome.code).toBe(2);
        expect(live.objects.find((object) => object.outcome === "delete")).toStrictEqual({
          id: `/ConfigMap/default/${name}`,
          display: `ConfigMap default/${name}`,
          outcome: "delete",
        });
        expect(live.objects.find((object) => object.display === `ConfigMap default/${chart}-a`)).toMatchObject({ outcome: "immutable", fields: ["data"] });
        expect(live.objects.find((object) => object.display === `ConfigMap default/${chart}-c`)?.fields?.sort()).toStrictEqual([
          ".data.k",
          ".metadata.labels.tier",
        ]);
      }
      // Three ConfigMaps of a namespace are read with one LIST, not a GET each.
      const reads = (await cluster.audit()).filter(
        (event) => event.userAgent === "chartroom-live-review" && event.stage === "ResponseComplete" && event.objectRef?.resource === "configmaps",
      );
      expect(reads.filter((event) => event.verb === "list" && event.objectRef?.namespace === "default").length).toBeGreaterThanOrEqual(2);
      expect(reads.filter((event) => event.verb === "get" && event.objectRef?.name === "gadgets-c")).toStrictEqual([]);
      // Helm's server dry run sends no patch, so the upgrade itself is held to it: it fails on the same field.
      const upgraded = await helm(cluster, ["upgrade", "gadgets-helm", join(project.dir, "charts", "gadgets-1.1.0.tgz"), "-n", "default"]);
      expect(upgraded.code).not.toBe(0);
      expect(upgraded.stderr).toMatch(/gadgets-helm-a.*field is immutable when `immutable` is set/s);
    } finally {
      await writeFile(file, config);
    }
  });

  it("wrote nothing over the whole file: every request chartroom sent was a read or a dry run", async () => {
    const mine = (await cluster.audit()).filter((event) => event.userAgent === "chartroom-live-review");
    expect(mine.length).toBeGreaterThan(100);
    const writes = mine.filter((event) => !(["get", "list"].includes(event.verb) || isDryRun(event) || isSelfReview(event)));
    expect(writes).toStrictEqual([]);
  });
});
