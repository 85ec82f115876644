import type { KubernetesObject, PolicyRule, RuleResult } from "../../model/policy.js";
import { containers, list, podTemplate, record, text } from "../objects.js";

// Security basics: what gives a container the node, or a subject the cluster.

function podRule(
  id: string,
  description: string,
  severity: PolicyRule["severity"],
  find: (pod: NonNullable<ReturnType<typeof podTemplate>>, object: KubernetesObject) => RuleResult[],
): PolicyRule {
  return {
    id,
    description,
    severity,
    check: (objects) =>
      objects.flatMap((object) => {
        const pod = podTemplate(object);
        return pod === undefined || object.hook !== undefined ? [] : find(pod, object);
      }),
  };
}

const base = (path: string) => (path === "" ? "spec" : `${path}.spec`);

export const privileged = podRule("privileged", "No container runs privileged (root on the node).", "error", (pod, object) =>
  containers(pod)
    .filter(({ container }) => record(container.securityContext).privileged === true)
    .map(({ path }) => ({
      object,
      path: `${path}.securityContext.privileged`,
      message: "runs privileged: root on the node",
      hint: "set securityContext.privileged: false; grant a capability if one is needed",
    })),
);

export const privilegeEscalation = podRule("privilege-escalation", "Containers set allowPrivilegeEscalation: false.", "warning", (pod, object) =>
  containers(pod)
    .filter(({ container }) => record(container.securityContext).allowPrivilegeEscalation !== false)
    .map(({ path }) => ({
      object,
      path: `${path}.securityContext.allowPrivilegeEscalation`,
      message: "may gain more privileges than its parent process",
      hint: "set securityContext.allowPrivilegeEscalation: false",
    })),
);

export const hostPath = podRule("host-path", "No volume mounts a path of the node.", "warning", (pod, object) =>
  list(pod.spec.volumes)
    .filter((volume) => volume.hostPath !== undefined)
    .map((volume) => ({
      object,
      path: `${base(pod.path)}.volumes[name=${text(volume.name) ?? "?"}].hostPath`,
      message: `mounts ${text(record(volume.hostPath).path) ?? "a path"} of the node`,
      hint: "use a PersistentVolumeClaim, a ConfigMap or an emptyDir",
    })),
);

export const hostNamespaces = podRule("host-namespaces", "Pods do not share the node's network, PID or IPC namespace.", "warning", (pod, object) =>
  (["hostNetwork", "hostPID", "hostIPC"] as const)
    .filter((field) => pod.spec[field] === true)
    .map((field) => ({ object, path: `${base(pod.path)}.${field}`, message: `shares the node's ${field.slice(4)} namespace`, hint: `set ${field}: false` })),
);

export const runAsRoot = podRule("run-as-root", "Containers do not run as root (runAsNonRoot, or a non-zero runAsUser).", "warning", (pod, object) => {
  const podContext = record(pod.spec.securityContext);
  return containers(pod)
    .filter(({ container }) => {
      const own = record(container.securityContext);
      const user = own.runAsUser ?? podContext.runAsUser;
      const nonRoot = own.runAsNonRoot ?? podContext.runAsNonRoot;
      return user === 0 || (nonRoot !== true && (user === undefined || user === null));
    })
    .map(({ path }) => ({
      object,
      path: `${path}.securityContext.runAsNonRoot`,
      message: "may run as root",
      hint: "set securityContext.runAsNonRoot: true (and a runAsUser) on the pod or the container",
    }));
});

export const addedCapabilities = podRule("added-capabilities", "Containers add no Linux capabilities.", "warning", (pod, object) =>
  containers(pod)
    .filter(({ container }) => list([record(container.securityContext).capabilities]).some((caps) => Array.isArray(caps.add) && caps.add.length > 0))
    .map(({ path, container }) => ({
      object,
      path: `${path}.securityContext.capabilities.add`,
      message: `adds capabilities ${JSON.stringify(record(record(container.securityContext).capabilities).add)}`,
      hint: "drop the capability, or accept it with an exception naming why",
    })),
);

const READ = ["get", "list", "watch", "*"];

export const rbac: PolicyRule = {
  id: "rbac-broad",
  description: "RBAC binds no one to cluster-admin, grants no wildcard verbs or resources, and reads no Secrets cluster-wide.",
  severity: "warning",
  check(objects) {
    const out: RuleResult[] = [];
    for (const object of objects.filter((item) => item.group === "rbac.authorization.k8s.io")) {
      if ((object.kind === "ClusterRoleBinding" || object.kind === "RoleBinding") && text(record(object.body.roleRef).name) === "cluster-admin") {
        out.push({ object, path: "roleRef.name", message: "binds cluster-admin", hint: "bind a role with the verbs and resources the subject needs" });
      }
      if (object.kind !== "ClusterRole" && object.kind !== "Role") continue;
      for (const [i, rule] of list(object.body.rules).entries()) {
        const verbs = Array.isArray(rule.verbs) ? rule.verbs.map(String) : [];
        const resources = Array.isArray(rule.resources) ? rule.resources.map(String) : [];
        if (verbs.includes("*") || resources.includes("*"))
          out.push({
            object,
            path: `rules[${i}]`,
            message: `grants ${verbs.includes("*") ? "every verb" : "every resource"}`,
            hint: "list the verbs and resources the subject needs",
          });
        else if (object.kind === "ClusterRole" && resources.includes("secrets") && verbs.some((verb) => READ.includes(verb)))
          out.push({
            object,
            path: `rules[${i}]`,
            message: "reads Secrets in every namespace",
            hint: "use a Role in the namespaces that need it, or name the Secrets (resourceNames)",
          });
      }
    }
    return out;
  },
};

export const SECURITY: PolicyRule[] = [privileged, privilegeEscalation, hostPath, hostNamespaces, runAsRoot, addedCapabilities, rbac];
