// The ownership, security, workload and engine rules at their edges, each
// rule run alone: the finding (rule, severity, object, path, words) for each
// broken case and none for the near misses, hooks and other kinds included.
import { describe, expect, it } from "vitest";
import { crdsInChart, hooksUnderChart } from "../../src/policy/rules/engine.js";
import { customResourceSchema, loadValidators, objectSchema } from "../../src/policy/rules/cluster.js";
import { clusterScopedNamespace, hpaAndReplicas, pdbBlocksEviction } from "../../src/policy/rules/ownership.js";
import { addedCapabilities, hostNamespaces, hostPath, privilegeEscalation, privileged, rbac, runAsRoot } from "../../src/policy/rules/security.js";
import { imageDigest, imageTag, memoryLimitWithoutRequest, readinessProbe, resourceRequests } from "../../src/policy/rules/workloads.js";
import { runPolicies } from "../../src/policy/run.js";
import { emptySettings } from "../../src/policy/settings.js";
import { findingsOf, policyChart } from "../helpers/policy.js";

const HOOK = "  annotations:\n    helm.sh/hook: pre-install\n";
const deployment = (name: string, spec: string, annotations = "") =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n${annotations}spec:\n${spec}`;
const pod = (containers: string, podSpec = "") => `  template:\n    spec:\n${podSpec}      containers:\n${containers}`;

describe("who owns a field", () => {
  const hpa = (target: string, hook = "") =>
    `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: ${target}-hpa\n${hook}spec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: ${target} }\n  minReplicas: 1\n  maxReplicas: 3\n`;

  it("warns on a workload an autoscaler scales that sets replicas, not one that leaves them, nor under a hook's autoscaler", () => {
    const yaml = [
      deployment("set", "  replicas: 2\n"),
      deployment("unset", "  selector: {}\n"),
      deployment("hooked", "  replicas: 2\n"),
      hpa("set"),
      hpa("unset"),
      hpa("missing"),
      hpa("hooked", HOOK),
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: set\n",
    ].join("---\n");
    expect(findingsOf([hpaAndReplicas], [policyChart("app", yaml)]).map((row) => row.slice(0, 4))).toStrictEqual([
      ["hpa-and-replicas", "warning", "Deployment.apps web/set", "spec.replicas"],
    ]);
  });

  it("errs on a budget that allows no eviction, by maxUnavailable or by minAvailable at the replicas, and only there", () => {
    const workload = (name: string, replicas: string, labels: string) =>
      deployment(
        name,
        `${replicas}  selector: { matchLabels: { ${labels} } }\n  template:\n    metadata:\n      labels: { ${labels} }\n    spec:\n      containers: [{ name: a, image: a:1 }]\n`,
      );
    const pdb = (name: string, spec: string, hook = "") =>
      `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: ${name}\n${hook}spec:\n${spec}`;
    const yaml = [
      workload("two", "  replicas: 2\n", "app: two"),
      workload("three", "  replicas: 3\n", "app: three"),
      workload("auto", "", "app: auto"),
      pdb("zero", "  maxUnavailable: 0\n  selector: { matchLabels: { app: two } }\n"),
      pdb("zero-percent", '  maxUnavailable: "0%"\n  selector: { matchLabels: { app: two } }\n'),
      pdb("one", "  maxUnavailable: 1\n  selector: { matchLabels: { app: two } }\n"),
      pdb("all", "  minAvailable: 2\n  selector: { matchLabels: { app: two } }\n"),
      pdb("some", "  minAvailable: 2\n  selector: { matchLabels: { app: three } }\n"),
      pdb("scaled", "  minAvailable: 2\n  selector: { matchLabels: { app: auto } }\n"),
      pdb("percent", '  minAvailable: "100%"\n  selector: { matchLabels: { app: two } }\n'),
      pdb("hooked", "  maxUnavailable: 0\n", HOOK),
    ].join("---\n");
    expect(findingsOf([pdbBlocksEviction], [policyChart("app", yaml)]).map((row) => [row[2], row[3], row[4]])).toStrictEqual([
      ["PodDisruptionBudget.policy web/zero", "spec.maxUnavailable", "allows no pod to be evicted: node drains and upgrades never finish"],
      ["PodDisruptionBudget.policy web/zero-percent", "spec.maxUnavailable", "allows no pod to be evicted: node drains and upgrades never finish"],
      ["PodDisruptionBudget.policy web/all", "spec.minAvailable", "requires 2 of Deployment web/two's 2 replicas: no voluntary eviction ever succeeds"],
    ]);
  });

  it("warns on a cluster-scoped object that names a namespace, not on a namespaced one", () => {
    const yaml = [
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: named\n  namespace: web\n",
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: plain\n",
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: web\n",
    ].join("---\n");
    expect(findingsOf([clusterScopedNamespace], [policyChart("app", yaml)]).map((row) => [row[2], row[4]])).toStrictEqual([
      ["ClusterRole.rbac.authorization.k8s.io named", 'is cluster-scoped but names namespace "web"'],
    ]);
  });
});

describe("security basics", () => {
  it("finds privilege, escalation, host paths and namespaces, root and capabilities per container, never on a hook", () => {
    const spec = pod(
      [
        "        - name: bad",
        "          securityContext: { privileged: true, capabilities: { add: [NET_ADMIN] } }",
        "        - name: good",
        "          securityContext: { allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { add: [] } }",
        "        - name: zero",
        "          securityContext: { allowPrivilegeEscalation: false, runAsUser: 0, runAsNonRoot: true }",
        "",
      ].join("\n"),
      "      hostNetwork: true\n      hostIPC: false\n      securityContext: { runAsUser: null }\n      volumes:\n        - name: node\n          hostPath: { path: /var/run }\n        - name: anonymous-path\n          hostPath: {}\n        - name: data\n          emptyDir: {}\n",
    );
    const yaml = [deployment("app", spec), deployment("hooked", spec, HOOK)].join("---\n");
    const rules = [privileged, privilegeEscalation, hostPath, hostNamespaces, runAsRoot, addedCapabilities];
    expect(findingsOf(rules, [policyChart("app", yaml)]).map((row) => [row[0], row[3], row[4]])).toStrictEqual([
      ["privileged", "spec.template.spec.containers[name=bad].securityContext.privileged", "runs privileged: root on the node"],
      [
        "privilege-escalation",
        "spec.template.spec.containers[name=bad].securityContext.allowPrivilegeEscalation",
        "may gain more privileges than its parent process",
      ],
      ["host-path", "spec.template.spec.volumes[name=node].hostPath", "mounts /var/run of the node"],
      ["host-path", "spec.template.spec.volumes[name=anonymous-path].hostPath", "mounts a path of the node"],
      ["host-namespaces", "spec.template.spec.hostNetwork", "shares the node's Network namespace"],
      ["run-as-root", "spec.template.spec.containers[name=bad].securityContext.runAsNonRoot", "may run as root"],
      ["run-as-root", "spec.template.spec.containers[name=zero].securityContext.runAsNonRoot", "may run as root"],
      ["added-capabilities", "spec.template.spec.containers[name=bad].securityContext.capabilities.add", 'adds capabilities ["NET_ADMIN"]'],
    ]);
  });

  it("reads a bare Pod's spec at spec, and a pod-wide runAsNonRoot", () => {
    const bare =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  hostPID: true\n  securityContext: { runAsNonRoot: true }\n  containers: [{ name: a, image: a:1 }]\n";
    expect(findingsOf([hostNamespaces, runAsRoot], [policyChart("app", bare)]).map((row) => [row[0], row[3]])).toStrictEqual([
      ["host-namespaces", "spec.hostPID"],
    ]);
  });

  it("flags cluster-admin bindings, wildcards and cluster-wide Secret reads, not a namespaced Role reading Secrets", () => {
    const rbacYaml = (kind: string, name: string, body: string, group = "rbac.authorization.k8s.io/v1") =>
      `apiVersion: ${group}\nkind: ${kind}\nmetadata:\n  name: ${name}\n${body}`;
    const yaml = [
      rbacYaml("ClusterRoleBinding", "admins", "roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin }\n"),
      rbacYaml("RoleBinding", "local-admins", "roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin }\n"),
      rbacYaml("RoleBinding", "viewers", "roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view }\n"),
      rbacYaml("ClusterRole", "cluster-admin", "roleRef: { name: cluster-admin }\nrules: []\n"),
      rbacYaml("ClusterRole", "wild", "rules:\n  - { verbs: ['*'], resources: [pods] }\n  - { verbs: [get], resources: ['*'] }\n  - { verbs: [get] }\n"),
      rbacYaml("ClusterRole", "secrets", "rules:\n  - { verbs: [create, list], resources: [secrets] }\n  - { verbs: [create], resources: [secrets] }\n"),
      rbacYaml("Role", "local-secrets", "rules:\n  - { verbs: [get], resources: [secrets] }\n"),
      rbacYaml("ClusterRoleBinding", "elsewhere", "roleRef: { name: cluster-admin }\n", "other.example.test/v1"),
    ].join("---\n");
    expect(findingsOf([rbac], [policyChart("app", yaml)]).map((row) => [row[2], row[3], row[4]])).toStrictEqual([
      ["ClusterRoleBinding.rbac.authorization.k8s.io admins", "roleRef.name", "binds cluster-admin"],
      ["RoleBinding.rbac.authorization.k8s.io web/local-admins", "roleRef.name", "binds cluster-admin"],
      ["ClusterRole.rbac.authorization.k8s.io wild", "rules[0]", "grants every verb"],
      ["ClusterRole.rbac.authorization.k8s.io wild", "rules[1]", "grants every resource"],
      ["ClusterRole.rbac.authorization.k8s.io secrets", "rules[0]", "reads Secrets in every namespace"],
    ]);
  });
});

describe("workload hygiene", () => {
  it("wants a tag other than latest, or a digest, on every container, init containers too", () => {
    const spec = pod(
      "        - { name: none, image: registry.test/a }\n        - { name: latest, image: 'registry.test/a:latest' }\n        - { name: tagged, image: 'registry.test:5000/a:1.2' }\n        - { name: digest, image: 'registry.test/a@sha256:0000000000000000000000000000000000000000000000000000000000000000' }\n        - { name: empty }\n",
      "      initContainers:\n        - { name: init, image: 'registry.test:5000/init' }\n",
    );
    expect(
      findingsOf([imageTag], [policyChart("app", [deployment("d", spec), deployment("h", spec, HOOK)].join("---\n"))]).map((row) => [row[3], row[4]]),
    ).toStrictEqual([
      ["spec.template.spec.containers[name=none].image", "runs registry.test/a without a tag: what runs changes without a deploy"],
      ["spec.template.spec.containers[name=latest].image", "runs registry.test/a:latest: the latest tag moves, so what runs changes without a deploy"],
      ["spec.template.spec.containers[name=empty].image", "runs (no image) without a tag: what runs changes without a deploy"],
      ["spec.template.spec.initContainers[name=init].image", "runs registry.test:5000/init without a tag: what runs changes without a deploy"],
    ]);
  });

  it("in production wants digests, naming the locked one when there is one, and says nothing elsewhere", () => {
    const yaml = deployment(
      "d",
      pod(
        "        - { name: a, image: 'r.test/a:1' }\n        - { name: b, image: 'r.test/b:1' }\n        - { name: c, image: 'r.test/c:1@sha256:0000000000000000000000000000000000000000000000000000000000000000' }\n        - { name: d, image: 'NOT VALID' }\n",
      ),
    );
    const digest = `sha256:${"a".repeat(64)}`;
    const chart = policyChart("app", yaml, { lockedImages: new Map([["r.test/a:1", digest]]) });
    const found = findingsOf([imageDigest], [chart], { production: true }).map((row) => [row[3], row[4]]);
    expect(found).toStrictEqual([
      ["spec.template.spec.containers[0].image", "runs r.test/a:1 by tag in production stack dev: the tag can be pushed again with other bytes"],
      ["spec.template.spec.containers[1].image", "runs r.test/b:1 by tag in production stack dev: the tag can be pushed again with other bytes"],
    ]);
    const hints = runPolicies({ stack: "dev", charts: [chart], rules: [imageDigest], settings: emptySettings(), today: "2026-11-30", production: true }).map(
      (found) => found.hint,
    );
    expect(hints).toStrictEqual([
      `use r.test/a:1@${digest}: set pinImages: true on app, and chartroom deploys it so`,
      'declare registries["r.test"] and run `chartroom lock` to lock its digest, then set pinImages: true on app',
    ]);
    expect(findingsOf([imageDigest], [chart])).toStrictEqual([]);
  });

  it("wants requests on serving containers (not init ones), a memory request with a memory limit, and probes where ports are served outside Jobs", () => {
    const containers = [
      "        - name: full",
      "          resources: { requests: { cpu: 1m, memory: 1Mi }, limits: { memory: 2Mi } }",
      "          ports: [{ containerPort: 80 }]",
      "          readinessProbe: { tcpSocket: { port: 80 } }",
      "        - name: bare",
      "          resources: { limits: { memory: 2Mi } }",
      "          ports: [{ containerPort: 81 }]",
      "        - name: quiet",
      "          resources: { requests: { cpu: 1m } }",
      "",
    ].join("\n");
    const spec = pod(containers, "      initContainers: [{ name: init, image: i:1, ports: [{ containerPort: 9 }] }]\n");
    const job = `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\nspec:\n${pod("        - { name: job, ports: [{ containerPort: 82 }], resources: { requests: { cpu: 1m, memory: 1Mi } } }\n")}`;
    const found = findingsOf([resourceRequests, memoryLimitWithoutRequest, readinessProbe], [policyChart("app", [deployment("d", spec), job].join("---\n"))]);
    expect(found.map((row) => [row[0], row[2], row[3], row[4]])).toStrictEqual([
      ["resource-requests", "Deployment.apps web/d", "spec.template.spec.containers[name=bare].resources.requests", "requests no cpu or memory"],
      ["resource-requests", "Deployment.apps web/d", "spec.template.spec.containers[name=quiet].resources.requests", "requests no memory"],
      [
        "memory-limit-without-request",
        "Deployment.apps web/d",
        "spec.template.spec.containers[name=bare].resources.requests.memory",
        "limits memory without requesting any: the scheduler reserves the whole limit",
      ],
      [
        "readiness-probe",
        "Deployment.apps web/d",
        "spec.template.spec.containers[name=bare].readinessProbe",
        "serves ports but has no readiness probe: it takes traffic before it is ready",
      ],
    ]);
  });
});

describe("what the engine does with what the chart renders", () => {
  const manifest = [
    "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n  annotations:\n    helm.sh/hook: pre-install,pre-upgrade\n",
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: test\n  annotations:\n    helm.sh/hook: test\n",
    "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.ops.example.test\n",
    "apiVersion: other.example.test/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: lookalike\n",
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: CustomResourceDefinition\n",
  ].join("---\n");

  it("errs on each lifecycle hook helm.v4.Chart drops, unless the chart accepts it; never under helm.v3.Release", () => {
    const chart = (engine: "chart" | "release", dropHooks: boolean) => policyChart("app", manifest, { engine, dropHooks });
    expect(findingsOf([hooksUnderChart], [chart("chart", false)]).map((row) => [row[1], row[2], row[3], row[4]])).toStrictEqual([
      ["error", "Job.batch web/migrate", 'metadata.annotations["helm.sh/hook"]', "is a pre-install,pre-upgrade hook: helm.v4.Chart never creates it"],
    ]);
    expect(findingsOf([hooksUnderChart], [chart("chart", true)])).toStrictEqual([]);
    expect(findingsOf([hooksUnderChart], [chart("release", false)])).toStrictEqual([]);
  });

  it("says what removing the chart does to each real CustomResourceDefinition, per engine", () => {
    const [onChart] = findingsOf([crdsInChart], [policyChart("app", manifest, { engine: "chart" })]);
    const [onRelease] = findingsOf([crdsInChart], [policyChart("app", manifest, { engine: "release" })]);
    expect([onChart?.[2], onRelease?.[2]]).toStrictEqual([
      "CustomResourceDefinition.apiextensions.k8s.io widgets.ops.example.test",
      "CustomResourceDefinition.apiextensions.k8s.io widgets.ops.example.test",
    ]);
    expect(findingsOf([crdsInChart], [policyChart("app", manifest)])).toHaveLength(1);
    expect(onChart?.[4]).not.toBe(onRelease?.[4]);
  });
});

describe("schemas of the objects", () => {
  it("checks built-in kinds only, naming a deep field with dots", async () => {
    const yaml = [
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  selector: {}\n  template:\n    spec:\n      containers:\n        - name: a\n          image: 5\n",
      "apiVersion: ops.example.test/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 1\n",
    ].join("---\n");
    const chart = policyChart("app", yaml);
    const rule = objectSchema(await loadValidators(chart.objects));
    expect(findingsOf([rule], [chart]).map((row) => [row[2], row[3]])).toStrictEqual([["Deployment.apps web/d", "spec.template.spec.containers.0.image"]]);
  });

  it("checks custom resources only against a CustomResourceDefinition of apiextensions, not a lookalike", () => {
    const crd = (group: string) =>
      `apiVersion: ${group}\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.ops.example.test\nspec:\n  group: ops.example.test\n  names: { kind: Widget }\n  versions:\n    - name: v1\n      schema:\n        openAPIV3Schema:\n          type: object\n          properties:\n            spec: { type: object, properties: { size: { type: string } } }\n`;
    const widget = "apiVersion: ops.example.test/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 1\n";
    expect(findingsOf([customResourceSchema], [policyChart("app", [crd("apiextensions.k8s.io/v1"), widget].join("---\n"))]).map((row) => row[3])).toStrictEqual(
      ["spec.size"],
    );
    expect(findingsOf([customResourceSchema], [policyChart("app", [crd("other.example.test/v1"), widget].join("---\n"))])).toStrictEqual([]);
  });
});
