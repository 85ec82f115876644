// The patterns of widely used public charts that chartroom once reported as
// errors, rebuilt as one chart: an admission webhook's hooks (ServiceAccount,
// Jobs), a test hook with its ConfigMap, a liveness probe on a port the
// container does not list, an operator's custom resource with the Service in
// front of the pods it makes, a Service for kube-system's scheduler, and a
// subchart key that only a comment in its values.yaml mentions but its
// templates read. None of them is an error, on either Helm major; the true
// positives next to them still are.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packChart } from "../helpers/pack.js";
import { helm } from "../helpers/helm.js";
import { addChart, CONFIGMAP } from "../helpers/hostile.js";
import { cli, copyPlatform, editFile } from "../helpers/platform.js";

const HOOKS = (events: string, weight: number) =>
  `  annotations:\n    "helm.sh/hook": ${events}\n    "helm.sh/hook-weight": "${weight}"\n    "helm.sh/hook-delete-policy": before-hook-creation,hook-succeeded\n`;

const TEMPLATES: Record<string, string> = {
  "templates/admission-sa.yaml": `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {{ .Release.Name }}-admission\n${HOOKS("pre-install,pre-upgrade,post-install,post-upgrade", -1)}`,
  "templates/admission-create.yaml": `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ .Release.Name }}-admission-create\n${HOOKS("pre-install,pre-upgrade", 0)}spec:\n  template:\n    spec:\n      serviceAccountName: {{ .Release.Name }}-admission\n      restartPolicy: OnFailure\n      containers:\n        - name: create\n          image: registry.example.test/certgen:1.0.0\n`,
  "templates/admission-patch.yaml": `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ .Release.Name }}-admission-patch\n${HOOKS("post-install,post-upgrade", 0)}spec:\n  template:\n    spec:\n      serviceAccountName: {{ .Release.Name }}-admission\n      restartPolicy: OnFailure\n      containers:\n        - name: patch\n          image: registry.example.test/certgen:1.0.0\n`,
  "templates/controller.yaml": `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}-controller\nspec:\n  selector:\n    matchLabels: { app: controller }\n  template:\n    metadata:\n      labels: { app: controller }\n    spec:\n      containers:\n        - name: controller\n          image: registry.example.test/controller:1.0.0\n          ports:\n            - { name: http, containerPort: 80 }\n          livenessProbe:\n            httpGet: { path: /healthz, port: 10254 }\n          readinessProbe:\n            httpGet: { path: /healthz, port: 10254 }\n`,
  "templates/controller-svc.yaml": `apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-controller\nspec:\n  selector: { app: controller }\n  ports:\n    - { name: http, port: 80, targetPort: http }\n`,
  "templates/tests/config.yaml": `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-tests\n  annotations:\n    "helm.sh/hook": test\ndata:\n  run.sh: "curl -f http://controller/healthz"\n`,
  "templates/tests/pod.yaml": `apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}-test\n  annotations:\n    "helm.sh/hook": test\nspec:\n  restartPolicy: Never\n  containers:\n    - name: test\n      image: registry.example.test/curl:1.0.0\n      volumeMounts: [{ name: tests, mountPath: /tests }]\n  volumes:\n    - name: tests\n      configMap: { name: {{ .Release.Name }}-tests }\n`,
  "templates/prometheus.yaml": `apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: 1\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: prometheus-operated\nspec:\n  selector: { app.kubernetes.io/name: prometheus }\n  ports:\n    - { name: web, port: 9090, targetPort: web }\n`,
  "templates/kube-scheduler.yaml": `apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-kube-scheduler\n  namespace: kube-system\nspec:\n  selector: { component: kube-scheduler }\n  ports:\n    - { name: http-metrics, port: 10259, targetPort: 10259 }\n`,
};

/** A subchart whose values.yaml has its admin password only as a comment, and whose template reads it. */
async function databaseSubchart(): Promise<Buffer> {
  const files = new Map<string, Buffer>([
    ["Chart.yaml", Buffer.from("apiVersion: v2\nname: db\nversion: 2.0.0\n")],
    ["values.yaml", Buffer.from("port: 5432\n# adminPassword: set one, or a random one is generated\n")],
    [
      "templates/secret.yaml",
      Buffer.from(
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Release.Name }}-db\nstringData:\n  password: {{ .Values.adminPassword | default "generated" | quote }}\n',
      ),
    ],
  ]);
  return packChart("db", files, new Date(0));
}

async function platform(): Promise<string> {
  const dir = await copyPlatform();
  await addChart(dir, "edge", {
    ...TEMPLATES,
    "values.yaml": "db:\n  port: 5432\n",
    "charts/db-2.0.0.tgz": await databaseSubchart(),
    "Chart.yaml": "apiVersion: v2\nname: edge\nversion: 1.0.0\ndependencies:\n  - { name: db, version: 2.0.0 }\n",
  });
  await mkdir(join(dir, "values", "edge"), { recursive: true });
  await writeFile(join(dir, "values", "edge", "values.yaml"), "db:\n  adminPassword: Edge-Admin-Password-71\n");
  return dir;
}

interface JsonFinding {
  rule: string;
  severity: string;
  object?: string;
  path?: string;
}

describe.each([[4], [3]] as const)("the patterns of real charts, with Helm %i", (major) => {
  it("are not errors: hooks exist for the hooks that use them, numeric probes are valid, operator and control-plane pods are warnings, template reads are known keys", async () => {
    const dir = await platform();
    const env = { HELM_BIN: await helm(major) };
    expect((await cli(dir, ["lock", "edge"], env)).errors).toBe("");
    const result = await cli(dir, ["check", "edge", "--format", "json"], env);
    const findings = (JSON.parse(result.output).findings as JsonFinding[]).filter((f) => f.severity !== "info");
    expect(findings.filter((f) => f.severity === "error")).toStrictEqual([]);
    expect(result.exitCode).toBe(0);
    const agreement = findings
      .filter((f) => ["reference-exists", "probe-port", "service-selects-pods", "service-target-port", "unknown-key"].includes(f.rule))
      .map((f) => [f.rule, f.severity, f.object]);
    expect(agreement.sort()).toStrictEqual(
      [
        ["service-selects-pods", "warning", "Service kube-system/edge-kube-scheduler"],
        ["service-selects-pods", "warning", "Service kube-system/edge-kube-scheduler"],
        ["service-selects-pods", "warning", "Service web/prometheus-operated"],
        ["service-selects-pods", "warning", "Service web/prometheus-operated"],
      ].sort(),
    );
  });

  it("still finds the true positives beside them", async () => {
    const env = { HELM_BIN: await helm(major) };
    // A typo in the selector of a Service whose named targetPort no container defines; a probe on a name no container has.
    const broken: Record<string, string> = {
      ...TEMPLATES,
      "templates/controller-svc.yaml":
        TEMPLATES["templates/controller-svc.yaml"]
          ?.replace("selector: { app: controller }", "selector: { app: controlr }")
          .replace("targetPort: http", "targetPort: https") ?? "",
    };
    broken["templates/controller.yaml"] =
      broken["templates/controller.yaml"]?.replace(
        "readinessProbe:\n            httpGet: { path: /healthz, port: 10254 }",
        "readinessProbe:\n            httpGet: { path: /healthz, port: health }",
      ) ?? "";
    const fresh = await copyPlatform();
    await addChart(fresh, "edge", { ...broken, "values.yaml": "name: ok\n", "templates/cm.yaml": CONFIGMAP });
    expect((await cli(fresh, ["lock", "edge"], env)).errors).toBe("");
    const result = await cli(fresh, ["check", "edge", "--stack", "dev", "--format", "json"], env);
    expect(result.exitCode).toBe(2);
    const errors = (JSON.parse(result.output).findings as JsonFinding[]).filter((f) => f.severity === "error").map((f) => [f.rule, f.object]);
    expect(errors.sort()).toStrictEqual(
      [
        ["probe-port", "Deployment.apps web/edge-controller"],
        ["service-selects-pods", "Service web/edge-controller"],
        ["service-target-port", "Service web/edge-controller"],
      ].sort(),
    );
  });

  it("names, before pulumi preview does, a helm.v4.Chart chart the provider cannot render without a cluster", async () => {
    const dir = await copyPlatform();
    const env = { HELM_BIN: await helm(major) };
    await addChart(dir, "modern", {
      "Chart.yaml": 'apiVersion: v2\nname: modern\nversion: 1.0.0\nkubeVersion: ">=1.23.0-0"\n',
      "values.yaml": "name: ok\n",
      "templates/cm.yaml": CONFIGMAP,
    });
    expect((await cli(dir, ["lock", "modern"], env)).errors).toBe("");
    const checked = await cli(dir, ["check", "modern", "--format", "json"], env);
    expect((JSON.parse(checked.output).findings as JsonFinding[]).filter((f) => f.rule === "engine-offline").map((f) => f.severity)).toStrictEqual(["info"]);
    const plan = await cli(dir, ["plan", "modern"], env);
    expect(plan.output).toContain(
      "modern: the chart requires Kubernetes >=1.23.0-0; without a cluster (renderYamlToDirectory, or a preview with no kubeconfig) the provider's Helm renders helm.v4.Chart for v1.20.0 and refuses it",
    );
    // A stack declared offline renders as the engine does: the chart is refused at once.
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('dev: { kubeVersion: "1.31.0" }', 'dev: { kubeVersion: "1.31.0", offline: true }'));
    const locked = await cli(dir, ["lock", "modern"], env);
    expect(locked.errors).toContain("error HELM_FAILED:");
    expect(locked.errors).toContain("kube-version 1.20.0");
  });
});
