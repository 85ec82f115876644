/** How much version 2.0.0 differs from 1.0.0. */
export type Upgrade =
  /** New chart and app version on every object (labels, images), a tenth of the configs changed, a few CRD fields added. */
  | "typical"
  /** Every object changes beyond bookkeeping: labels, env, data, HPA bounds, and a sixth of every CRD's fields. */
  | "everything";

/**
 * A chart shaped like `helm create` output (objects named and labelled
 * through helpers) that renders `count` × 5 objects (Deployment, Service,
 * ConfigMap, Secret, HPA) plus `crds` large CustomResourceDefinitions.
 */
export function generateChart(version: "1.0.0" | "2.0.0", options: { count: number; crds: number; upgrade?: Upgrade }): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const put = (path: string, text: string) => files.set(path, Buffer.from(text));
  const major = version === "2.0.0";
  const everything = major && options.upgrade === "everything";
  put("Chart.yaml", `apiVersion: v2\nname: big\nversion: ${version}\nappVersion: "${major ? "5.0" : "4.2"}"\n`);
  put("values.yaml", `count: ${options.count}\nimage: registry.example.test/big\nreplicas: 2\n`);
  put(
    "templates/_helpers.tpl",
    `{{- define "big.fullname" -}}
{{- printf "%s-%s" .root.Release.Name .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- define "big.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}
{{- define "big.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "big.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}${everything ? "\napp.kubernetes.io/part-of: platform" : ""}
{{- end -}}
`,
  );
  const component = (body: string) =>
    `{{- range $i := until (int .Values.count) }}\n{{- $ctx := dict "root" $ "name" (printf "big-%d" $i) }}\n---\n${body}\n{{- end }}\n`;
  const labels = `{{- include "big.labels" $ctx | nindent 4 }}`;
  const tier = everything ? "\n      tier: {{ if eq (mod $i 10) 0 }}edge{{ else }}core{{ end }}" : "";
  put(
    "templates/deployments.yaml",
    component(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "big.fullname" $ctx }}
  labels:
    ${labels}
spec:
  replicas: {{ $.Values.replicas }}
  selector:
    matchLabels:
      {{- include "big.selectorLabels" $ctx | nindent 6 }}${tier}
  template:
    metadata:
      labels:
        {{- include "big.selectorLabels" $ctx | nindent 8 }}${tier.replace(/\n/g, "\n  ")}
    spec:
      containers:
        - name: app
          image: "{{ $.Values.image }}:{{ $.Chart.AppVersion }}"
          ports: [{ name: http, containerPort: 8080 }]
          env:
            - { name: COMPONENT, value: "big-{{ $i }}" }
            - { name: MODE, value: "${everything ? "fast" : "safe"}" }${everything ? '\n            - { name: EXTRA, value: "1" }' : ""}
        - name: sidecar
          image: registry.example.test/proxy:1.${everything ? "9" : "8"}`),
  );
  put(
    "templates/services.yaml",
    component(`apiVersion: v1
kind: Service
metadata:
  name: {{ include "big.fullname" $ctx }}
  labels:
    ${labels}
spec:
  ports: [{ name: http, port: 80, targetPort: http }]
  selector:
    {{- include "big.selectorLabels" $ctx | nindent 4 }}`),
  );
  const level = everything ? "debug" : major ? `{{ if eq (mod $i 10) 0 }}debug{{ else }}info{{ end }}` : "info";
  put(
    "templates/configmaps.yaml",
    component(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "big.fullname" $ctx }}
  labels:
    ${labels}
data:
  settings.yaml: |
    component: big-{{ $i }}
    level: ${level}
    peers: [{{ range $j := until 20 }}big-{{ $j }},{{ end }}]`),
  );
  put(
    "templates/secrets.yaml",
    component(`apiVersion: v1
kind: Secret
metadata:
  name: {{ include "big.fullname" $ctx }}
  labels:
    ${labels}
data:
  token: {{ printf "token-%d${everything ? "-2" : ""}" $i | b64enc }}`),
  );
  put(
    "templates/hpas.yaml",
    component(`apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "big.fullname" $ctx }}
  labels:
    ${labels}
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: {{ include "big.fullname" $ctx }} }
  minReplicas: 2
  maxReplicas: ${everything ? 12 : 10}`),
  );
  for (let c = 0; c < options.crds; c++) put(`crds/crd-${c}.yaml`, largeCrd(c, major ? (options.upgrade ?? "typical") : undefined));
  return files;
}

/**
 * A CRD with a deep, wide openAPI schema written the way controller-gen
 * writes them: block style, descriptions wrapped over several lines, a third
 * of them in double quotes and a third in single quotes (as real operator
 * CRDs have them).
 */
function largeCrd(index: number, upgrade: Upgrade | undefined): string {
  const field = (depth: number, name: string): string => {
    const pad = " ".repeat(12 + depth * 4);
    // As controller-gen writes them: plain when it can, quoted (over several lines) when the text has ": " or "\n" in it.
    const style = name.length % 3;
    const description =
      style === 0
        ? `${pad}  description: ${name} is a field of the generated schema; it makes the CRD\n${pad}    as large as the ones operators ship, wrapped the way controller-gen\n${pad}    wraps long descriptions.`
        : style === 1
          ? `${pad}  description: "${name} is a field of the generated schema. Deprecated: it makes\n${pad}    the CRD as large as the ones operators ship. \\n The default value is\n${pad}    \`OnNamespace\`, as in the monitoring stacks."`
          : `${pad}  description: '${name} sets the mode: one of \`a\`, \`b\`; it''s wrapped\n${pad}    the way controller-gen wraps quoted descriptions.'`;
    if (depth === 4) {
      const type = upgrade === "everything" && name.endsWith("5") ? "integer" : "string";
      return `${pad}${name}:\n${description}\n${pad}  type: ${type}`;
    }
    const children = Array.from({ length: 7 }, (_, i) => field(depth + 1, `${name}${i}`));
    // A typical upgrade adds a couple of fields.
    if (upgrade === "typical" && (name === "spec0" || name === "spec31"))
      children.push(`${pad}    added${name}:\n${pad}      description: A field the new version adds.\n${pad}      type: boolean`);
    return `${pad}${name}:\n${description}\n${pad}  properties:\n${children.join("\n")}\n${pad}  type: object`;
  };
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things${index}.example.com
spec:
  group: example.com
  scope: Namespaced
  names: { kind: Thing${index}, plural: things${index} }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
${field(0, "spec")}
`;
}
