import { ENGINES } from "../../engine/records.js";
import type { KubernetesObject, PolicyRule, RuleResult } from "../../model/policy.js";
import { editDistance } from "../../util/nearest.js";
import { presenceFor } from "../hook-phases.js";
import { secretMaker } from "../secret-makers.js";
import type { PodTemplate } from "../objects.js";
import {
  containerPorts,
  containers,
  customResourcesIn,
  describePort,
  exists,
  find,
  hasPort,
  hooksNamed,
  isEmptySelector,
  list,
  matches,
  podsIn,
  podTemplate,
  portRef,
  record,
  rendersPodsIn,
  selectedPods,
  text,
  type Json,
} from "../objects.js";

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
  description:
    "A Service's selector matches the pod template labels of some workload in its namespace (a warning where an operator or the cluster may provide the pods).",
  severity: "error",
  check(objects, context) {
    return services(objects)
      .filter((service) => selects(service) && selectedPods(service, context).length === 0)
      .map((service) => ({ object: service, path: "spec.selector", ...unselected(service, context) }));
  },
};

/**
 * Why a Service selects nothing the stack renders, and how sure that is:
 * pods an operator creates from a custom resource of the namespace, or pods
 * of a namespace no chart of the stack deploys into (kube-system's control
 * plane), are beyond the render, so those are warnings.
 */
function unselected(service: KubernetesObject, context: Parameters<PolicyRule["check"]>[1]): Pick<RuleResult, "message" | "hint" | "severity"> {
  const selector = JSON.stringify(record(service.body.spec).selector);
  // A selector a letter or two away from a workload's labels is a typo whatever else the namespace holds.
  const near = nearMiss(record(record(service.body.spec).selector), podsIn(context, service.namespace));
  if (near !== undefined)
    return {
      message: `selects no pods: no workload in namespace ${service.namespace} has the labels ${selector}; ${near.object.kind} ${near.object.name} has ${JSON.stringify(near.labels)}`,
      hint: "make spec.selector match the pod template labels of the workload it fronts (a typo?)",
    };
  const custom = customResourcesIn(context, service.namespace);
  if (custom.length > 0) {
    const named = custom
      .slice(0, 3)
      .map((object) => `${object.kind} ${object.name}`)
      .join(", ");
    return {
      message: `selects no pods the stack renders (${selector}); an operator may create them from the custom resources in namespace ${service.namespace} (${named}${custom.length > 3 ? ", …" : ""})`,
      hint: "nothing to do if the operator's pods carry these labels; otherwise make spec.selector match the workload it fronts",
      severity: "warning",
    };
  }
  const chartNamespace = context.charts
    .get(context.chart)
    ?.some((object) => object.hook === undefined && object.namespace === service.namespace && podTemplate(object) !== undefined);
  if (!chartNamespace && !rendersPodsIn(context, service.namespace)) {
    return {
      message: `selects pods in namespace ${service.namespace} (${selector}), where no chart of the stack runs any: they come from the cluster or another tool, which chartroom cannot see`,
      hint: "nothing to do if they exist there (control-plane components); declare them external in policies/ to say so",
      severity: "warning",
    };
  }
  return {
    message: `selects no pods: no workload in namespace ${service.namespace} has the labels ${selector}`,
    hint: "make spec.selector match the pod template labels of the workload it fronts",
  };
}

export const serviceTargetPort: PolicyRule = {
  id: "service-target-port",
  description:
    "Each Service port's named targetPort is a port the selected pods' containers name (a number they do not list is a warning: a container may listen without declaring it; so is a name when other ports of the Service get endpoints and the name is no typo).",
  severity: "error",
  check(objects, context) {
    const out: RuleResult[] = [];
    for (const service of services(objects).filter(selects)) {
      const selected = selectedPods(service, context);
      // Selecting nothing: the chart's own pods are what its named ports can come from (unless an operator makes the pods).
      if (
        selected.length === 0 &&
        customResourcesIn(context, service.namespace).length > 0 &&
        nearMiss(record(record(service.body.spec).selector), podsIn(context, service.namespace)) === undefined
      )
        continue;
      const pods = selected.length > 0 ? selected : podsOfChart(objects);
      const ports = pods.flatMap((pod) => containers(pod, false).flatMap((item) => containerPorts(item.container)));
      const servicePorts = list(record(service.body.spec).ports);
      const targets = servicePorts.map((port) => portRef(port.targetPort ?? port.port));
      for (const [i, port] of servicePorts.entries()) {
        const target = targets[i];
        if (target === undefined || hasPort(ports, target)) continue;
        // A number: the container may listen on it without listing it. A name must be defined.
        if (target.name === undefined && (ports.length === 0 || selected.length === 0)) continue;
        const whose = selected.length > 0 ? "the selected pods" : "the chart's pods";
        const declared = ports.map(describePort).join(", ") || "none declared";
        // Another port of the Service gets endpoints (a number always does, a name the pods define).
        const serves = targets.some((other, j) => j !== i && other !== undefined && (other.name === undefined || hasPort(ports, other)));
        // tempo-distributed's memcached Service keeps its exporter's "http-metrics" port while the exporter is off:
        // that port alone gets no endpoints. A name a letter or two from a declared one is a typo all the same.
        const aside = target.name !== undefined && serves && !ports.some((own) => own.name !== undefined && editDistance(own.name, target.name as string) <= 2);
        out.push({
          object: service,
          path: `spec.ports[${text(port.name) === undefined ? i : `name=${text(port.name)}`}].targetPort`,
          message:
            target.name === undefined
              ? `targets port ${describePort(target)}, which no container of ${whose} lists (${declared}); it works only if a container listens there undeclared`
              : `targets port ${describePort(target)}, which no container of ${whose} names (${declared}): ${serves ? "this port gets no endpoints, the Service's other ports do" : "the Service gets no endpoints"}${aside ? " (a container the chart leaves out, such as a metrics exporter turned off?)" : ""}`,
          hint: aside
            ? "nothing to do if that container is off on purpose; otherwise set targetPort to a containerPort (or its name) of the pods"
            : "set targetPort to a containerPort (or its name) of the pods",
          ...(target.name === undefined || aside ? { severity: "warning" as const } : {}),
        });
      }
    }
    return out;
  },
};

/** A pod template whose labels the selector misses only by a typo (a key or value a letter or two off). */
function nearMiss<T extends Pick<PodTemplate, "labels">>(selector: Record<string, unknown>, pods: readonly T[]): T | undefined {
  const wanted = Object.entries(selector).filter((entry): entry is [string, string] => typeof entry[1] === "string");
  if (wanted.length === 0) return undefined;
  const close = (a: string, b: string) => a === b || (editDistance(a, b) <= 2 && Math.min(a.length, b.length) > 2);
  return pods.find((pod) => {
    const labels = Object.entries(pod.labels);
    return wanted.every(([key, value]) => labels.some(([name, label]) => close(name, key) && close(label, value)));
  });
}

/** The pod templates of one chart's objects (hooks left out). */
function podsOfChart(objects: readonly KubernetesObject[]): PodTemplate[] {
  return objects.flatMap((object) => {
    const pod = object.hook === undefined ? podTemplate(object) : undefined;
    return pod === undefined ? [] : [pod];
  });
}

const PROBES = ["livenessProbe", "readinessProbe", "startupProbe"];

export const probePort: PolicyRule = {
  id: "probe-port",
  description: "A probe's named port is one its container names (numbers are always valid).",
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
            // A number is valid whether or not the container lists it (the list is informational); a name must be defined.
            if (target === undefined || target.name === undefined || hasPort(ports, target)) continue;
            out.push({
              object,
              path: `${path}.${probe}.${kind}.port`,
              message: `probes port ${describePort(target)}, which the container does not name (${ports.map(describePort).join(", ") || "none declared"}): the probe fails`,
              hint: "point the probe at a named containerPort, or at a port number",
            });
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
    const check = (
      object: KubernetesObject,
      path: string,
      name: string | undefined,
      namespace: string,
      port: { number?: number; name?: string } | undefined,
    ) => {
      if (name === undefined) return;
      const service = find(context, "Service", namespace, name, "");
      if (service === undefined) {
        if (!exists(context, "Service", namespace, name))
          out.push({
            object,
            path,
            message: `sends traffic to Service ${namespace}/${name}, which does not exist in the stack`,
            hint: "name a Service the platform deploys, or declare it external in policies/",
          });
        return;
      }
      if (port !== undefined && (port.number !== undefined || port.name !== undefined) && !servicePort(service, port)) {
        out.push({
          object,
          path,
          message: `sends traffic to port ${port.name ?? port.number} of Service ${namespace}/${name}, which has no such port`,
          hint: "use a port the Service declares (spec.ports)",
        });
      }
    };
    for (const object of objects) {
      if (object.kind === "Ingress" && object.hook === undefined) {
        const spec = record(object.body.spec);
        const backend = record(record(spec.defaultBackend).service);
        if (Object.keys(backend).length > 0) check(object, "spec.defaultBackend.service", text(backend.name), object.namespace, portOf(backend));
        // extensions/v1beta1 and networking.k8s.io/v1beta1 name the Service as serviceName/servicePort.
        const legacy = record(spec.backend);
        if (text(legacy.serviceName) !== undefined) check(object, "spec.backend", text(legacy.serviceName), object.namespace, legacyPort(legacy.servicePort));
        for (const [r, rule] of list(spec.rules).entries()) {
          for (const [p, path] of list(record(rule.http).paths).entries()) {
            const backend = record(path.backend);
            if (text(backend.serviceName) !== undefined) {
              check(object, `spec.rules[${r}].http.paths[${p}].backend`, text(backend.serviceName), object.namespace, legacyPort(backend.servicePort));
              continue;
            }
            const service = record(backend.service);
            check(object, `spec.rules[${r}].http.paths[${p}].backend.service`, text(service.name), object.namespace, portOf(service));
          }
        }
      }
      if (object.kind === "HTTPRoute" && object.group === "gateway.networking.k8s.io") {
        for (const [r, rule] of list(record(object.body.spec).rules).entries()) {
          for (const [b, ref] of list(rule.backendRefs).entries()) {
            if ((text(ref.kind) ?? "Service") !== "Service") continue;
            check(
              object,
              `spec.rules[${r}].backendRefs[${b}]`,
              text(ref.name),
              text(ref.namespace) ?? object.namespace,
              typeof ref.port === "number" ? { number: ref.port } : undefined,
            );
          }
        }
      }
    }
    return out;
  },
};

/** `servicePort: 80` or `servicePort: http` (the v1beta1 form). */
function legacyPort(value: unknown): { number?: number; name?: string } {
  const ref = portRef(value);
  return ref === undefined ? {} : ref;
}

function portOf(service: Json): { number?: number; name?: string } {
  const port = record(service.port);
  return { number: typeof port.number === "number" ? port.number : undefined, name: text(port.name) };
}

export const referenceExists: PolicyRule = {
  id: "reference-exists",
  description:
    "Secrets, ConfigMaps, PersistentVolumeClaims and ServiceAccounts a pod names exist in the stack (as release objects, as hooks when the pod runs, or as a Secret a pre-install hook Job or another workload makes) or are declared external.",
  severity: "error",
  check(objects, context) {
    const out: RuleResult[] = [];
    for (const object of objects) {
      const pod = podTemplate(object);
      // helm.v4.Chart drops hooks: a hook's pod never runs (hooks-under-chart says so).
      if (pod === undefined || (object.hook !== undefined && ENGINES[context.engine].hooks === "dropped")) continue;
      const base = pod.path === "" ? "spec" : `${pod.path}.spec`;
      const need = (kind: string, name: string | undefined, path: string, optional: unknown) => {
        if (name === undefined || optional === true) return;
        const result = referenceResult(object, kind, name, context);
        if (result !== undefined) out.push({ object, path, ...result });
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

/**
 * What is wrong with a pod's reference to `kind name`, if anything: nothing
 * names it; or only hooks create it, and not while this pod runs (a
 * post-install hook's ServiceAccount for a pre-install Job); or it is there
 * on upgrades only, so a first install fails. Under helm.v4.Chart hooks are
 * never created at all.
 */
function referenceResult(
  object: KubernetesObject,
  kind: string,
  name: string,
  context: Parameters<PolicyRule["check"]>[1],
): Omit<RuleResult, "object" | "path"> | undefined {
  const hint = "create it in a chart, mark the reference optional, or declare it external in policies/";
  const inRelease = find(context, kind, object.namespace, name, "");
  const external = inRelease === undefined && exists(context, kind, object.namespace, name);
  if (external) return undefined;
  const record = ENGINES[context.engine];
  const hooks = record.hooks === "dropped" ? [] : hooksNamed(context, kind, object.namespace, name, "");
  const targets = [...(inRelease === undefined ? [] : [inRelease]), ...hooks];
  // A Secret a program of the stack makes (a webhook's certificate): a pre-install hook's, there before the
  // release's objects, or an operator's, which the pods mounting it wait for.
  if (
    targets.length === 0 &&
    kind === "Secret" &&
    object.hook === undefined &&
    secretMaker(context, object.namespace, name, { hooksRun: record.hooks !== "dropped", consumer: object }) !== undefined
  )
    return undefined;
  if (targets.length === 0) {
    const dropped = record.hooks === "dropped" && hooksNamed(context, kind, object.namespace, name, "").length > 0;
    return {
      message: dropped
        ? `names ${kind} ${object.namespace}/${name}, which only a hook creates, and ${record.display} drops hooks`
        : `names ${kind} ${object.namespace}/${name}, which the stack does not create`,
      hint: dropped ? 'deploy the chart with engine: "release"' : hint,
    };
  }
  // Another chart's object: its own release creates it.
  if (inRelease !== undefined && !context.charts.get(context.chart)?.includes(inRelease)) return undefined;
  const presence = presenceFor(object, targets);
  if (presence.kind === "present") return undefined;
  const runs = object.hook === undefined ? "the release's objects are created" : `this ${object.hook.events.join(",")} hook runs`;
  if (presence.kind === "upgrades-only") {
    return {
      message: `names ${kind} ${object.namespace}/${name}, which does not exist yet when ${runs} on a first install (${presence.missingAt}): the install fails, upgrades work`,
      hint: "create it in an earlier hook (a pre-install hook of lower weight), or make the reference optional",
      severity: "warning",
    };
  }
  return {
    message: `names ${kind} ${object.namespace}/${name}, which the chart creates only as a hook that is not there when ${runs} (${presence.missingAt})`,
    hint: "create it with the release, or in a hook that runs before (a lower weight, an earlier phase) and is not deleted on success",
  };
}

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
        return [
          {
            object: hpa,
            path: "spec.scaleTargetRef",
            message: `scales ${kind} ${hpa.namespace}/${name}, which the stack does not create`,
            hint: "name the workload the chart deploys (its kind and name)",
          },
        ];
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
      out.push({
        object,
        path: at,
        message: `selects no pods in namespace ${object.namespace}`,
        hint: "match the pod template labels of the workload it protects",
      });
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
      return [
        {
          object,
          path: "spec.selector",
          message: "does not match the labels of its own pod template",
          hint: `make spec.selector match ${pod.path}.metadata.labels`,
        },
      ];
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
      const candidates = [...context.charts.values()]
        .flat()
        .filter((object) => object.group === "" && object.kind === "Service" && scope.includes(object.namespace));
      const labelsOf = (service: KubernetesObject) => record(record(service.body.metadata).labels) as Record<string, string>;
      const chosen = candidates.filter((service) => matches(spec.selector, labelsOf(service)));
      if (chosen.length === 0) {
        // A selector a letter or two away from a Service's labels is a typo; otherwise the Service may be the
        // cluster's (`kubernetes` in default) or an operator's (prometheus-operator's kubelet Service).
        const near = nearMiss(
          record(record(spec.selector).matchLabels),
          candidates.map((service) => ({ labels: labelsOf(service), object: service })),
        );
        out.push(
          near === undefined
            ? {
                object: monitor,
                path: "spec.selector",
                message: `selects no Service the stack renders in ${scope.join(", ")}; the cluster or an operator may provide it (the API server's "kubernetes" Service, an operator's kubelet Service), which chartroom cannot see`,
                hint: "nothing to do if that Service exists; otherwise match the labels of the Service that exposes the metrics port",
                severity: "warning",
              }
            : {
                object: monitor,
                path: "spec.selector",
                message: `selects no Service in ${scope.join(", ")}; Service ${near.object.name} has ${JSON.stringify(near.labels)}`,
                hint: "match the labels of the Service that exposes the metrics port (a typo?)",
              },
        );
        continue;
      }
      for (const [i, endpoint] of list(spec.endpoints).entries()) {
        const port = text(endpoint.port);
        if (port !== undefined && !chosen.some((service) => servicePort(service, { name: port }))) {
          out.push({
            object: monitor,
            path: `spec.endpoints[${i}].port`,
            message: `scrapes port "${port}", which no selected Service names`,
            hint: "use the name of a port in the Service's spec.ports",
          });
        }
      }
    }
    return out;
  },
};

export const AGREEMENT: PolicyRule[] = [
  serviceSelectsPods,
  serviceTargetPort,
  probePort,
  ingressBackend,
  referenceExists,
  hpaTarget,
  selectorMatchesPods,
  workloadSelector,
  serviceMonitorSelects,
];
