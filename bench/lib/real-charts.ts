/**
 * Charts shaped like the public ones platform teams run, for the peer
 * benchmarks: an application chart (tens of objects, `tpl` over values,
 * Grafana dashboards as long one-line JSON strings in ConfigMaps, a packed
 * subchart) and an operator chart (CustomResourceDefinitions of several
 * hundred KB with long descriptions, wide RBAC, a webhook, custom resources
 * of its own group). Version 2 changes what a real bump changes: image tags,
 * a flag in a controller's args, one panel of a dashboard, CRD fields.
 */
import { packChart } from "../../test/helpers/pack.js";

type Files = Map<string, Buffer>;

function put(files: Files, path: string, text: string): void {
  files.set(path, Buffer.from(text));
}

const HELPERS = (name: string) => `{{- define "${name}.fullname" -}}
{{- if contains .Chart.Name .Release.Name }}{{ .Release.Name | trunc 63 | trimSuffix "-" }}{{ else }}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}{{ end }}
{{- end -}}
{{- define "${name}.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
{{- define "${name}.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "${name}.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}
`;

/** A Grafana dashboard as Grafana exports it: one long JSON line of panels and targets. */
function dashboard(title: string, panels: number, changedPanel: number | undefined): string {
  const panel = (i: number) => ({
    id: i,
    type: i % 3 === 0 ? "stat" : "timeseries",
    title: `${title} panel ${i}`,
    gridPos: { h: 8, w: 12, x: (i % 2) * 12, y: Math.floor(i / 2) * 8 },
    datasource: { type: "prometheus", uid: "${datasource}" },
    targets: [
      {
        expr: `sum(rate(http_requests_total{job="${title}",code=~"5.."}[${i === changedPanel ? "1m" : "5m"}])) by (instance) / sum(rate(http_requests_total{job="${title}"}[5m])) by (instance)`,
        legendFormat: "{{instance}}",
        refId: "A",
      },
    ],
    fieldConfig: { defaults: { unit: "percentunit", thresholds: { mode: "absolute", steps: [{ color: "green" }, { color: "red", value: 0.05 }] } } },
    options: { legend: { displayMode: "table", placement: "bottom", calcs: ["mean", "max", "lastNotNull"] }, tooltip: { mode: "multi" } },
  });
  return JSON.stringify({
    title,
    uid: title.replace(/[^a-z0-9]/g, "").slice(0, 12),
    schemaVersion: 39,
    templating: { list: [{ name: "datasource", type: "datasource", query: "prometheus" }] },
    panels: Array.from({ length: panels }, (_, i) => panel(i)),
  });
}

/** A small cache subchart (StatefulSet, Service, ConfigMap), packed into the parent's charts/ as `helm dependency build` does. */
async function cacheSubchart(): Promise<Buffer> {
  const files: Files = new Map();
  put(files, "Chart.yaml", "apiVersion: v2\nname: cache\nversion: 7.2.4\nappVersion: 7.2.4\n");
  put(files, "values.yaml", "replicas: 1\nimage: registry.example.test/cache:7.2.4\nmaxMemory: 256mb\n");
  put(files, "templates/_helpers.tpl", HELPERS("cache"));
  const meta = `metadata:\n  name: {{ include "cache.fullname" . }}\n  labels:\n    {{- include "cache.labels" . | nindent 4 }}`;
  put(
    files,
    "templates/statefulset.yaml",
    `apiVersion: apps/v1\nkind: StatefulSet\n${meta}\nspec:\n  serviceName: {{ include "cache.fullname" . }}\n  replicas: {{ .Values.replicas }}\n  selector:\n    matchLabels:\n      {{- include "cache.selectorLabels" . | nindent 6 }}\n  template:\n    metadata:\n      labels:\n        {{- include "cache.selectorLabels" . | nindent 8 }}\n    spec:\n      securityContext: { runAsNonRoot: true, runAsUser: 1001, fsGroup: 1001 }\n      containers:\n        - name: cache\n          image: {{ .Values.image }}\n          args: ["--maxmemory", {{ .Values.maxMemory | quote }}]\n          ports: [{ name: cache, containerPort: 6379 }]\n          readinessProbe: { tcpSocket: { port: cache } }\n          resources: { requests: { cpu: 100m, memory: 128Mi }, limits: { memory: 512Mi } }\n          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } }\n          volumeMounts: [{ name: data, mountPath: /data }]\n  volumeClaimTemplates:\n    - metadata: { name: data }\n      spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 8Gi } } }\n`,
  );
  put(
    files,
    "templates/service.yaml",
    `apiVersion: v1\nkind: Service\n${meta}\nspec:\n  clusterIP: None\n  selector:\n    {{- include "cache.selectorLabels" . | nindent 4 }}\n  ports: [{ name: cache, port: 6379, targetPort: cache }]\n`,
  );
  put(
    files,
    "templates/configmap.yaml",
    `apiVersion: v1\nkind: ConfigMap\n${meta}-config\ndata:\n  cache.conf: |\n    maxmemory {{ .Values.maxMemory }}\n    maxmemory-policy allkeys-lru\n    appendonly no\n`,
  );
  return packChart("cache", files, new Date(0));
}

/**
 * An application chart: `workers` Deployments with their Services, HPAs and
 * PDBs, ServiceAccount and RBAC, an Ingress, a CronJob, a NetworkPolicy,
 * ServiceMonitors, `dashboards` ConfigMaps of one-line JSON, extra env
 * through `tpl`, and the cache subchart.
 */
export async function appChart(name: string, version: 1 | 2, options: { workers?: number; dashboards?: number } = {}): Promise<Buffer> {
  const workers = options.workers ?? 6;
  const files: Files = new Map();
  const next = version === 2;
  put(
    files,
    "Chart.yaml",
    `apiVersion: v2\nname: ${name}\nversion: ${version}.0.0\nappVersion: "${next ? "3.5.0" : "3.4.2"}"\ndependencies:\n  - name: cache\n    version: 7.2.4\n    condition: cache.enabled\n`,
  );
  put(
    files,
    "values.yaml",
    `image:\n  repository: registry.example.test/${name}\n  tag: ""\nreplicaCount: 2\nworkers: ${workers}\nextraEnv: |\n  - name: RELEASE\n    value: "{{ .Release.Name }}"\n  - name: NAMESPACE\n    value: "{{ .Release.Namespace }}"\ncache:\n  enabled: true\nresources:\n  requests: { cpu: 100m, memory: 128Mi }\n  limits: { memory: 256Mi }\ningress:\n  host: ${name}.example.test\nmetrics:\n  interval: 30s\ndashboardAnnotations: {}\n`,
  );
  put(files, "templates/_helpers.tpl", HELPERS(name));
  // As most charts' notes read: "now" in prose is not a call to the clock, and the chart renders once per side.
  put(
    files,
    "templates/NOTES.txt",
    `${name} is now running. Its workers:\n{{- range $i := until (int .Values.workers) }}\n  {{ include "${name}.fullname" $ }}-w{{ $i }}\n{{- end }}\n`,
  );
  const meta = (suffix: string) =>
    `metadata:\n  name: {{ include "${name}.fullname" $ }}${suffix}\n  labels:\n    {{- include "${name}.labels" $ | nindent 4 }}`;
  const args = [
    "--log-format=json",
    "--metrics-addr=:9090",
    "--shutdown-grace=30s",
    "--max-conns=512",
    "--cache-size=64Mi",
    ...(next ? ["--enable-tracing"] : []),
  ];
  put(
    files,
    "templates/workers.yaml",
    `{{- range $i := until (int .Values.workers) }}
---
apiVersion: apps/v1
kind: Deployment
${meta("-w{{ $i }}")}
    app.kubernetes.io/component: worker-{{ $i }}
spec:
  replicas: {{ $.Values.replicaCount }}
  selector:
    matchLabels:
      {{- include "${name}.selectorLabels" $ | nindent 6 }}
      app.kubernetes.io/component: worker-{{ $i }}
  template:
    metadata:
      labels:
        {{- include "${name}.selectorLabels" $ | nindent 8 }}
        app.kubernetes.io/component: worker-{{ $i }}
    spec:
      serviceAccountName: {{ include "${name}.fullname" $ }}
      securityContext: { runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: RuntimeDefault } }
      containers:
        - name: worker
          image: "{{ $.Values.image.repository }}:{{ $.Values.image.tag | default $.Chart.AppVersion }}"
          args:
${args.map((arg) => `            - ${arg}`).join("\n")}
          env:
            - { name: WORKER, value: "{{ $i }}" }
            {{- tpl $.Values.extraEnv $ | nindent 12 }}
          ports: [{ name: http, containerPort: 8080 }, { name: metrics, containerPort: 9090 }]
          readinessProbe: { httpGet: { path: /ready, port: http } }
          livenessProbe: { httpGet: { path: /live, port: http } }
          resources: {{- toYaml $.Values.resources | nindent 12 }}
          securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: [ALL] } }
---
apiVersion: v1
kind: Service
${meta("-w{{ $i }}")}
spec:
  selector:
    {{- include "${name}.selectorLabels" $ | nindent 4 }}
    app.kubernetes.io/component: worker-{{ $i }}
  ports: [{ name: http, port: 80, targetPort: http }, { name: metrics, port: 9090, targetPort: metrics }]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
${meta("-w{{ $i }}")}
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: {{ include "${name}.fullname" $ }}-w{{ $i }} }
  minReplicas: 2
  maxReplicas: ${next ? 12 : 10}
  metrics: [{ type: Resource, resource: { name: cpu, target: { type: Utilization, averageUtilization: 70 } } }]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
${meta("-w{{ $i }}")}
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      {{- include "${name}.selectorLabels" $ | nindent 6 }}
      app.kubernetes.io/component: worker-{{ $i }}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
${meta("-w{{ $i }}")}
spec:
  selector:
    matchLabels:
      {{- include "${name}.selectorLabels" $ | nindent 6 }}
  endpoints: [{ port: metrics, interval: {{ $.Values.metrics.interval }} }]
{{- end }}
`,
  );
  put(
    files,
    "templates/rbac.yaml",
    `apiVersion: v1\nkind: ServiceAccount\n${meta("")}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\n${meta("")}\nrules:\n  - { apiGroups: [""], resources: [configmaps, secrets], verbs: [get, list, watch] }\n  - { apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, create, update] }\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n${meta("")}\nroleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: {{ include "${name}.fullname" . }} }\nsubjects: [{ kind: ServiceAccount, name: {{ include "${name}.fullname" . }}, namespace: {{ .Release.Namespace }} }]\n`,
  );
  put(
    files,
    "templates/ingress.yaml",
    `apiVersion: networking.k8s.io/v1\nkind: Ingress\n${meta("")}\n  annotations: { nginx.ingress.kubernetes.io/proxy-body-size: 8m }\nspec:\n  ingressClassName: nginx\n  rules:\n    - host: {{ .Values.ingress.host }}\n      http:\n        paths:\n          - { path: /, pathType: Prefix, backend: { service: { name: {{ include "${name}.fullname" . }}-w0, port: { name: http } } } }\n  tls: [{ hosts: [{{ .Values.ingress.host }}], secretName: {{ include "${name}.fullname" . }}-tls }]\n---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\n${meta("")}\nspec:\n  podSelector:\n    matchLabels:\n      {{- include "${name}.selectorLabels" . | nindent 6 }}\n  policyTypes: [Ingress]\n  ingress: [{ from: [{ namespaceSelector: { matchLabels: { kubernetes.io/metadata.name: ingress-nginx } } }], ports: [{ port: 8080 }] }]\n`,
  );
  put(
    files,
    "templates/cronjob.yaml",
    `apiVersion: batch/v1\nkind: CronJob\n${meta("-compact")}\nspec:\n  schedule: "17 3 * * *"\n  concurrencyPolicy: Forbid\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          serviceAccountName: {{ include "${name}.fullname" . }}\n          securityContext: { runAsNonRoot: true, runAsUser: 10001 }\n          containers:\n            - name: compact\n              image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"\n              args: [compact, --older-than=720h]\n              resources: { requests: { cpu: 50m, memory: 64Mi } }\n`,
  );
  put(
    files,
    "templates/config.yaml",
    `apiVersion: v1\nkind: ConfigMap\n${meta("-config")}\ndata:\n  app.yaml: |\n    server:\n      port: 8080\n      readTimeout: 30s\n      writeTimeout: ${next ? "45s" : "30s"}\n    cache:\n      address: {{ .Release.Name }}-cache:6379\n      ttl: 10m\n    logging:\n      level: info\n      format: json\n${Array.from({ length: 40 }, (_, i) => `    feature${i}: ${i % 7 === 0 ? "true" : "false"}`).join("\n")}\n`,
  );
  const dashboards = options.dashboards ?? 3;
  for (let d = 0; d < dashboards; d++) {
    put(
      files,
      `files/dashboard-${d}.json`,
      dashboard(`${name} ${["overview", "latency", "errors", "saturation", "workers"][d % 5]}`, 24, next && d === 0 ? 5 : undefined),
    );
  }
  put(
    files,
    "templates/dashboards.yaml",
    // As kube-prometheus-stack's dashboards: `toYaml` of an empty map writes `{}` on the line below `annotations:`.
    `{{- range $path, $_ := .Files.Glob "files/dashboard-*.json" }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ include "${name}.fullname" $ }}-{{ base $path | trimSuffix ".json" }}\n  annotations:\n    {{- toYaml $.Values.dashboardAnnotations | nindent 4 }}\n  labels:\n    grafana_dashboard: "1"\n    {{- include "${name}.labels" $ | nindent 4 }}\ndata:\n  {{ base $path }}: {{ $.Files.Get $path | quote }}\n{{- end }}\n`,
  );
  files.set("charts/cache-7.2.4.tgz", await cacheSubchart());
  return packChart(name, files, new Date(0));
}

const PROSE = [
  "This field is part of the operator's API and is validated by the API server against this schema before the controller reconciles it.",
  "If not specified, the operator applies its default, which may change between releases; pin it explicitly to keep behaviour stable across upgrades.",
  "More info: https://kubernetes.io/docs/concepts/workloads/pods/ describes how the kubelet treats this setting and how it interacts with node pressure.",
  "Deprecated: this setting is kept for compatibility with manifests written for the previous API version and will be removed in a future release.",
];

/**
 * A description as operators ship them: several sentences, wrapped by the YAML
 * writer, as a literal block or (as controller-gen writes a text without line
 * breaks) a plain scalar over several lines, some of which start with a quote
 * or a backtick (prometheus-operator's "`Pod` objects", "'AzureChina'").
 */
function description(name: string, seed: number, pad: string): string {
  const text = `${name} configures one aspect of the resource. ${PROSE[seed % 4]} ${PROSE[(seed + 1) % 4]}`;
  if (seed % 2 === 0) return `${pad}description: |-\n${pad}  ${text.replace(/(.{1,90})(\s|$)/g, `$1\n${pad}  `).trimEnd()}`;
  // A plain scalar cannot hold ": " (a writer quotes such a text): the sentences say it another way.
  const plain = `${text.replaceAll(": ", " - ")} It selects the\n\`Pod\` objects to scrape, in 'AzurePublic', 'AzureChina', or\n'AzureGovernment'.`;
  return `${pad}description: ${plain.replace(/\n/g, `\n${pad}  `)}`;
}

/** An openAPIV3Schema property tree of real shape: objects, arrays of objects, maps, enums, int-or-string. */
function schemaTree(name: string, depth: number, pad: string, seed: number, changed: boolean): string {
  const kind = seed % 6;
  if (depth === 0 || kind === 5) {
    const leaf =
      kind % 3 === 0
        ? `${pad}  type: string\n${pad}  enum: [Always, IfNotPresent, Never]`
        : kind % 3 === 1
          ? `${pad}  format: int32\n${pad}  type: integer`
          : `${pad}  anyOf: [{ type: integer }, { type: string }]\n${pad}  x-kubernetes-int-or-string: true`;
    return `${pad}${name}:\n${description(name, seed, `${pad}  `)}\n${leaf}`;
  }
  const children = Array.from({ length: 7 }, (_, i) => schemaTree(`${name}${String.fromCharCode(97 + i)}`, depth - 1, `${pad}    `, seed * 7 + i + 1, changed));
  if (changed && seed % 5 === 1) children.push(`${pad}    ${name}Added:\n${pad}      description: Added in this release.\n${pad}      type: boolean`);
  const object = `${pad}  properties:\n${children.join("\n")}\n${pad}  type: object`;
  if (kind === 1) return `${pad}${name}:\n${description(name, seed, `${pad}  `)}\n${pad}  items:\n${object.replace(/^/gm, "  ")}\n${pad}  type: array`;
  if (kind === 2) return `${pad}${name}:\n${description(name, seed, `${pad}  `)}\n${pad}  additionalProperties:\n${pad}    type: string\n${pad}  type: object`;
  return `${pad}${name}:\n${description(name, seed, `${pad}  `)}\n${object}`;
}

function crd(group: string, kind: string, changed: boolean): string {
  const plural = `${kind.toLowerCase()}s`;
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.${group}
  annotations:
    controller-gen.kubebuilder.io/version: ${changed ? "v0.16.5" : "v0.15.0"}
spec:
  group: ${group}
  names: { kind: ${kind}, listKind: ${kind}List, plural: ${plural}, singular: ${kind.toLowerCase()} }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      subresources: { status: {} }
      schema:
        openAPIV3Schema:
          description: ${kind} defines a managed deployment of the operator's component.
          type: object
          required: [spec]
          properties:
            apiVersion: { type: string }
            kind: { type: string }
            metadata: { type: object }
${schemaTree("spec", 4, "            ", kind.length, changed)}
${schemaTree("status", 2, "            ", kind.length + 3, false)}
`;
}

export const OPERATOR_GROUP = "ops.example.test";
const OPERATOR_KINDS = ["Pipeline", "Collector", "Alerting", "Receiver", "Scraper", "Exporter", "Ruleset", "Silence"];

/** An operator chart: eight CRDs of a few hundred KB each (2.2 MB, as kube-prometheus-stack ships), the controller, wide RBAC, a webhook, and one custom resource of each kind. */
export async function operatorChart(version: 1 | 2): Promise<Buffer> {
  const files: Files = new Map();
  const next = version === 2;
  put(files, "Chart.yaml", `apiVersion: v2\nname: operator\nversion: ${version}.0.0\nappVersion: "${next ? "0.79.0" : "0.78.2"}"\n`);
  put(files, "values.yaml", "image: registry.example.test/operator\nreplicas: 1\ndefaults:\n  enabled: true\n");
  put(files, "templates/_helpers.tpl", HELPERS("operator"));
  for (const kind of OPERATOR_KINDS) put(files, `crds/${kind.toLowerCase()}s.yaml`, crd(OPERATOR_GROUP, kind, next));
  const meta = `metadata:\n  name: {{ include "operator.fullname" . }}\n  labels:\n    {{- include "operator.labels" . | nindent 4 }}`;
  const args = [
    "--log-level=info",
    "--leader-elect",
    "--health-probe-bind-address=:8081",
    "--metrics-bind-address=:8080",
    ...(next ? ["--watch-all-namespaces"] : []),
  ];
  put(
    files,
    "templates/deployment.yaml",
    `apiVersion: apps/v1\nkind: Deployment\n${meta}\nspec:\n  replicas: {{ .Values.replicas }}\n  selector:\n    matchLabels:\n      {{- include "operator.selectorLabels" . | nindent 6 }}\n  template:\n    metadata:\n      labels:\n        {{- include "operator.selectorLabels" . | nindent 8 }}\n    spec:\n      serviceAccountName: {{ include "operator.fullname" . }}\n      securityContext: { runAsNonRoot: true, runAsUser: 65532 }\n      containers:\n        - name: manager\n          image: "{{ .Values.image }}:{{ .Chart.AppVersion }}"\n          args:\n${args.map((arg) => `            - ${arg}`).join("\n")}\n          ports: [{ name: webhook, containerPort: 9443 }, { name: metrics, containerPort: 8080 }, { name: health, containerPort: 8081 }]\n          readinessProbe: { httpGet: { path: /readyz, port: health } }\n          livenessProbe: { httpGet: { path: /healthz, port: health } }\n          resources: { requests: { cpu: 100m, memory: 128Mi }, limits: { memory: 512Mi } }\n          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } }\n`,
  );
  const rules = OPERATOR_KINDS.map(
    (kind) =>
      `  - { apiGroups: [${OPERATOR_GROUP}], resources: [${kind.toLowerCase()}s, ${kind.toLowerCase()}s/status, ${kind.toLowerCase()}s/finalizers], verbs: [get, list, watch, create, update, patch, delete] }`,
  ).join("\n");
  put(
    files,
    "templates/rbac.yaml",
    `apiVersion: v1\nkind: ServiceAccount\n${meta}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n${meta}\nrules:\n${rules}\n  - { apiGroups: [""], resources: [pods, services, endpoints, configmaps, secrets, events], verbs: [get, list, watch, create, update, patch, delete] }\n  - { apiGroups: [apps], resources: [deployments, statefulsets, daemonsets], verbs: [get, list, watch, create, update, patch, delete] }\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\n${meta}\nroleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: {{ include "operator.fullname" . }} }\nsubjects: [{ kind: ServiceAccount, name: {{ include "operator.fullname" . }}, namespace: {{ .Release.Namespace }} }]\n`,
  );
  put(
    files,
    "templates/webhook.yaml",
    `apiVersion: v1\nkind: Service\n${meta}-webhook\nspec:\n  selector:\n    {{- include "operator.selectorLabels" . | nindent 4 }}\n  ports: [{ name: webhook, port: 443, targetPort: webhook }]\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n${meta}\nwebhooks:\n${OPERATOR_KINDS.map((kind) => `  - name: ${kind.toLowerCase()}.${OPERATOR_GROUP}\n    admissionReviewVersions: [v1]\n    sideEffects: None\n    failurePolicy: Fail\n    clientConfig: { service: { name: {{ include "operator.fullname" $ }}-webhook, namespace: {{ $.Release.Namespace }}, path: /validate-${kind.toLowerCase()} } }\n    rules: [{ apiGroups: [${OPERATOR_GROUP}], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [${kind.toLowerCase()}s] }]`).join("\n")}\n`,
  );
  put(
    files,
    "templates/defaults.yaml",
    `{{- if .Values.defaults.enabled }}\n${OPERATOR_KINDS.map((kind) => `---\napiVersion: ${OPERATOR_GROUP}/v1\nkind: ${kind}\nmetadata:\n  name: default\n  labels:\n    {{- include "operator.labels" . | nindent 4 }}\nspec: {}`).join("\n")}\n{{- end }}\n`,
  );
  return packChart("operator", files, new Date(0));
}
