import type { KubernetesObject, PolicyRule, RuleResult } from "../../model/policy.js";
import { containerPorts, containers, describePort, exists, find, hasPort, isEmptySelector, list, matches, podsIn, podTemplate, portRef, record, selectedPods, text, type Json } from "../objects.js";

// The agreement chain: objects that are each valid alone but must agree with
// one another for the workload to serve anything. Checked across every chart
// of the stack, so a Service in one chart may select another chart's pods.

function services(objects: readonly KubernetesObject[]): KubernetesObject[] {
  return objects.filter((object) => object.group === "" && object.kind === "Service" && object.hook === undefined);
}

function selects(service: KubernetesObject): boolean {
  const spec = record(service.body.spec);
  return spec.type !== "ExternalName" && Object.keys(record(spec.selector)).length > 0;
}

export const serviceSelectsPods: PolicyRule = {
  id: "service-selects-pods",
  description: "A Service's selector matches the pod template labels of some workload in its namespace.",
  severity: "error",
  check(objects, context) {
    return services(objects)
      .filter((service) => selects(service) && selectedPods(service, context).length === 0)
      .map((service) => ({
        object: service,
        path: "spec.selector",
        message: `selects no pods: no workload in namespace ${service.namespace} has the labels ${JSON.stringify(record(service.body.spec).selector)}`,
        hint: "make spec.selector match the pod template labels of the workload it fronts",
      }));
  },
};

export const serviceTargetPort: PolicyRule = {
  id: "service-target-port",
  description: "Each Service port's targetPort (number or name) is a port the selected pods' containers declare.",
  severity: "error",
  check(objects, context) {
    const out: RuleResult[] = [];
    for (const service of services(objects).filter(selects)) {
      const pods = selectedPods(service, context);
      if (pods.length === 0) continue;
      const ports = pods.flatMap((pod) => containers(pod, false).flatMap((item) => containerPorts(item.container)));
      // A container that declares no ports may still listen: only named ports can be checked then.
      const declared = ports.length > 0;
      for (const [i, port] of list(record(service.body.spec).ports).entries()) {
        const target = portRef(port.targetPort ?? port.port);
        if (target === undefined || (!declared && target.name === undefined) || hasPort(ports, target)) continue;
        out.push({
          object: service,
          path: `spec.ports[${text(port.name) === undefined ? i : `name=${text(port.name)}`}].targetPort`,
          message: `targets port ${describePort(target)}, which no container of the selected pods declares (${ports.map(describePort).join(", ") || "none declared"})`,
          hint: "set targetPort to a containerPort (or its name) of the pods",
        });
      }
    }
    return out;
  },
};

const PROBES = ["livenessProbe", "readinessProbe", "startupProbe"];

export const probePort: PolicyRule = {
  id: "probe-port",
  description: "A probe's port is one its container declares (a named port must exist).",
  severity: "error",
  check(objects) {
    const out: RuleResult[] = [];
    for (const object of objects) {
      const pod = podTemplate(object);
      if (pod === undefined) continue;
      for (const { container, path } of containers(pod)) {
        const ports = containerPorts(container);
        for (const probe of PROBES) {
          const spec = record(container[probe]);
          for (const kind of ["httpGet", "tcpSocket", "grpc"]) {
            const target = portRef(record(spec[kind]).port);
            if (target === undefined) continue;
            const known = hasPort(ports, target) || (target.number !== undefined && ports.length === 0);
            if (!known) out.push({ object, path: `${path}.${probe}.${kind}.port`, message: `probes port ${describePort(target)}, which the container does not declare (${ports.map(describePort).join(", ") || "none declared"})`, hint: "point the probe at a declared containerPort, or declare the port" });
          }
        }
      }
    }
    return out;
  },
};

/** A Service port by number or name. */
function servicePort(service: KubernetesObject, wanted: { number?: number; name?: string }): boolean {
  return list(record(service.body.spec).ports).some((port) => (wanted.name !== undefined ? port.name === wanted.name : port.port === wanted.number));
}

export const ingressBackend: PolicyRule = {
  id: "ingress-backend",
  description: "Ingress and HTTPRoute backends name a Service that exists, and a port it has.",
  severity: "error",
  check(objects, context) {
    const out: RuleResult[] = [];
    const check = (object: KubernetesObject, path: string, name: string | undefined, namespace: string, port: { number?: number; name?: string } | undefined) => {
      if (name === undefined) return;
      const service = find(context, "Service", namespace, name, "");
      if (service === undefined) {
        if (!exists(context, "Service", namespace, name)) out.push({ object, path, message: `sends traffic to Service ${namespace}/${name}, which does not exist in the stack`, hint: "name a Service the platform deploys, or declare it external in policies/" });
        return;
      }
      if (port !== undefined && (port.number !== undefined || port.name !== undefined) && !servicePort(service, port)) {
        out.push({ object, path, message: `sends traffic to port ${port.name ?? port.number} of Service ${namespace}/${name}, which has no such port`, hint: "use a port the Service declares (spec.ports)" });
      }
    };
    for (const object of objects) {
      if (object.kind === "Ingress" && object.hook === undefined) {
        const spec = record(object.body.spec);
        const backend = record(record(spec.defaultBackend).service);
        if (Object.keys(backend).length > 0) check(object, "spec.defaultBackend.service", text(backend.name), object.namespace, portOf(backend));
        for (const [r, rule] of list(spec.rules).entries()) {
          for (const [p, path] of list(record(rule.http).paths).entries()) {
            const service = record(record(path.backend).service);
            check(object, `spec.rules[${r}].http.paths[${p}].backend.service`, text(service.name), object.namespace, portOf(service));
          }
        }
      }
      if (object.kind === "HTTPRoute" && object.group === "gateway.networking.k8s.io") {
        for (const [r, rule] of list(record(object.body.spec).rules).entries()) {
          for (const [b, ref] of list(rule.backendRefs).entries()) {
            if ((text(ref.kind) ?? "Service") !== "Service") continue;
            check(object, `spec.rules[${r}].backendRefs[${b}]`, text(ref.name), text(ref.namespace) ?? object.namespace, typeof ref.port === "number" ? { number: ref.port } : undefined);
          }
        }
      }
    }
    return out;
  },
};

function portOf(service: Json): { number?: number; name?: string } {
  const port = record(service.port);
  return { number: typeof port.number === "number" ? port.number : undefined, name: text(port.name) };
}

export const referenceExists: PolicyRule = {
  id: "reference-exists",
  description: "Secrets, ConfigMaps, PersistentVolumeClaims and ServiceAccounts a pod names exist in the stack or are declared external.",
  severity: "error",
  check(objects, context) {
    const out: RuleResult[] = [];
    for (const object of objects) {
      const pod = podTemplate(object);
      if (pod === undefined) continue;
      const base = pod.path === "" ? "spec" : `${pod.path}.spec`;
      const need = (kind: string, name: string | undefined, path: string, optional: unknown) => {
        if (name === undefined || optional === true || exists(context, kind, object.namespace, name, "")) return;
        out.push({ object, path, message: `names ${kind} ${object.namespace}/${name}, which the stack does not create`, hint: `create it in a chart, mark the reference optional, or declare it external in policies/` });
      };
      for (const { container, path } of containers(pod)) {
        for (const [i, env] of list(container.env).entries()) {
          const from = record(env.valueFrom);
          const secret = record(from.secretKeyRef);
          const config = record(from.configMapKeyRef);
          need("Secret", text(secret.name), `${path}.env[name=${text(env.name) ?? i}].valueFrom.secretKeyRef.name`, secret.optional);
          need("ConfigMap", text(config.name), `${path}.env[name=${text(env.name) ?? i}].valueFrom.configMapKeyRef.name`, config.optional);
        }
        for (const [i, from] of list(container.envFrom).entries()) {
          need("Secret", text(record(from.secretRef).name), `${path}.envFrom[${i}].secretRef.name`, record(from.secretRef).optional);
          need("ConfigMap", text(record(from.configMapRef).name), `${path}.envFrom[${i}].configMapRef.name`, record(from.configMapRef).optional);
        }
      }
      for (const volume of list(pod.spec.volumes)) {
        const at = `${base}.volumes[name=${text(volume.name) ?? "?"}]`;
        need("Secret", text(record(volume.secret).secretName), `${at}.secret.secretName`, record(volume.secret).optional);
        need("ConfigMap", text(record(volume.configMap).name), `${at}.configMap.name`, record(volume.configMap).optional);
        need("PersistentVolumeClaim", text(record(volume.persistentVolumeClaim).claimName), `${at}.persistentVolumeClaim.claimName`, false);
        for (const [i, source] of list(record(volume.projected).sources).entries()) {
          need("Secret", text(record(source.secret).name), `${at}.projected.sources[${i}].secret.name`, record(source.secret).optional);
          need("ConfigMap", text(record(source.configMap).name), `${at}.projected.sources[${i}].configMap.name`, record(source.configMap).optional);
        }
      }
      for (const [i, secret] of list(pod.spec.imagePullSecrets).entries()) need("Secret", text(secret.name), `${base}.imagePullSecrets[${i}].name`, false);
      const account = text(pod.spec.serviceAccountName) ?? text(pod.spec.serviceAccount);
      // Every namespace has "default".
      if (account !== "default") need("ServiceAccount", account, `${base}.serviceAccountName`, false);
    }
    return out;
  },
};

export const hpaTarget: PolicyRule = {
  id: "hpa-target",
  description: "A HorizontalPodAutoscaler scales a workload that exists.",
  severity: "error",
  check(objects, context) {
    return objects
      .filter((object) => object.kind === "HorizontalPodAutoscaler" && object.hook === undefined)
      .flatMap((hpa) => {
        const ref = record(record(hpa.body.spec).scaleTargetRef);
        const kind = text(ref.kind);
        const name = text(ref.name);
        if (kind === undefined || name === undefined || exists(context, kind, hpa.namespace, name)) return [];
        return [{ object: hpa, path: "spec.scaleTargetRef", message: `scales ${kind} ${hpa.namespace}/${name}, which the stack does not create`, hint: "name the workload the chart deploys (its kind and name)" }];
      });
  },
};

export const selectorMatchesPods: PolicyRule = {
  id: "selector-matches-pods",
  description: "PodDisruptionBudget and NetworkPolicy selectors match some pods in their namespace.",
  severity: "warning",
  check(objects, context) {
    const out: RuleResult[] = [];
    for (const object of objects) {
      const at = object.kind === "PodDisruptionBudget" ? "spec.selector" : object.kind === "NetworkPolicy" ? "spec.podSelector" : undefined;
      if (at === undefined || object.hook !== undefined) continue;
      const selector = record(record(object.body.spec)[at.split(".")[1] as string]);
      // An empty NetworkPolicy podSelector means every pod of the namespace: nothing to check.
      if (isEmptySelector(selector)) continue;
      if (podsIn(context, object.namespace).some((pod) => matches(selector, pod.labels))) continue;
      out.push({ object, path: at, message: `selects no pods in namespace ${object.namespace}`, hint: "match the pod template labels of the workload it protects" });
    }
    return out;
  },
};

export const workloadSelector: PolicyRule = {
  id: "workload-selector",
  description: "A workload's selector matches its own pod template labels (the API server refuses it otherwise).",
  severity: "error",
  check(objects) {
    return objects.flatMap((object) => {
      const pod = podTemplate(object);
      if (pod === undefined || pod.path === "" || object.kind === "CronJob" || object.kind === "Job") return [];
      const selector = record(object.body.spec).selector;
      if (selector === undefined || matches(selector, pod.labels)) return [];
      return [{ object, path: "spec.selector", message: "does not match the labels of its own pod template", hint: `make spec.selector match ${pod.path}.metadata.labels` }];
    });
  },
};

export const serviceMonitorSelects: PolicyRule = {
  id: "servicemonitor-selects-service",
  description: "A ServiceMonitor's selector matches a Service, and its endpoints name ports that Service has.",
  severity: "error",
  check(objects, context) {
    const out: RuleResult[] = [];
    for (const monitor of objects.filter((object) => object.kind === "ServiceMonitor" && object.group === "monitoring.coreos.com")) {
      const spec = record(monitor.body.spec);
      const namespaces = list([spec.namespaceSelector]).flatMap((selector) => (Array.isArray(selector.matchNames) ? selector.matchNames.map(String) : []));
      const scope = namespaces.length > 0 ? namespaces : [monitor.namespace];
      const candidates = [...context.charts.values()].flat().filter((object) => object.group === "" && object.kind === "Service" && scope.includes(object.namespace));
      const chosen = candidates.filter((service) => matches(spec.selector, record(record(service.body.metadata).labels) as Record<string, string>));
      if (chosen.length === 0) {
        out.push({ object: monitor, path: "spec.selector", message: `selects no Service in ${scope.join(", ")}`, hint: "match the labels of the Service that exposes the metrics port" });
        continue;
      }
      for (const [i, endpoint] of list(spec.endpoints).entries()) {
        const port = text(endpoint.port);
        if (port !== undefined && !chosen.some((service) => servicePort(service, { name: port }))) {
          out.push({ object: monitor, path: `spec.endpoints[${i}].port`, message: `scrapes port "${port}", which no selected Service names`, hint: "use the name of a port in the Service's spec.ports" });
        }
      }
    }
    return out;
  },
};

export const AGREEMENT: PolicyRule[] = [serviceSelectsPods, serviceTargetPort, probePort, ingressBackend, referenceExists, hpaTarget, selectorMatchesPods, workloadSelector, serviceMonitorSelects];
