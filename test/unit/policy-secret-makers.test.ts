// secretMaker (src/policy/secret-makers.ts) alone: which pre-install Job or
// workload counts as making a Secret. Each case changes one thing from a stack where the Job
// does make it (kube-webhook-certgen's shape in kube-prometheus-stack and
// ingress-nginx), so every part of the match has a case that breaks it.
import { describe, expect, it } from "vitest";
import type { PolicyContext } from "../../src/model/policy.js";
import type { KubernetesObject } from "../../src/model/policy.js";
import { secretMaker } from "../../src/policy/secret-makers.js";
import { parseManifest } from "../../src/render/manifest.js";

interface Job {
  events?: string;
  namespace?: string;
  account?: string;
  words?: string;
}

function job({
  events = "pre-install,pre-upgrade",
  namespace = "web",
  account = "serviceAccountName: certgen",
  words = "args: [create, --secret-name=admission]",
}: Job = {}): string {
  return `apiVersion: batch/v1
kind: Job
metadata: { name: admission-create, namespace: ${namespace}, annotations: { "helm.sh/hook": "${events}" } }
spec:
  template:
    spec:
      ${account}
      restartPolicy: OnFailure
      containers: [{ name: create, image: certgen:1, ${words} }]
`;
}

interface Rbac {
  rule?: string;
  kind?: string;
  roleGroup?: string;
  roleName?: string;
  roleNamespace?: string;
  bindingGroup?: string;
  bindingKind?: string;
  refKind?: string;
  refName?: string;
  subject?: string;
  bindingNamespace?: string;
}

function rbac({
  rule = `{ apiGroups: [""], resources: [secrets], verbs: [get, create] }`,
  kind = "Role",
  roleGroup = "rbac.authorization.k8s.io",
  roleName = "certgen",
  roleNamespace = "web",
  bindingGroup = "rbac.authorization.k8s.io",
  bindingKind = `${kind}Binding`,
  refKind = kind,
  refName = "certgen",
  subject = "{ kind: ServiceAccount, name: certgen, namespace: web }",
  bindingNamespace = "web",
}: Rbac = {}): string {
  const namespaced = kind === "Role" ? `, namespace: ${roleNamespace}` : "";
  return `apiVersion: ${roleGroup}/v1
kind: ${kind}
metadata: { name: ${roleName}${namespaced} }
rules: [${rule}]
---
apiVersion: ${bindingGroup}/v1
kind: ${bindingKind}
metadata: { name: certgen${bindingKind === "RoleBinding" ? `, namespace: ${bindingNamespace}` : ""} }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ${refKind}, name: ${refName} }
subjects: [${subject}]
`;
}

function made(
  yaml: string,
  namespace = "web",
  name = "admission",
  hooksRun = true,
  consumer?: (objects: KubernetesObject[]) => KubernetesObject,
): string | undefined {
  const objects = parseManifest(yaml, "web", "app");
  const context = { charts: new Map([["app", objects]]) } as unknown as PolicyContext;
  const maker = secretMaker(context, namespace, name, { hooksRun, consumer: consumer?.(objects) });
  return maker === undefined ? undefined : `${maker.kind} ${maker.namespace}/${maker.name}`;
}

const MAKER = "Job web/admission-create";

describe("secretMadeByHook", () => {
  it.each([
    ["a Role in its namespace", job(), rbac()],
    ["a ClusterRole", job(), rbac({ kind: "ClusterRole" })],
    ["a ClusterRole bound in its namespace by a RoleBinding", job(), rbac({ kind: "ClusterRole", bindingKind: "RoleBinding" })],
    ["a subject with no namespace, which is the binding's", job(), rbac({ subject: "{ kind: ServiceAccount, name: certgen }" })],
    ["a wildcard for verbs, resources and groups", job(), rbac({ rule: `{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }` })],
    ["the name as an argument of its own", job({ words: "args: [create, --secret-name, admission]" }), rbac()],
    ["the name in the command rather than the arguments", job({ words: "command: [certgen, --secret-name=admission]" }), rbac()],
    ["a pre-install hook among others", job({ events: "post-upgrade,pre-install" }), rbac()],
    ["a Job of the release rather than a hook", job().replace(/, annotations: \{[^}]*\}/, ""), rbac()],
  ])("finds the Job when it names the Secret and may create Secrets through %s", (_, ...parts) => {
    expect(made(parts.join("---\n"))).toBe(MAKER);
  });

  // argo-cd 10.1.1: redis-secret-init runs `argocd admin redis-initial-password`, which has "argocd-redis" built in; its Role names it.
  describe("a Job whose program has the name built in", () => {
    const builtIn = job({ words: "command: [argocd, admin, redis-initial-password]" });
    const named = (names: string) =>
      rbac({
        rule: `{ apiGroups: [""], resources: [secrets], resourceNames: ${names}, verbs: [get] }, { apiGroups: [""], resources: [secrets], verbs: [create] }`,
      });

    it("makes the Secret its Role names, where it may create Secrets", () => {
      expect(made([builtIn, named("[admission]")].join("---\n"))).toBe(MAKER);
    });

    it.each([
      ["its Role names another Secret", named("[argocd-redis]")],
      ["its Role names none", named("[]")],
      ["its Role names it but grants no create", rbac({ rule: `{ apiGroups: [""], resources: [secrets], resourceNames: [admission], verbs: [get, update] }` })],
      [
        "the name is on a rule for ConfigMaps",
        rbac({
          rule: `{ apiGroups: [""], resources: [configmaps], resourceNames: [admission], verbs: [get] }, { apiGroups: [""], resources: [secrets], verbs: [create] }`,
        }),
      ],
    ])("makes nothing when %s", (_, roles) => {
      expect(made([builtIn, roles].join("---\n"))).toBeUndefined();
    });
  });

  it("takes the deprecated serviceAccount field, and the namespace's default account when none is named", () => {
    expect(made([job({ account: "serviceAccount: certgen" }), rbac()].join("---\n"))).toBe(MAKER);
    const byDefault = rbac({ subject: "{ kind: ServiceAccount, name: default, namespace: web }" });
    expect(made([job({ account: "" }), byDefault].join("---\n"))).toBe(MAKER);
    expect(made([job({ account: "" }), rbac()].join("---\n"))).toBeUndefined();
  });

  it.each([
    ["the Job runs after the install", job({ events: "post-install" }), rbac()],
    ["the Job runs in another namespace", job({ namespace: "other" }), rbac()],
    ["the Job names another Secret", job({ words: "args: [create, --secret-name=admission-old]" }), rbac()],
    ["the name only ends an argument", job({ words: "args: [create, --secret-name=my-admission]" }), rbac()],
    ["the arguments are not text", job({ words: "args: [1, { admission: true }]" }), rbac()],
    ["the Job is not a workload", job().replace("kind: Job", "kind: JobTemplate"), rbac()],
  ])("finds nothing when %s", (_, ...parts) => {
    expect(made(parts.join("---\n"))).toBeUndefined();
  });

  it.each([
    ["no role is bound", {}, false],
    ["the rule allows only reading Secrets", { rule: `{ apiGroups: [""], resources: [secrets], verbs: [get, list] }` }, true],
    ["the rule covers ConfigMaps", { rule: `{ apiGroups: [""], resources: [configmaps], verbs: [create] }` }, true],
    ["the rule is for another API group", { rule: `{ apiGroups: [apps], resources: [secrets], verbs: [create] }` }, true],
    ["the rule's lists are missing", { rule: "{ resources: secrets, verbs: create }" }, true],
    ["the role is of another API group", { roleGroup: "example.com" }, true],
    ["the role has another name", { roleName: "other" }, true],
    ["the Role is in another namespace", { roleNamespace: "other" }, true],
    ["the binding refers to a ClusterRole of that name", { refKind: "ClusterRole" }, true],
    ["the binding refers to another role", { refName: "other" }, true],
    ["the binding is of another API group", { bindingGroup: "example.com" }, true],
    ["the binding is of another kind", { bindingKind: "RoleBindingPolicy" }, true],
    ["the subject is a user of that name", { subject: "{ kind: User, name: certgen, namespace: web }" }, true],
    ["the subject is another account", { subject: "{ kind: ServiceAccount, name: other, namespace: web }" }, true],
    ["the subject is the account of another namespace", { subject: "{ kind: ServiceAccount, name: certgen, namespace: other }" }, true],
    ["the RoleBinding grants in another namespace", { bindingNamespace: "other", roleNamespace: "other" }, true],
  ] as const)("finds nothing when %s", (_, options, bound) => {
    expect(made(bound ? [job(), rbac(options)].join("---\n") : job())).toBeUndefined();
  });

  it("looks for the Secret's own namespace and name", () => {
    const stack = [job(), rbac()].join("---\n");
    expect(made(stack, "other")).toBeUndefined();
    expect(made(stack, "web", "admission-old")).toBeUndefined();
  });

  it("looks across every chart of the stack", () => {
    const context = {
      charts: new Map([
        ["jobs", parseManifest(job(), "web", "jobs")],
        ["rbac", parseManifest(rbac(), "web", "rbac")],
      ]),
    } as unknown as PolicyContext;
    expect(secretMaker(context, "web", "admission", { hooksRun: true })?.name).toBe("admission-create");
  });

  // KEDA 2.20.2: its operator makes kedaorg-certs as it starts (--cert-secret-name), with a Role that may create Secrets.
  const operator = job({ words: "args: [--cert-secret-name=admission]" })
    .replace("kind: Job", "kind: Deployment")
    .replace("apiVersion: batch/v1", "apiVersion: apps/v1")
    .replace(/, annotations: \{[^}]*\}/, "")
    .replace("  template:", "  selector: { matchLabels: { app: op } }\n  template:\n    metadata: { labels: { app: op } }");

  it("finds a workload of the release that makes the Secret as it runs, whether or not the engine runs hooks", () => {
    const stack = [operator, rbac()].join("---\n");
    expect(made(stack)).toBe("Deployment web/admission-create");
    expect(made(stack, "web", "admission", false)).toBe("Deployment web/admission-create");
  });

  it("takes no hook where the engine does not run hooks, and not the pod that waits for the Secret", () => {
    expect(made([job(), rbac()].join("---\n"), "web", "admission", false)).toBeUndefined();
    const stack = [operator, rbac()].join("---\n");
    expect(made(stack, "web", "admission", true, (objects) => objects.find((o) => o.kind === "Deployment") as KubernetesObject)).toBeUndefined();
    expect(made(stack, "web", "admission", true, (objects) => objects.find((o) => o.kind === "Role") as KubernetesObject)).toBe(
      "Deployment web/admission-create",
    );
  });
});
