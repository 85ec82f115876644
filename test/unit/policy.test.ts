import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/model/findings.js";
import type { PolicyRule } from "../../src/model/policy.js";
import { builtinRules } from "../../src/policy/builtin.js";
import { runPolicies, type PolicyChart } from "../../src/policy/run.js";
import { addPolicyFile, emptySettings, type PolicySettings } from "../../src/policy/settings.js";
import { parseManifest } from "../../src/render/manifest.js";
import { sealSecrets } from "../../src/render/seal.js";

const objects = (yaml: string, namespace = "web") => parseManifest(yaml, namespace, "test");

function chart(key: string, yaml: string, extra: Partial<PolicyChart> = {}): PolicyChart {
  return { key, engine: "chart", dropHooks: false, values: {}, objects: objects(yaml, extra.objects?.[0]?.namespace ?? "web"), ...extra };
}

async function findings(
  charts: PolicyChart[],
  options: { settings?: PolicySettings; kubeVersion?: string; today?: string; rules?: PolicyRule[]; production?: boolean } = {},
): Promise<Finding[]> {
  const rules = options.rules ?? (await builtinRules(charts.flatMap((c) => [...c.objects])));
  return runPolicies({
    stack: "dev",
    ...(options.production === undefined ? {} : { production: options.production }),
    kubeVersion: options.kubeVersion ?? "1.31.0",
    charts,
    rules,
    settings: options.settings ?? emptySettings(),
    today: options.today ?? "2026-11-30",
  });
}

async function rulesFired(yaml: string, kubeVersion?: string): Promise<string[]> {
  return [...new Set((await findings([chart("app", yaml)], { kubeVersion })).filter((f) => f.exception === undefined).map((f) => f.rule))].sort();
}

/** A tidy workload that every built-in rule accepts. */
const GOOD_POD = `
  securityContext: { runAsNonRoot: true, runAsUser: 1000 }
  containers:
    - name: web
      image: registry.example.test/web:1.2.3
      ports: [{ name: http, containerPort: 8080 }]
      readinessProbe: { httpGet: { path: /ready, port: http } }
      resources: { requests: { cpu: 100m, memory: 64Mi } }
      securityContext: { allowPrivilegeEscalation: false }`;

const deployment = (labels = "app: web", pod = GOOD_POD, extra = "") => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  ${extra}selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { ${labels} } }
    spec:${pod.replace(/\n/g, "\n    ")}
`;

const service = (selector = "app: web", targetPort = "http") => `apiVersion: v1
kind: Service
metadata: { name: web }
spec:
  selector: { ${selector} }
  ports: [{ name: http, port: 80, targetPort: ${targetPort} }]
`;

describe("the built-in rules", () => {
  it("accept a tidy Deployment and the Service in front of it", async () => {
    expect(await rulesFired(`${deployment()}---\n${service()}`)).toStrictEqual([]);
  });

  it.each([
    ["service-selects-pods", `${deployment()}---\n${service("app: wbe")}`],
    ["service-target-port", `${deployment()}---\n${service("app: web", "9090")}`],
    ["service-target-port", `${deployment()}---\n${service("app: web", "metrics")}`],
    ["probe-port", deployment("app: web", GOOD_POD.replace("port: http", "port: health"))],
    ["workload-selector", deployment("app: other")],
    [
      "ingress-backend",
      `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: { name: web }\nspec: { rules: [{ http: { paths: [{ path: /, pathType: Prefix, backend: { service: { name: missing, port: { number: 80 } } } }] } }] }\n`,
    ],
    [
      "ingress-backend",
      `${service()}---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: { name: web }\nspec: { rules: [{ http: { paths: [{ path: /, pathType: Prefix, backend: { service: { name: web, port: { number: 8443 } } } }] } }] }\n`,
    ],
    [
      "ingress-backend",
      `apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: { name: web }\nspec: { rules: [{ backendRefs: [{ name: missing, port: 80 }] }] }\n`,
    ],
    ["reference-exists", deployment("app: web", `${GOOD_POD}\n      env: [{ name: PASSWORD, valueFrom: { secretKeyRef: { name: missing, key: password } } }]`)],
    ["reference-exists", deployment("app: web", `${GOOD_POD}\n      envFrom: [{ configMapRef: { name: missing } }]`)],
    ["reference-exists", deployment("app: web", `${GOOD_POD}\n  volumes: [{ name: data, persistentVolumeClaim: { claimName: missing } }]`)],
    ["reference-exists", deployment("app: web", `${GOOD_POD}\n  serviceAccountName: missing`)],
    ["reference-exists", deployment("app: web", `${GOOD_POD}\n  imagePullSecrets: [{ name: missing }]`)],
    [
      "hpa-target",
      `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: web }\nspec: { scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: missing }, maxReplicas: 3 }\n`,
    ],
    [
      "selector-matches-pods",
      `${deployment()}---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: { name: web }\nspec: { maxUnavailable: 1, selector: { matchLabels: { app: nothing } } }\n`,
    ],
    [
      "selector-matches-pods",
      `${deployment()}---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: { name: web }\nspec: { podSelector: { matchExpressions: [{ key: app, operator: In, values: [nothing] }] } }\n`,
    ],
    [
      "servicemonitor-selects-service",
      `${deployment()}---\n${service().replace("name: web", "name: web, labels: { app: web }")}---\napiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: { name: web }\nspec: { selector: { matchLabels: { app: wbe } }, endpoints: [{ port: http }] }\n`,
    ],
    [
      "hpa-and-replicas",
      `${deployment("app: web", GOOD_POD, "replicas: 3\n  ")}---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: web }\nspec: { scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: web }, maxReplicas: 5 }\n`,
    ],
    [
      "pdb-blocks-eviction",
      `${deployment("app: web", GOOD_POD, "replicas: 2\n  ")}---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: { name: web }\nspec: { minAvailable: 2, selector: { matchLabels: { app: web } } }\n`,
    ],
    [
      "pdb-blocks-eviction",
      `${deployment()}---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: { name: web }\nspec: { maxUnavailable: 0, selector: { matchLabels: { app: web } } }\n`,
    ],
    ["cluster-scoped-namespace", `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: { name: reader, namespace: web }\nrules: []\n`],
    ["object-schema", deployment("app: web", GOOD_POD, "replicas: three\n  ")],
    ["unknown-field", deployment("app: web", GOOD_POD.replace("image: registry", "imagePullPolicey: Always\n      image: registry"))],
    ["unknown-field", deployment("app: web", `${GOOD_POD}\n  resource: { requests: { cpu: 1 } }`)],
    ["unknown-field", service().replace("spec:", "spec:\n  selectr: { app: web }")],
    ["image-tag", deployment("app: web", GOOD_POD.replace("web:1.2.3", "web"))],
    ["image-tag", deployment("app: web", GOOD_POD.replace("web:1.2.3", "web:latest"))],
    ["resource-requests", deployment("app: web", GOOD_POD.replace("resources: { requests: { cpu: 100m, memory: 64Mi } }", "resources: {}"))],
    [
      "readiness-probe",
      deployment("app: web", GOOD_POD.replace("readinessProbe: { httpGet: { path: /ready, port: http } }", "livenessProbe: { tcpSocket: { port: http } }")),
    ],
    ["privileged", deployment("app: web", GOOD_POD.replace("allowPrivilegeEscalation: false", "allowPrivilegeEscalation: false, privileged: true"))],
    ["privilege-escalation", deployment("app: web", GOOD_POD.replace("allowPrivilegeEscalation: false", "readOnlyRootFilesystem: true"))],
    ["host-path", deployment("app: web", `${GOOD_POD}\n  volumes: [{ name: logs, hostPath: { path: /var/log } }]`)],
    ["host-namespaces", deployment("app: web", `${GOOD_POD}\n  hostNetwork: true`)],
    ["run-as-root", deployment("app: web", GOOD_POD.replace("runAsNonRoot: true, runAsUser: 1000", "runAsUser: 0"))],
    [
      "added-capabilities",
      deployment("app: web", GOOD_POD.replace("allowPrivilegeEscalation: false", "allowPrivilegeEscalation: false, capabilities: { add: [NET_ADMIN] }")),
    ],
    [
      "rbac-broad",
      `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: { name: admin }\nroleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin }\nsubjects: []\n`,
    ],
    [
      "rbac-broad",
      `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: { name: all }\nrules: [{ apiGroups: [""], resources: ["*"], verbs: [get] }]\n`,
    ],
    [
      "rbac-broad",
      `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: { name: secrets }\nrules: [{ apiGroups: [""], resources: [secrets], verbs: [list] }]\n`,
    ],
    [
      "memory-limit-without-request",
      deployment(
        "app: web",
        GOOD_POD.replace("resources: { requests: { cpu: 100m, memory: 64Mi } }", "resources: { requests: { cpu: 100m }, limits: { memory: 128Mi } }"),
      ),
    ],
  ])("%s fires on the broken case, and an exception silences it", async (rule, yaml) => {
    expect(await rulesFired(yaml)).toContain(rule);
    // Where: the object and the path each finding names (the snapshot was read when written).
    const found = (await findings([chart("app", yaml)])).filter((f) => f.rule === rule);
    expect(found.map((f) => [f.severity, f.object, f.path])).toMatchSnapshot();
    const settings = emptySettings();
    addPolicyFile(settings, "policies/p.yaml", `exceptions:\n  - { rule: ${rule}, chart: app, reason: accepted }\n`);
    const silenced = (await findings([chart("app", yaml)], { settings })).filter((f) => f.rule === rule);
    expect(silenced.map((f) => [f.severity, f.exception?.reason])).toStrictEqual(silenced.map(() => ["info", "accepted"]));
  });

  it.each([
    ["capabilities that only drop", GOOD_POD.replace("allowPrivilegeEscalation: false", "allowPrivilegeEscalation: false, capabilities: { drop: [ALL] }")],
    ["capabilities with an empty add", GOOD_POD.replace("allowPrivilegeEscalation: false", "allowPrivilegeEscalation: false, capabilities: { add: [] }")],
    ["privileged: false", GOOD_POD.replace("allowPrivilegeEscalation: false", "allowPrivilegeEscalation: false, privileged: false")],
    [
      "runAsNonRoot on the container only",
      GOOD_POD.replace("runAsNonRoot: true, runAsUser: 1000", "fsGroup: 2000").replace(
        "allowPrivilegeEscalation: false",
        "allowPrivilegeEscalation: false, runAsNonRoot: true",
      ),
    ],
    ["a non-zero runAsUser on the pod only", GOOD_POD.replace("runAsNonRoot: true, runAsUser: 1000", "runAsUser: 1000")],
    [
      "a non-zero runAsUser on the container",
      GOOD_POD.replace("runAsNonRoot: true, runAsUser: 1000", "fsGroup: 2000").replace(
        "allowPrivilegeEscalation: false",
        "allowPrivilegeEscalation: false, runAsUser: 1001",
      ),
    ],
    ["hostNetwork: false", `${GOOD_POD}\n  hostNetwork: false\n  hostPID: false`],
    ["volumes that are not host paths", `${GOOD_POD}\n  volumes: [{ name: tmp, emptyDir: {} }, { name: info, downwardAPI: { items: [] } }]`],
    ["an image pinned by digest", GOOD_POD.replace("web:1.2.3", `web@sha256:${"a".repeat(64)}`)],
    ["an image with a registry port and a tag", GOOD_POD.replace("registry.example.test/web:1.2.3", "registry.example.test:5000/web:1.2.3")],
    [
      "memory limit with its request",
      GOOD_POD.replace(
        "resources: { requests: { cpu: 100m, memory: 64Mi } }",
        "resources: { requests: { cpu: 100m, memory: 64Mi }, limits: { memory: 128Mi } }",
      ),
    ],
  ])("fires nothing on a healthy near miss: %s", async (_name, pod) => {
    expect(await rulesFired(`${deployment("app: web", pod)}---\n${service()}`)).toStrictEqual([]);
  });

  it.each([
    [
      "a pod that runs as root by runAsUser: 0 on the container, despite the pod",
      GOOD_POD.replace("allowPrivilegeEscalation: false", "allowPrivilegeEscalation: false, runAsUser: 0"),
      "run-as-root",
    ],
    ["no security context at all", GOOD_POD.replace("securityContext: { runAsNonRoot: true, runAsUser: 1000 }", "enableServiceLinks: false"), "run-as-root"],
    [
      "a container with ports and no readiness probe",
      GOOD_POD.replace("readinessProbe: { httpGet: { path: /ready, port: http } }", "terminationMessagePolicy: File"),
      "readiness-probe",
    ],
    ["an image with a registry port and no tag", GOOD_POD.replace("registry.example.test/web:1.2.3", "registry.example.test:5000/web"), "image-tag"],
    ["a hostPID pod", `${GOOD_POD}\n  hostPID: true`, "host-namespaces"],
  ])("fires on %s", async (_name, pod, rule) => {
    const found = (await findings([chart("app", `${deployment("app: web", pod)}---\n${service()}`)])).filter((f) => f.exception === undefined);
    expect(found.map((f) => [f.rule, f.object, f.path])).toMatchSnapshot();
    expect(found.map((f) => f.rule)).toContain(rule);
  });

  it("leaves hooks and Jobs out of the workload rules that are about serving", async () => {
    const hookPod = GOOD_POD.replace("runAsNonRoot: true, runAsUser: 1000", "runAsUser: 0").replace(
      "readinessProbe: { httpGet: { path: /ready, port: http } }",
      "stdin: false",
    );
    const job = `apiVersion: batch/v1\nkind: Job\nmetadata: { name: once }\nspec:\n  template:\n    spec:${GOOD_POD.replace("readinessProbe: { httpGet: { path: /ready, port: http } }", "stdin: false").replace(/\n/g, "\n    ")}\n      restartPolicy: Never\n`;
    const hook = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: hook\n  annotations: { helm.sh/hook: pre-install, helm.sh/hook-delete-policy: before-hook-creation }\nspec:${hookPod.replace("web:1.2.3", "web:latest")}\n`;
    const found = (await findings([chart("app", `${job}---\n${hook}`, { engine: "release" })])).filter((f) => f.exception === undefined);
    expect(found.map((f) => [f.rule, f.object, f.path])).toStrictEqual([]);
  });

  it("object-schema sees a Secret's data as it was before sealing: base64 or not", async () => {
    const secret = (data: string) => objects(`apiVersion: v1\nkind: Secret\nmetadata: { name: s }\ndata: { password: "${data}" }\n`);
    const key = Buffer.alloc(32, 7);
    const fired = async (list: PolicyChart["objects"]) =>
      (await findings([{ key: "app", engine: "chart", dropHooks: false, values: {}, objects: list }]))
        .filter((f) => f.rule === "object-schema")
        .map((f) => f.path);
    expect(await fired(secret("c2VjcmV0"))).toStrictEqual([]);
    expect(await fired(sealSecrets(secret("c2VjcmV0"), key))).toStrictEqual([]);
    expect(await fired(secret("not base64!"))).toStrictEqual(["data.password"]);
    expect(await fired(sealSecrets(secret("not base64!"), key))).toStrictEqual(["data.password"]);
  });

  it("crds-in-chart tells what deleting the chart does to its CRDs, under the chart's engine", async () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: { name: widgets.example.com }\nspec: { group: example.com, scope: Namespaced, names: { kind: Widget, plural: widgets }, versions: [{ name: v1, served: true, storage: true }] }\n`;
    const crds = async (engine: "chart" | "release") =>
      (await findings([chart("operator", crd, { engine, objects: objects(crd, "") })])).filter((f) => f.rule === "crds-in-chart");
    const [underChart] = await crds("chart");
    const [underRelease] = await crds("release");
    expect([underChart?.severity, underRelease?.severity]).toStrictEqual(["info", "info"]);
    expect(underChart?.message).not.toBe(underRelease?.message);
    expect(await rulesFired(deployment())).not.toContain("crds-in-chart");
  });

  it.each([
    ["autoscaling/v2beta2 HorizontalPodAutoscaler", "1.26.0", "autoscaling/v2beta2", true],
    ["autoscaling/v2beta2 HorizontalPodAutoscaler", "1.25.9", "autoscaling/v2beta2", false],
    ["policy/v1beta1 PodDisruptionBudget", "1.31.0", "policy/v1beta1", true],
  ])("removed-api: %s on Kubernetes %s", async (_, kubeVersion, apiVersion, fires) => {
    const kind = apiVersion.startsWith("policy") ? "PodDisruptionBudget" : "HorizontalPodAutoscaler";
    const spec =
      kind === "PodDisruptionBudget"
        ? "{ maxUnavailable: 1, selector: { matchLabels: { app: web } } }"
        : "{ scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: web }, maxReplicas: 3 }";
    const fired = await rulesFired(`${deployment()}---\napiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: { name: web }\nspec: ${spec}\n`, kubeVersion);
    expect(fired.includes("removed-api")).toBe(fires);
  });

  it("custom-resource-schema checks a custom resource against the CRD shipped in the stack", async () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: { name: widgets.example.com }\nspec: { group: example.com, scope: Namespaced, names: { kind: Widget, plural: widgets }, versions: [{ name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object, properties: { spec: { type: object, properties: { size: { type: string, enum: [small, large] } } } } } } }] }\n`;
    const widget = (size: string) => `apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w }\nspec: { size: ${size} }\n`;
    const good = await findings([chart("operator", crd, { objects: objects(crd, "") }), chart("app", widget("small"))]);
    expect(good.filter((f) => f.rule === "custom-resource-schema")).toStrictEqual([]);
    const bad = (await findings([chart("operator", crd, { objects: objects(crd, "") }), chart("app", widget("huge"))])).filter(
      (f) => f.rule === "custom-resource-schema",
    );
    expect(bad.map((f) => [f.chart, f.object, f.path])).toStrictEqual([["app", "Widget.example.com web/w", "spec.size"]]);
  });

  it("hooks-under-chart: an error under helm.v4.Chart unless dropHooks, nothing under a Release", async () => {
    const job = `apiVersion: batch/v1\nkind: Job\nmetadata: { name: migrate, annotations: { helm.sh/hook: pre-install } }\nspec: { template: { spec: { restartPolicy: Never, containers: [{ name: m, image: m:1 }] } } }\n`;
    const rule = async (extra: Partial<PolicyChart>) =>
      (await findings([chart("db", job, extra)])).filter((f) => f.rule === "hooks-under-chart").map((f) => f.severity);
    expect(await rule({})).toStrictEqual(["error"]);
    expect(await rule({ dropHooks: true })).toStrictEqual([]);
    expect(await rule({ engine: "release" })).toStrictEqual([]);
  });

  it("sees a Service in one chart select another chart's pods", async () => {
    const found = await findings([chart("api", deployment()), chart("edge", service())]);
    expect(found.filter((f) => f.rule.startsWith("service-"))).toStrictEqual([]);
    const apart = await findings([chart("api", deployment()), chart("edge", service("app: api"))]);
    expect(apart.filter((f) => f.rule === "service-selects-pods").map((f) => [f.chart, f.object, f.path])).toStrictEqual([
      ["edge", "Service web/web", "spec.selector"],
    ]);
  });

  it("lets references to objects declared external pass", async () => {
    const yaml = deployment("app: web", `${GOOD_POD}\n  imagePullSecrets: [{ name: registry }]`);
    const settings = emptySettings();
    expect((await findings([chart("app", yaml)], { settings })).map((f) => f.rule)).toContain("reference-exists");
    addPolicyFile(settings, "policies/external.yaml", "external:\n  - { kind: Secret, name: registry, namespace: web }\n");
    expect((await findings([chart("app", yaml)], { settings })).map((f) => f.rule)).not.toContain("reference-exists");
  });
});

describe("policy files", () => {
  const broken = () => [chart("app", deployment("app: web", GOOD_POD.replace("web:1.2.3", "web:latest")))];

  it("set a rule's severity, per stack, or switch it off", async () => {
    const severity = async (yaml: string) => {
      const settings = emptySettings();
      addPolicyFile(settings, "policies/p.yaml", yaml);
      return (await findings(broken(), { settings })).filter((f) => f.rule === "image-tag").map((f) => f.severity);
    };
    expect(await severity("rules: { image-tag: error }\n")).toStrictEqual(["error"]);
    expect(await severity("rules: { image-tag: { severity: info, stacks: { dev: error } } }\n")).toStrictEqual(["error"]);
    expect(await severity("rules: { image-tag: off }\n")).toStrictEqual([]);
  });

  it("silence a finding with an exception and its reason, keeping it visible", async () => {
    const settings = emptySettings();
    addPolicyFile(
      settings,
      "policies/p.yaml",
      'exceptions:\n  - rule: image-tag\n    chart: app\n    object: Deployment.apps web/web\n    reason: "the vendor publishes only latest"\n    until: 2027-01-31\n',
    );
    const found = (await findings(broken(), { settings })).filter((f) => f.rule === "image-tag");
    expect(found.map((f) => [f.severity, f.exception])).toStrictEqual([
      ["info", { reason: "the vendor publishes only latest", until: "2027-01-31", file: "policies/p.yaml" }],
    ]);
  });

  it("turn an expired exception into an error that names it, and flag one that silences nothing", async () => {
    const settings = emptySettings();
    addPolicyFile(
      settings,
      "policies/p.yaml",
      "exceptions:\n  - { rule: image-tag, chart: app, reason: vendor, until: 2026-01-31 }\n  - { rule: privileged, chart: app, reason: none needed }\n",
    );
    const found = await findings(broken(), { settings });
    expect(found.filter((f) => f.rule === "image-tag").map((f) => f.severity)).toStrictEqual(["warning"]);
    const expired = found.find((f) => f.rule === "policy-exception-expired");
    expect([expired?.severity, expired?.message, expired?.position]).toStrictEqual([
      "error",
      'the exception for image-tag expired on 2026-01-31 ("vendor")',
      { file: "policies/p.yaml", line: 2, column: 5 },
    ]);
    expect(found.find((f) => f.rule === "policy-exception-unused")?.message).toBe("the exception for privileged silences nothing");
  });

  it.each([
    ["exceptions: [{ rule: image-tag, chart: app }]", "exceptions.0.reason: required: why this is acceptable"],
    ["rules: { image-tag: fatal }", 'rules.image-tag: "fatal" is not a severity'],
    ["exceptions: [{ rule: image-tag, chart: app, reason: x, until: soon }]", "exceptions.0.until: expected a date YYYY-MM-DD"],
    ["ruels: {}", "unknown key ruels"],
  ])("refuse %s", (yaml, message) => {
    const error = (() => {
      try {
        addPolicyFile(emptySettings(), "policies/bad.yaml", yaml);
      } catch (caught) {
        return caught as { code: string; details: string[] };
      }
      return undefined;
    })();
    expect(error?.code).toBe("POLICY_INVALID");
    expect(error?.details.join("\n")).toContain(message);
  });

  it("finds an object rendered twice by a chart, and one rendered by two charts of the stack", async () => {
    const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ${name} }\ndata: { a: "1" }\n`;
    const found = await findings([chart("app", `${cm("twice")}---\n${cm("twice")}---\n${cm("shared")}`), chart("other", cm("shared"))]);
    const duplicates = found.filter((f) => f.rule === "duplicate-object").map((f) => [f.chart, f.object, f.message]);
    expect(duplicates).toStrictEqual([
      ["app", "ConfigMap web/twice", "is rendered 2 times by this chart: only one of them can exist"],
      ["app", "ConfigMap web/shared", "is also rendered by chart other of this stack: both would own ConfigMap web/shared"],
      ["other", "ConfigMap web/shared", "is also rendered by chart app of this stack: both would own ConfigMap web/shared"],
    ]);
    expect(found.find((f) => f.rule === "duplicate-object")?.severity).toBe("error");
  });

  it("leaves hooks out of duplicates: a hook and its twin run and go", async () => {
    const hook = `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: h, annotations: { "helm.sh/hook": pre-install } }\n`;
    expect((await findings([chart("app", `${hook}---\n${hook}`)])).filter((f) => f.rule === "duplicate-object")).toStrictEqual([]);
  });

  it.each([
    ["ConfigMap", 253, false],
    ["ConfigMap", 254, true],
    ["Service", 63, false],
    ["Service", 64, true],
  ])("refuses a %s name of %i characters: %s", async (kind, length, refused) => {
    const yaml = `apiVersion: v1\nkind: ${kind}\nmetadata: { name: ${"a".repeat(length)} }\n`;
    expect((await rulesFired(yaml)).includes("object-name")).toBe(refused);
  });
});

describe("the built-in rules on the patterns of real charts", () => {
  const hookAnnotations = (events: string, weight: number, policy = "before-hook-creation,hook-succeeded") =>
    `annotations: { "helm.sh/hook": "${events}", "helm.sh/hook-weight": "${weight}", "helm.sh/hook-delete-policy": "${policy}" }`;
  const serviceAccount = (name: string, annotations = "") =>
    `apiVersion: v1\nkind: ServiceAccount\nmetadata: { name: ${name}${annotations === "" ? "" : `, ${annotations}`} }\n`;
  const job = (name: string, account: string, annotations: string, extra = "") =>
    `apiVersion: batch/v1\nkind: Job\nmetadata: { name: ${name}, ${annotations} }\nspec:\n  template:\n    spec:\n      serviceAccountName: ${account}\n      restartPolicy: Never${extra}\n      containers: [{ name: job, image: registry.example.test/job:1.0.0 }]\n`;
  const errors = async (charts: PolicyChart[], rule: string) =>
    (await findings(charts)).filter((f) => f.rule === rule).map((f) => [f.severity, f.object, f.message]);
  const release = (yaml: string) => chart("app", yaml, { engine: "release" });

  it("lets hooks use the ServiceAccount a hook of the same phases creates (an admission webhook's patch Job)", async () => {
    const events = "pre-install,pre-upgrade,post-install,post-upgrade";
    const yaml = `${serviceAccount("admission", hookAnnotations(events, -1))}---\n${job("admission-create", "admission", hookAnnotations("pre-install,pre-upgrade", 0))}---\n${job("admission-patch", "admission", hookAnnotations("post-install,post-upgrade", 0))}`;
    expect(await errors([release(yaml)], "reference-exists")).toStrictEqual([]);
  });

  it("lets a release object use what a pre-install hook creates and keeps", async () => {
    const yaml = `${serviceAccount("init", hookAnnotations("pre-install", -5, "before-hook-creation"))}---\n${deployment("app: web", `${GOOD_POD}\n  serviceAccountName: init`)}`;
    expect(await errors([release(yaml)], "reference-exists")).toStrictEqual([]);
  });

  it("lets a test hook use the ConfigMap a test hook creates", async () => {
    const configMap = `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: tests, annotations: { "helm.sh/hook": test } }\ndata: { run.sh: "true" }\n`;
    const pod = `apiVersion: v1\nkind: Pod\nmetadata: { name: test, annotations: { "helm.sh/hook": test } }\nspec:\n  restartPolicy: Never\n  containers: [{ name: t, image: registry.example.test/t:1.0.0 }]\n  volumes: [{ name: tests, configMap: { name: tests } }]\n`;
    expect(await errors([release(`${configMap}---\n${pod}`)], "reference-exists")).toStrictEqual([]);
  });

  it("says a pre-install Job cannot use what only a post-install hook creates, naming the phase", async () => {
    const yaml = `${serviceAccount("late", hookAnnotations("post-install", 0))}---\n${job("early", "late", hookAnnotations("pre-install", 0))}`;
    expect(await errors([release(yaml)], "reference-exists")).toStrictEqual([
      [
        "error",
        "Job.batch web/early",
        "names ServiceAccount web/late, which the chart creates only as a hook that is not there when this pre-install hook runs (pre-install)",
      ],
    ]);
  });

  it("warns that a pre-install Job using a release object fails on a first install only", async () => {
    const yaml = `${serviceAccount("main")}---\n${job("migrate", "main", hookAnnotations("pre-install,pre-upgrade", 0))}`;
    expect(await errors([release(yaml)], "reference-exists")).toStrictEqual([
      [
        "warning",
        "Job.batch web/migrate",
        "names ServiceAccount web/main, which does not exist yet when this pre-install,pre-upgrade hook runs on a first install (pre-install): the install fails, upgrades work",
      ],
    ]);
  });

  it("finds under helm.v4.Chart that a hook's ServiceAccount is never created for a release object", async () => {
    const yaml = `${serviceAccount("init", hookAnnotations("pre-install", -5, "before-hook-creation"))}---\n${deployment("app: web", `${GOOD_POD}\n  serviceAccountName: init`)}`;
    expect(await errors([chart("app", yaml)], "reference-exists")).toStrictEqual([
      ["error", "Deployment.apps web/web", "names ServiceAccount web/init, which only a hook creates, and helm.v4.Chart drops hooks"],
    ]);
  });

  it("takes numeric probe ports as valid, and refuses a name no container defines", async () => {
    expect(
      await rulesFired(
        deployment(
          "app: web",
          GOOD_POD.replace("readinessProbe: { httpGet: { path: /ready, port: http } }", "readinessProbe: { httpGet: { path: /ready, port: 9102 } }"),
        ),
      ),
    ).not.toContain("probe-port");
    expect(await rulesFired(deployment("app: web", GOOD_POD.replace("port: http", "port: metrics")))).toContain("probe-port");
  });

  it("warns, not errs, about a Service selecting pods an operator creates from a custom resource of its namespace", async () => {
    const prometheus = `apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: { name: k8s }\nspec: { replicas: 2 }\n`;
    const operated = `apiVersion: v1\nkind: Service\nmetadata: { name: prometheus-operated }\nspec:\n  selector: { app.kubernetes.io/name: prometheus }\n  ports: [{ name: web, port: 9090, targetPort: web }]\n`;
    const found = (await findings([chart("app", `${prometheus}---\n${operated}`)])).filter((f) => f.rule.startsWith("service-"));
    expect(found.map((f) => [f.rule, f.severity])).toStrictEqual([["service-selects-pods", "warning"]]);
    expect(found[0]?.message).toContain("an operator may create them from the custom resources in namespace web (Prometheus k8s)");
  });

  it("warns, not errs, about a Service selecting control-plane pods in kube-system", async () => {
    const scheduler = `apiVersion: v1\nkind: Service\nmetadata: { name: kube-scheduler, namespace: kube-system }\nspec:\n  selector: { component: kube-scheduler }\n  ports: [{ name: metrics, port: 10259, targetPort: 10259 }]\n`;
    const found = (await findings([chart("app", `${deployment()}---\n${scheduler}`)])).filter((f) => f.rule.startsWith("service-"));
    expect(found.map((f) => [f.rule, f.severity])).toStrictEqual([["service-selects-pods", "warning"]]);
  });

  it("keeps both errors for a Service that selects nothing and targets a name no container of the chart defines", async () => {
    const found = (await findings([chart("app", `${deployment()}---\n${service("app: wbe", "metrics")}`)])).filter((f) => f.rule.startsWith("service-"));
    expect(found.map((f) => [f.rule, f.severity])).toStrictEqual([
      ["service-selects-pods", "error"],
      ["service-target-port", "error"],
    ]);
  });

  it("warns about a numeric targetPort the selected pods do not list: a container may listen on it", async () => {
    const found = (await findings([chart("app", `${deployment()}---\n${service("app: web", "9090")}`)])).filter((f) => f.rule === "service-target-port");
    expect(found.map((f) => f.severity)).toStrictEqual(["warning"]);
  });

  it.each([["extensions/v1beta1"], ["networking.k8s.io/v1beta1"]])("reads the %s Ingress backend form (serviceName, servicePort)", async (apiVersion) => {
    const ingress = (name: string, port: string) =>
      `apiVersion: ${apiVersion}\nkind: Ingress\nmetadata: { name: web }\nspec: { rules: [{ http: { paths: [{ path: /, backend: { serviceName: ${name}, servicePort: ${port} } }] } }] }\n`;
    expect(
      (await findings([chart("app", `${service()}---\n${ingress("web", "80")}`)], { kubeVersion: "1.19.0" })).filter((f) => f.rule === "ingress-backend"),
    ).toStrictEqual([]);
    expect(
      (await findings([chart("app", `${service()}---\n${ingress("missing", "80")}`)], { kubeVersion: "1.19.0" }))
        .filter((f) => f.rule === "ingress-backend")
        .map((f) => f.message),
    ).toStrictEqual(["sends traffic to Service web/missing, which does not exist in the stack"]);
    expect(
      (await findings([chart("app", `${service()}---\n${ingress("web", "8443")}`)], { kubeVersion: "1.19.0" }))
        .filter((f) => f.rule === "ingress-backend")
        .map((f) => f.message),
    ).toStrictEqual(["sends traffic to port 8443 of Service web/web, which has no such port"]);
  });
});

describe("image-digest (production stacks)", () => {
  const DIGEST = `sha256:${"c".repeat(64)}`;
  const fired = async (pod: string, production: boolean, locked = new Map<string, string>()) =>
    (await findings([chart("app", deployment("app: web", pod), { lockedImages: locked })], { production })).filter((f) => f.rule === "image-digest");

  it("says nothing outside a production stack", async () => {
    expect(await fired(GOOD_POD, false)).toStrictEqual([]);
  });

  it("names the exact reference to run when the lock has the digest, the registry to declare when not", async () => {
    const [locked] = await fired(GOOD_POD, true, new Map([["registry.example.test/web:1.2.3", DIGEST]]));
    expect([locked?.object, locked?.path, locked?.severity, locked?.hint]).toStrictEqual([
      "Deployment.apps web/web",
      "spec.template.spec.containers[0].image",
      "warning",
      `use registry.example.test/web:1.2.3@${DIGEST}: set pinImages: true on app, and chartroom deploys it so`,
    ]);
    const [unlocked] = await fired(GOOD_POD, true);
    expect(unlocked?.hint).toBe('declare registries["registry.example.test"] and run `chartroom lock` to lock its digest, then set pinImages: true on app');
  });

  it("accepts an image given by digest", async () => {
    expect(await fired(GOOD_POD.replace("web:1.2.3", `web:1.2.3@${DIGEST}`), true)).toStrictEqual([]);
  });
});
