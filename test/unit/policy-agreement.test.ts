// The agreement rules (src/policy/rules/agreement.ts) alone, case by case:
// which finding each broken case gives (rule, severity, object, path), and the
// healthy near misses that must give none. Run through runPolicies with only
// these rules, so a finding of another rule cannot hide or stand in for one.
import { describe, expect, it } from "vitest";
import { AGREEMENT } from "../../src/policy/rules/agreement.js";
import { runPolicies, type PolicyChart } from "../../src/policy/run.js";
import { addPolicyFile, emptySettings } from "../../src/policy/settings.js";
import { parseManifest } from "../../src/render/manifest.js";

type Engine = PolicyChart["engine"];

function chart(key: string, yaml: string, namespace = "web", engine: Engine = "chart"): PolicyChart {
  return { key, engine, dropHooks: engine === "chart", values: {}, objects: parseManifest(yaml, namespace, key) };
}

async function found(charts: PolicyChart[], external = ""): Promise<string[][]> {
  const settings = emptySettings();
  if (external !== "") addPolicyFile(settings, "policies/p.yaml", `external:\n${external}`);
  const findings = await runPolicies({ stack: "dev", kubeVersion: "1.31.0", charts, rules: AGREEMENT, settings, today: "2026-11-30" });
  return findings.map((f) => [f.rule, f.severity, f.object ?? "", f.path ?? "", f.chart]);
}

/** The findings of one chart's manifest, without the chart column. */
async function of(yaml: string, options: { engine?: Engine; external?: string } = {}): Promise<string[][]> {
  return (await found([chart("app", yaml, "web", options.engine)], options.external)).map((row) => row.slice(0, 4));
}

async function messages(yaml: string): Promise<string[]> {
  const findings = await runPolicies({
    stack: "dev",
    kubeVersion: "1.31.0",
    charts: [chart("app", yaml)],
    rules: AGREEMENT,
    settings: emptySettings(),
    today: "2026-11-30",
  });
  return findings.map((f) => f.message);
}

const pod = (labels: string, ports = "[{ name: http, containerPort: 8080 }]", extra = "") => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  selector: { matchLabels: { ${labels} } }
  template:
    metadata: { labels: { ${labels} } }
    spec:
      containers:
        - name: web
          image: web:1
          ports: ${ports}${extra}
`;

const service = (selector: string, ports = "[{ name: http, port: 80, targetPort: http }]", extra = "") => `apiVersion: v1
kind: Service
metadata: { name: front${extra.includes("annotations") ? "" : ""} }
spec:
  ${extra}selector: { ${selector} }
  ports: ${ports}
`;

const cr = (name: string) => `apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: { name: ${name} }\nspec: {}\n`;

describe("service-selects-pods", () => {
  it("is an error for a typo, naming the workload it nearly selects", async () => {
    for (const selector of ["app: wbe", "app: web, tyer: front", "app: web, tier: frnt"]) {
      const yaml = `${pod("app: web, tier: front")}---\n${service(selector)}`;
      expect(await of(yaml), selector).toStrictEqual([["service-selects-pods", "error", "Service web/front", "spec.selector"]]);
      expect((await messages(yaml))[0], selector).toContain("Deployment web has");
    }
  });

  it("is an error, with no workload named, when nothing is near", async () => {
    const yaml = `${pod("app: web")}---\n${service("app: database")}`;
    expect(await of(yaml)).toStrictEqual([["service-selects-pods", "error", "Service web/front", "spec.selector"]]);
    expect((await messages(yaml))[0]).not.toContain("Deployment web");
  });

  it("takes no near miss from labels too short to tell a typo, or from values that are not text", async () => {
    for (const [labels, selector] of [
      ["a: x", "b: x"],
      ["app: web", "app: 7"],
    ]) {
      const yaml = `${pod(labels as string)}---\n${service(selector as string)}`;
      expect((await messages(yaml))[0], selector).not.toContain("Deployment web");
    }
  });

  it("is a warning where an operator may make the pods from a custom resource of the namespace, naming three", async () => {
    const two = `${pod("app: web")}---\n${service("app: prometheus")}---\n${cr("a")}---\n${cr("b")}`;
    expect(await of(two)).toStrictEqual([["service-selects-pods", "warning", "Service web/front", "spec.selector"]]);
    expect((await messages(two))[0]).toContain("(Prometheus a, Prometheus b)");
    const four = `${two}---\n${cr("c")}---\n${cr("d")}`;
    expect((await messages(four))[0]).toContain("(Prometheus a, Prometheus b, Prometheus c, …)");
    const three = `${two}---\n${cr("c")}`;
    expect((await messages(three))[0]).toContain("(Prometheus a, Prometheus b, Prometheus c)");
  });

  it("is a warning for a namespace where no chart of the stack runs pods, an error where one does", async () => {
    const elsewhere = `${pod("app: web")}---\n${service("component: scheduler").replace("name: front", "name: front, namespace: kube-system")}`;
    expect(await of(elsewhere)).toStrictEqual([["service-selects-pods", "warning", "Service kube-system/front", "spec.selector"]]);
    // Another chart runs pods in kube-system: the Service should select some of them.
    const other = chart("other", pod("app: proxy"), "kube-system");
    expect(await found([chart("app", elsewhere), other])).toStrictEqual([
      ["service-selects-pods", "error", "Service kube-system/front", "spec.selector", "app"],
    ]);
    // The chart itself runs pods there.
    const own = `${elsewhere}---\n${pod("app: proxy").replace("name: web", "name: proxy, namespace: kube-system")}`;
    expect(await of(own)).toStrictEqual([["service-selects-pods", "error", "Service kube-system/front", "spec.selector"]]);
    // A hook's pods there do not count: they do not serve.
    const hook = `${elsewhere}---\n${pod("app: proxy").replace("name: web", 'name: proxy, namespace: kube-system, annotations: { "helm.sh/hook": pre-install }')}`;
    expect(await of(hook, { engine: "release" })).toStrictEqual([["service-selects-pods", "warning", "Service kube-system/front", "spec.selector"]]);
  });

  it("accepts a Service selecting another chart's pods in its namespace", async () => {
    expect(await found([chart("app", service("app: web")), chart("other", pod("app: web"))])).toStrictEqual([]);
  });

  it.each([
    ["an ExternalName Service", service("app: none", "[{ name: http, port: 80 }]", "type: ExternalName\n  externalName: db.example.test\n  ")],
    ["a Service with an empty selector", service("", "[{ name: http, port: 80 }]")],
    ["a Service with no selector", "apiVersion: v1\nkind: Service\nmetadata: { name: front }\nspec: { ports: [{ port: 80 }] }\n"],
    ["a Service that is a hook", service("app: none").replace("name: front", 'name: front, annotations: { "helm.sh/hook": test }')],
    ["a Service of another API group", service("app: none").replace("apiVersion: v1", "apiVersion: serving.knative.dev/v1")],
  ])("leaves alone %s", async (_, yaml) => {
    expect(await of(`${pod("app: web")}---\n${yaml}`, { engine: "release" })).toStrictEqual([]);
  });
});

describe("service-target-port", () => {
  const rows = async (ports: string, podPorts?: string) => of(`${pod("app: web", podPorts)}---\n${service("app: web", ports)}`);

  it("is an error for a name the selected pods do not define, a warning for a number they do not list", async () => {
    expect(await rows("[{ name: http, port: 80, targetPort: metrics }]")).toStrictEqual([
      ["service-target-port", "error", "Service web/front", "spec.ports[name=http].targetPort"],
    ]);
    expect(await rows("[{ port: 80, targetPort: 9090 }]")).toStrictEqual([["service-target-port", "warning", "Service web/front", "spec.ports[0].targetPort"]]);
    expect(await rows('[{ name: a, port: 80, targetPort: http }, { port: 81, targetPort: "9090" }]')).toStrictEqual([
      ["service-target-port", "warning", "Service web/front", "spec.ports[1].targetPort"],
    ]);
    // No targetPort: the port itself is the target.
    expect(await rows("[{ name: http, port: 80 }]")).toStrictEqual([
      ["service-target-port", "warning", "Service web/front", "spec.ports[name=http].targetPort"],
    ]);
  });

  // tempo-distributed 3.3.0's memcached Service keeps "http-metrics" for an exporter that is off by default.
  it("is a warning for a name no container defines when another port of the Service gets endpoints, unless the name is a typo", async () => {
    const messagesOf = async (ports: string) => messages(`${pod("app: web")}---\n${service("app: web", ports)}`);
    expect(await rows("[{ name: client, port: 80, targetPort: http }, { name: metrics, port: 9150, targetPort: http-metrics }]")).toStrictEqual([
      ["service-target-port", "warning", "Service web/front", "spec.ports[name=metrics].targetPort"],
    ]);
    expect(await messagesOf("[{ name: client, port: 80, targetPort: http }, { name: metrics, port: 9150, targetPort: http-metrics }]")).toStrictEqual([
      'targets port "http-metrics", which no container of the selected pods names ("http"): this port gets no endpoints, the Service\'s other ports do (a container the chart leaves out, such as a metrics exporter turned off?)',
    ]);
    // A number always gets endpoints.
    expect(await rows("[{ name: client, port: 80, targetPort: 8080 }, { name: metrics, port: 9150, targetPort: http-metrics }]")).toStrictEqual([
      ["service-target-port", "warning", "Service web/front", "spec.ports[name=metrics].targetPort"],
    ]);
    // A typo of a declared name, or no other port that serves: an error.
    expect(await rows("[{ name: client, port: 80, targetPort: http }, { name: other, port: 81, targetPort: htp }]")).toStrictEqual([
      ["service-target-port", "error", "Service web/front", "spec.ports[name=other].targetPort"],
    ]);
    expect(await messagesOf("[{ name: client, port: 80, targetPort: http }, { name: other, port: 81, targetPort: htp }]")).toStrictEqual([
      'targets port "htp", which no container of the selected pods names ("http"): this port gets no endpoints, the Service\'s other ports do',
    ]);
    expect(await rows("[{ name: a, port: 80, targetPort: metrics }, { name: b, port: 81, targetPort: admin }]")).toStrictEqual([
      ["service-target-port", "error", "Service web/front", "spec.ports[name=a].targetPort"],
      ["service-target-port", "error", "Service web/front", "spec.ports[name=b].targetPort"],
    ]);
  });

  it("accepts a target the pods define by name or number, or a number where the pods declare no ports", async () => {
    expect(await rows("[{ name: http, port: 80, targetPort: http }]")).toStrictEqual([]);
    expect(await rows("[{ name: http, port: 80, targetPort: 8080 }]")).toStrictEqual([]);
    expect(await rows("[{ name: http, port: 8080 }]")).toStrictEqual([]);
    expect(await rows("[{ name: http, port: 80, targetPort: 9090 }]", "[]")).toStrictEqual([]);
  });

  it("does not take a port from an init container, which does not serve", async () => {
    const yaml = `${pod("app: web", "[]", "\n      initContainers:\n        - { name: init, image: i:1, ports: [{ name: http, containerPort: 8080 }] }")}---\n${service("app: web")}`;
    expect(await of(yaml)).toStrictEqual([["service-target-port", "error", "Service web/front", "spec.ports[name=http].targetPort"]]);
  });

  it("checks a Service that selects nothing against the chart's own pods, by name only", async () => {
    const named = `${pod("app: web")}---\n${service("app: database", "[{ name: db, port: 5432, targetPort: postgres }]")}`;
    expect((await of(named)).map((row) => row[0])).toStrictEqual(["service-selects-pods", "service-target-port"]);
    const chartHas = `${pod("app: web")}---\n${service("app: database", "[{ name: db, port: 5432, targetPort: http }]")}`;
    expect((await of(chartHas)).map((row) => row[0])).toStrictEqual(["service-selects-pods"]);
    const number = `${pod("app: web")}---\n${service("app: database", "[{ name: db, port: 5432, targetPort: 5432 }]")}`;
    expect((await of(number)).map((row) => row[0])).toStrictEqual(["service-selects-pods"]);
    // A hook's pods are not the chart's serving pods.
    const hookOnly = `${pod("app: job").replace("name: web", 'name: job, annotations: { "helm.sh/hook": pre-install }')}---\n${service("app: database", "[{ name: db, port: 5432, targetPort: http }]")}---\n${pod("app: web", "[]").replace("name: web", "name: other")}`;
    expect((await of(hookOnly, { engine: "release" })).map((row) => row[0])).toStrictEqual(["service-selects-pods", "service-target-port"]);
  });

  it("leaves the ports to the operator where its custom resources may make the pods, unless the selector is a typo", async () => {
    const operated = `${pod("app: web")}---\n${service("app: prometheus", "[{ name: web, port: 9090, targetPort: web }]")}---\n${cr("main")}`;
    expect((await of(operated)).map((row) => row.slice(0, 2))).toStrictEqual([["service-selects-pods", "warning"]]);
    const typo = `${pod("app: web")}---\n${service("app: wbe", "[{ name: web, port: 9090, targetPort: web }]")}---\n${cr("main")}`;
    expect((await of(typo)).map((row) => row.slice(0, 2))).toStrictEqual([
      ["service-selects-pods", "error"],
      ["service-target-port", "error"],
    ]);
  });
});

describe("probe-port", () => {
  const probe = (probe: string) => of(pod("app: web", "[{ name: http, containerPort: 8080 }]", `\n          ${probe}`));

  it.each([
    ["readinessProbe: { httpGet: { path: /, port: health } }", "readinessProbe.httpGet.port"],
    ["livenessProbe: { tcpSocket: { port: health } }", "livenessProbe.tcpSocket.port"],
    ["startupProbe: { grpc: { port: health } }", "startupProbe.grpc.port"],
  ])("is an error for a named port the container does not define: %s", async (yaml, path) => {
    expect(await probe(yaml)).toStrictEqual([["probe-port", "error", "Deployment.apps web/web", `spec.template.spec.containers[name=web].${path}`]]);
  });

  it.each([
    "readinessProbe: { httpGet: { path: /, port: http } }",
    "livenessProbe: { tcpSocket: { port: 9999 } }",
    'startupProbe: { httpGet: { port: "9999" } }',
    "livenessProbe: { exec: { command: [true] } }",
  ])("accepts %s", async (yaml) => {
    expect(await probe(yaml)).toStrictEqual([]);
  });
});

describe("ingress-backend", () => {
  const ingress = (spec: string, meta = "") => `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: { name: site${meta} }\nspec: ${spec}\n`;
  const rule = (backend: string) => `{ rules: [{ http: { paths: [{ path: /, pathType: Prefix, backend: ${backend} }] } }] }`;
  const withService = (yaml: string) => `${service("app: web", "[{ name: http, port: 80, targetPort: http }]")}---\n${pod("app: web")}---\n${yaml}`;

  it.each([
    ["a missing Service", rule("{ service: { name: missing, port: { number: 80 } } }"), "spec.rules[0].http.paths[0].backend.service"],
    ["a port number the Service lacks", rule("{ service: { name: front, port: { number: 8080 } } }"), "spec.rules[0].http.paths[0].backend.service"],
    ["a port name the Service lacks", rule("{ service: { name: front, port: { name: https } } }"), "spec.rules[0].http.paths[0].backend.service"],
    ["a missing default backend", "{ defaultBackend: { service: { name: missing, port: { number: 80 } } } }", "spec.defaultBackend.service"],
    ["a legacy backend's missing Service", "{ backend: { serviceName: missing, servicePort: 80 } }", "spec.backend"],
    ["a legacy backend's missing port", "{ backend: { serviceName: front, servicePort: https } }", "spec.backend"],
    ["a legacy path backend's missing port", rule("{ serviceName: front, servicePort: 81 }"), "spec.rules[0].http.paths[0].backend"],
  ])("is an error for %s", async (_, spec, path) => {
    expect(await of(withService(ingress(spec)))).toStrictEqual([["ingress-backend", "error", "Ingress.networking.k8s.io web/site", path]]);
  });

  it.each([
    ["a Service and port by number", rule("{ service: { name: front, port: { number: 80 } } }")],
    ["a Service and port by name", rule("{ service: { name: front, port: { name: http } } }")],
    ["a Service with no port given", rule("{ service: { name: front } }")],
    ["a legacy backend by name", "{ backend: { serviceName: front, servicePort: http } }"],
    ["a legacy backend by number", rule('{ serviceName: front, servicePort: "80" }')],
    ["a backend that is a resource, not a Service", rule("{ resource: { apiGroup: example.test, kind: Bucket, name: b } }")],
  ])("accepts %s", async (_, spec) => {
    expect(await of(withService(ingress(spec)))).toStrictEqual([]);
  });

  it("accepts a Service declared external, and leaves a hook Ingress alone", async () => {
    const missing = ingress(rule("{ service: { name: auth, port: { number: 80 } } }"));
    expect(await of(missing, { external: "  - { kind: Service, name: auth }\n" })).toStrictEqual([]);
    expect(await of(missing, { external: "  - { kind: Service, name: auth, namespace: other }\n" })).toHaveLength(1);
    expect(
      await of(ingress(rule("{ service: { name: auth, port: { number: 80 } } }"), ', annotations: { "helm.sh/hook": test }'), { engine: "release" }),
    ).toStrictEqual([]);
  });

  it("checks an HTTPRoute's Service backends, in the namespace each names", async () => {
    const route = (refs: string) =>
      `apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: { name: route }\nspec: { rules: [{ backendRefs: ${refs} }] }\n`;
    const path = "spec.rules[0].backendRefs[0]";
    expect(await of(withService(route("[{ name: front, port: 81 }]")))).toStrictEqual([
      ["ingress-backend", "error", "HTTPRoute.gateway.networking.k8s.io web/route", path],
    ]);
    expect(await of(withService(route("[{ name: front, namespace: other, port: 80 }]")))).toStrictEqual([
      ["ingress-backend", "error", "HTTPRoute.gateway.networking.k8s.io web/route", path],
    ]);
    expect(await of(withService(route("[{ name: front, port: 80 }, { name: front }]")))).toStrictEqual([]);
    expect(await of(withService(route("[{ kind: Bucket, group: example.test, name: missing }]")))).toStrictEqual([]);
    const otherGroup = route("[{ name: missing, port: 80 }]").replace("gateway.networking.k8s.io/v1", "example.test/v1");
    expect(await of(otherGroup)).toStrictEqual([]);
  });
});

describe("reference-exists", () => {
  const needs = (extra: string) => pod("app: web", "[]", `\n${extra}`);

  it.each([
    ["an optional Secret key", "          env: [{ name: A, valueFrom: { secretKeyRef: { name: missing, key: k, optional: true } } }]"],
    ["an optional ConfigMap source", "          envFrom: [{ configMapRef: { name: missing, optional: true } }]"],
    ["the default ServiceAccount", "      serviceAccountName: default"],
    ["an optional projected Secret", "      volumes: [{ name: p, projected: { sources: [{ secret: { name: missing, optional: true } }] } }]"],
  ])("accepts %s", async (_, extra) => {
    expect(await of(needs(extra))).toStrictEqual([]);
  });

  it.each([
    [
      "a ConfigMap key",
      "          env: [{ name: A, valueFrom: { configMapKeyRef: { name: missing, key: k } } }]",
      "spec.template.spec.containers[name=web].env[name=A].valueFrom.configMapKeyRef.name",
    ],
    ["a Secret source", "          envFrom: [{ secretRef: { name: missing } }]", "spec.template.spec.containers[name=web].envFrom[0].secretRef.name"],
    ["a Secret volume", "      volumes: [{ name: s, secret: { secretName: missing } }]", "spec.template.spec.volumes[name=s].secret.secretName"],
    ["a ConfigMap volume", "      volumes: [{ name: c, configMap: { name: missing } }]", "spec.template.spec.volumes[name=c].configMap.name"],
    [
      "a projected ConfigMap",
      "      volumes: [{ name: p, projected: { sources: [{ configMap: { name: missing } }] } }]",
      "spec.template.spec.volumes[name=p].projected.sources[0].configMap.name",
    ],
    [
      "a projected Secret",
      "      volumes: [{ name: p, projected: { sources: [{ secret: { name: missing } }] } }]",
      "spec.template.spec.volumes[name=p].projected.sources[0].secret.name",
    ],
    ["the old serviceAccount field", "      serviceAccount: missing", "spec.template.spec.serviceAccountName"],
  ])("is an error for a missing %s", async (_, extra, path) => {
    expect(await of(needs(extra))).toStrictEqual([["reference-exists", "error", "Deployment.apps web/web", path]]);
  });

  it("accepts what another chart of the stack creates, or what is declared external", async () => {
    const user = needs("          envFrom: [{ secretRef: { name: shared } }]");
    const secret = "apiVersion: v1\nkind: Secret\nmetadata: { name: shared }\n";
    expect(await found([chart("app", user), chart("other", secret)])).toStrictEqual([]);
    expect(await of(user, { external: "  - { kind: Secret, name: shared, namespace: web }\n" })).toStrictEqual([]);
    // The same name in another namespace is not it.
    expect(await found([chart("app", user), chart("other", secret, "other")])).toHaveLength(1);
  });

  it("tells a Secret only a hook creates apart from one nothing creates, by engine", async () => {
    const user = needs("          envFrom: [{ secretRef: { name: made } }]");
    const hookSecret = (events: string) => `apiVersion: v1\nkind: Secret\nmetadata: { name: made, annotations: { "helm.sh/hook": "${events}" } }\n`;
    // helm.v4.Chart drops hooks: the Secret never exists.
    const dropped = await runPolicies({
      stack: "dev",
      kubeVersion: "1.31.0",
      charts: [chart("app", `${user}---\n${hookSecret("pre-install,pre-upgrade")}`)],
      rules: AGREEMENT,
      settings: emptySettings(),
      today: "2026-11-30",
    });
    expect(dropped.map((f) => [f.rule, f.severity])).toStrictEqual([["reference-exists", "error"]]);
    expect(dropped[0]?.hint).toContain('engine: "release"');
    // Under a Release a pre-install hook is there when the release's objects are created.
    expect(await of(`${user}---\n${hookSecret("pre-install,pre-upgrade")}`, { engine: "release" })).toStrictEqual([]);
    // A post-install hook is not there on a first install; on upgrades it is (kept from the install).
    expect((await of(`${user}---\n${hookSecret("post-install")}`, { engine: "release" })).map((row) => row.slice(0, 2))).toStrictEqual([
      ["reference-exists", "warning"],
    ]);
    // A hook pod under helm.v4.Chart never runs, so its references are not checked.
    const hookPod = user.replace("name: web", 'name: web, annotations: { "helm.sh/hook": pre-install }');
    expect(await of(hookPod)).toStrictEqual([]);
    expect((await of(hookPod, { engine: "release" })).map((row) => row[0])).toStrictEqual(["reference-exists"]);
  });

  // kube-prometheus-stack and ingress-nginx: a pre-install Job (kube-webhook-certgen) makes the
  // webhook's certificate Secret that the operator's Deployment mounts; no template renders it.
  describe("a Secret a pre-install hook's program makes", () => {
    const user = needs("      volumes: [{ name: tls, secret: { secretName: admission } }]");
    const job = (events = "pre-install,pre-upgrade", args = "[create, --namespace=web, --secret-name=admission]", account = "certgen") =>
      `apiVersion: batch/v1\nkind: Job\nmetadata: { name: admission-create, annotations: { "helm.sh/hook": "${events}" } }\nspec:\n  template:\n    spec:\n      serviceAccountName: ${account}\n      restartPolicy: OnFailure\n      containers: [{ name: create, image: certgen:1, args: ${args} }]\n`;
    const account = `apiVersion: v1\nkind: ServiceAccount\nmetadata: { name: certgen, annotations: { "helm.sh/hook": "pre-install,pre-upgrade", "helm.sh/hook-weight": "-5" } }\n`;
    const role = (verbs = "[get, create]", kind = "Role") =>
      `apiVersion: rbac.authorization.k8s.io/v1\nkind: ${kind}\nmetadata: { name: certgen }\nrules: [{ apiGroups: [""], resources: [secrets], verbs: ${verbs} }]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ${kind}Binding\nmetadata: { name: certgen }\nroleRef: { apiGroup: rbac.authorization.k8s.io, kind: ${kind}, name: certgen }\nsubjects: [{ kind: ServiceAccount, name: certgen, namespace: web }]\n`;
    const stack = (...parts: string[]) => [user, ...parts].join("---\n");

    it.each([
      ["a Role", stack(job(), account, role())],
      ["a ClusterRole", stack(job(), account, role("[create]", "ClusterRole"))],
      ["the name as an argument of its own", stack(job("pre-install", "[create, --secret-name, admission]"), account, role("['*']"))],
    ])("exists when the Job names it and may create Secrets through %s", async (_, yaml) => {
      expect(await of(yaml, { engine: "release" })).toStrictEqual([]);
    });

    it.each([
      ["the Job may not create Secrets", stack(job(), account, role("[get, list]"))],
      ["no role is bound to its account", stack(job(), account)],
      ["the Job names another Secret", stack(job("pre-install", "[create, --secret-name=admission-old]"), account, role())],
      ["the Job runs after the install", stack(job("post-install"), account, role())],
    ])("is still missing when %s", async (_, yaml) => {
      expect((await of(yaml, { engine: "release" })).map((row) => row.slice(0, 2))).toStrictEqual([["reference-exists", "error"]]);
    });

    it("is missing under helm.v4.Chart, which never runs the Job", async () => {
      expect((await of(stack(job(), account, role()))).map((row) => row.slice(0, 2))).toStrictEqual([["reference-exists", "error"]]);
    });

    // KEDA 2.20.2: the operator makes kedaorg-certs as it starts; its metrics server and webhooks mount it and wait.
    it("exists under either engine when a workload of the release makes it", async () => {
      const operator = `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: operator }\nspec:\n  selector: { matchLabels: { app: op } }\n  template:\n    metadata: { labels: { app: op } }\n    spec:\n      serviceAccountName: certgen\n      containers: [{ name: op, image: op:1, args: [--cert-secret-name=admission] }]\n`;
      const plain = account.replace(/, annotations: \{[^}]*\}/, "");
      expect(await of(stack(operator, plain, role()))).toStrictEqual([]);
      expect(await of(stack(operator, plain, role()), { engine: "release" })).toStrictEqual([]);
    });
  });
});

describe("hpa-target, selector-matches-pods, workload-selector", () => {
  const hpa = (kind: string, name: string, meta = "") =>
    `apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: scale${meta} }\nspec: { scaleTargetRef: { apiVersion: apps/v1, kind: ${kind}, name: ${name} }, maxReplicas: 3 }\n`;

  it("hpa-target: an error for a workload the stack does not create, by kind and name", async () => {
    expect(await of(`${pod("app: web")}---\n${hpa("Deployment", "missing")}`)).toStrictEqual([
      ["hpa-target", "error", "HorizontalPodAutoscaler.autoscaling web/scale", "spec.scaleTargetRef"],
    ]);
    expect(await of(`${pod("app: web")}---\n${hpa("StatefulSet", "web")}`)).toHaveLength(1);
    expect(await of(`${pod("app: web")}---\n${hpa("Deployment", "web")}`)).toStrictEqual([]);
    expect(await of(hpa("Deployment", "outside"), { external: "  - { kind: Deployment, name: outside }\n" })).toStrictEqual([]);
    expect(await of(hpa("Deployment", "missing", ', annotations: { "helm.sh/hook": post-install }'), { engine: "release" })).toStrictEqual([]);
  });

  it("selector-matches-pods: a warning for a PodDisruptionBudget or NetworkPolicy that selects no pod", async () => {
    const pdb = (selector: string, meta = "") =>
      `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: { name: budget${meta} }\nspec: { maxUnavailable: 1, selector: ${selector} }\n`;
    const netpol = (selector: string) =>
      `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: { name: fence }\nspec: { podSelector: ${selector} }\n`;
    expect(await of(`${pod("app: web")}---\n${pdb("{ matchLabels: { app: none } }")}`)).toStrictEqual([
      ["selector-matches-pods", "warning", "PodDisruptionBudget.policy web/budget", "spec.selector"],
    ]);
    expect(await of(`${pod("app: web")}---\n${netpol("{ matchLabels: { app: none } }")}`)).toStrictEqual([
      ["selector-matches-pods", "warning", "NetworkPolicy.networking.k8s.io web/fence", "spec.podSelector"],
    ]);
    expect(await of(`${pod("app: web")}---\n${pdb("{ matchLabels: { app: web } }")}`)).toStrictEqual([]);
    expect(await of(`${pod("app: web")}---\n${netpol("{}")}`)).toStrictEqual([]);
    expect(await of(`${pod("app: web")}---\n${netpol("{ matchExpressions: [{ key: app, operator: Exists }] }")}`)).toStrictEqual([]);
    expect(
      await of(`${pod("app: web")}---\n${pdb("{ matchLabels: { app: none } }", ', annotations: { "helm.sh/hook": test }')}`, { engine: "release" }),
    ).toStrictEqual([]);
  });

  it("workload-selector: an error for a workload whose selector misses its own pods; Jobs, CronJobs and bare pods have none to check", async () => {
    const mismatched = pod("app: web").replace("selector: { matchLabels: { app: web } }", "selector: { matchLabels: { app: other } }");
    expect(await of(mismatched)).toStrictEqual([["workload-selector", "error", "Deployment.apps web/web", "spec.selector"]]);
    expect(await of(pod("app: web").replace("  selector: { matchLabels: { app: web } }\n", ""))).toStrictEqual([]);
    const job = `apiVersion: batch/v1\nkind: Job\nmetadata: { name: once }\nspec:\n  selector: { matchLabels: { app: other } }\n  template:\n    metadata: { labels: { app: job } }\n    spec: { restartPolicy: Never, containers: [{ name: j, image: j:1 }] }\n`;
    expect(await of(job)).toStrictEqual([]);
    const bare = "apiVersion: v1\nkind: Pod\nmetadata: { name: one, labels: { app: one } }\nspec: { containers: [{ name: p, image: p:1 }] }\n";
    expect(await of(bare)).toStrictEqual([]);
  });
});

describe("servicemonitor-selects-service", () => {
  const monitor = (spec: string, group = "monitoring.coreos.com") =>
    `apiVersion: ${group}/v1\nkind: ServiceMonitor\nmetadata: { name: scrape }\nspec: ${spec}\n`;
  const labelled = service("app: web").replace("name: front", "name: front, labels: { app: web }");

  it("is an error for a selector a letter or two from a Service's labels, or a port no selected Service names", async () => {
    const typo = `${pod("app: web")}---\n${labelled}---\n${monitor("{ selector: { matchLabels: { app: wbe } }, endpoints: [{ port: http }] }")}`;
    expect(await of(typo)).toStrictEqual([["servicemonitor-selects-service", "error", "ServiceMonitor.monitoring.coreos.com web/scrape", "spec.selector"]]);
    expect(await messages(typo)).toStrictEqual(['selects no Service in web; Service front has {"app":"web"}']);
    expect(
      await of(
        `${pod("app: web")}---\n${labelled}---\n${monitor("{ selector: { matchLabels: { app: web } }, endpoints: [{ port: http }, { port: metrics }] }")}`,
      ),
    ).toStrictEqual([["servicemonitor-selects-service", "error", "ServiceMonitor.monitoring.coreos.com web/scrape", "spec.endpoints[1].port"]]);
  });

  // kube-prometheus-stack's monitors of the API server (the `kubernetes` Service in default) and of the
  // kubelet (a Service prometheus-operator keeps in kube-system): no chart renders either.
  it("is a warning for a selector that matches nothing the stack renders, nor nearly", async () => {
    const apiserver = monitor(
      "{ namespaceSelector: { matchNames: [default] }, selector: { matchLabels: { component: apiserver, provider: kubernetes } }, endpoints: [{ port: https }] }",
    );
    const kubelet = monitor("{ selector: { matchLabels: { k8s-app: kubelet } }, endpoints: [{ port: https-metrics }] }");
    expect(await of(`${pod("app: web")}---\n${labelled}---\n${apiserver}`)).toStrictEqual([
      ["servicemonitor-selects-service", "warning", "ServiceMonitor.monitoring.coreos.com web/scrape", "spec.selector"],
    ]);
    expect(await of(`${pod("app: web")}---\n${labelled}---\n${kubelet}`)).toStrictEqual([
      ["servicemonitor-selects-service", "warning", "ServiceMonitor.monitoring.coreos.com web/scrape", "spec.selector"],
    ]);
    expect((await messages(`${pod("app: web")}---\n${labelled}---\n${kubelet}`))[0]).toContain("the cluster or an operator may provide it");
  });

  it("looks in the namespaces the monitor names, and leaves other kinds called ServiceMonitor alone", async () => {
    const scoped = monitor("{ namespaceSelector: { matchNames: [apps] }, selector: { matchLabels: { app: web } }, endpoints: [{ port: http }] }");
    expect(await found([chart("mon", scoped), chart("app", `${pod("app: web")}---\n${labelled}`, "apps")])).toStrictEqual([]);
    expect(await found([chart("mon", scoped), chart("app", `${pod("app: web")}---\n${labelled}`, "web")])).toHaveLength(1);
    expect(
      await of(`${pod("app: web")}---\n${labelled}---\n${monitor("{ selector: { matchLabels: { app: web } }, endpoints: [{ targetPort: 8080 }] }")}`),
    ).toStrictEqual([]);
    expect(await of(monitor("{ selector: { matchLabels: { app: none } } }", "example.test"))).toStrictEqual([]);
  });
});
