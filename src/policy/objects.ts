import type { ExternalObject, KubernetesObject, PolicyContext } from "../model/policy.js";
import { entryOf, isRecord } from "../util/json.js";
import { isCustomResource } from "../render/kinds.js";
import { POD_TEMPLATE_PATHS } from "../images/extract.js";

// Reading Kubernetes objects the way the rules need them: pod templates,
// containers, ports, label selectors, and lookups across a whole stack.

export type Json = Record<string, unknown>;

export function record(value: unknown): Json {
  return isRecord(value) ? value : {};
}

export function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

export function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A pod template and where it sits in its object. */
export interface PodTemplate {
  object: KubernetesObject;
  path: string;
  labels: Record<string, string>;
  spec: Json;
}

/** The pod template of a workload (the Pod itself for a Pod); undefined for other kinds. */
export function podTemplate(object: KubernetesObject): PodTemplate | undefined {
  if (object.kind === "Pod" && object.group === "") {
    return { object, path: "", labels: labels(record(object.body.metadata).labels), spec: record(object.body.spec) };
  }
  const steps = entryOf(POD_TEMPLATE_PATHS, object.kind);
  if (steps === undefined) return undefined;
  let node: unknown = object.body;
  for (const step of steps) node = record(node)[step];
  if (!isRecord(node)) return undefined;
  return { object, path: steps.join("."), labels: labels(record(node.metadata).labels), spec: record(node.spec) };
}

function labels(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(record(value)).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

export interface Container {
  container: Json;
  /** `spec.template.spec.containers[name=web]` */
  path: string;
  name: string;
}

/** Containers and init containers of a pod template, with their paths. */
export function containers(template: PodTemplate, init = true): Container[] {
  const base = template.path === "" ? "spec" : `${template.path}.spec`;
  const out: Container[] = [];
  for (const key of init ? ["containers", "initContainers"] : ["containers"]) {
    for (const container of list(template.spec[key])) {
      const name = text(container.name) ?? "?";
      out.push({ container, path: `${base}.${key}[name=${name}]`, name });
    }
  }
  return out;
}

/** Every pod template of every object in a namespace of the stack. */
export function podsIn(context: PolicyContext, namespace: string): readonly PodTemplate[] {
  return indexOf(context).pods.get(namespace) ?? [];
}

interface StackIndex {
  /** Pod templates by namespace (hooks left out: they run and go). */
  pods: Map<string, PodTemplate[]>;
  /** The pods each Service selects, once asked (two rules ask). */
  selected: WeakMap<KubernetesObject, PodTemplate[]>;
  /** `kind namespace name` → the objects (hooks left out). */
  named: Map<string, KubernetesObject[]>;
  /** `kind namespace name` → hook objects: there for part of a release's life only. */
  hooks: Map<string, KubernetesObject[]>;
  /** Custom resources by namespace (hooks left out): an operator may create pods from them. */
  custom: Map<string, KubernetesObject[]>;
}

// Built once per stack run, not once per rule and object: rules look up
// thousands of references in stacks of thousands of objects.
const indexes = new WeakMap<PolicyContext["charts"], StackIndex>();

function push<T>(map: Map<string, T[]>, key: string, item: T): void {
  const items = map.get(key);
  if (items === undefined) map.set(key, [item]);
  else items.push(item);
}

function indexOf(context: PolicyContext): StackIndex {
  let index = indexes.get(context.charts);
  if (index !== undefined) return index;
  index = { pods: new Map(), named: new Map(), selected: new WeakMap(), hooks: new Map(), custom: new Map() };
  for (const objects of context.charts.values()) {
    for (const object of objects) {
      if (object.hook !== undefined) {
        push(index.hooks, `${object.kind} ${object.namespace} ${object.name}`, object);
        continue;
      }
      push(index.named, `${object.kind} ${object.namespace} ${object.name}`, object);
      const template = podTemplate(object);
      if (template !== undefined) push(index.pods, object.namespace, template);
      if (isCustomResource(object)) push(index.custom, object.namespace, object);
    }
  }
  indexes.set(context.charts, index);
  return index;
}

/** Custom resources the stack renders in a namespace: an operator may create pods from any of them. */
export function customResourcesIn(context: PolicyContext, namespace: string): readonly KubernetesObject[] {
  return indexOf(context).custom.get(namespace) ?? [];
}

/** Whether any chart of the stack renders pods in a namespace (hooks aside). */
export function rendersPodsIn(context: PolicyContext, namespace: string): boolean {
  return (indexOf(context).pods.get(namespace)?.length ?? 0) > 0;
}

/** Hook objects of a kind and name in the stack, in a namespace. */
export function hooksNamed(context: PolicyContext, kind: string, namespace: string, name: string, group?: string): readonly KubernetesObject[] {
  return (indexOf(context).hooks.get(`${kind} ${namespace} ${name}`) ?? []).filter((object) => group === undefined || object.group === group);
}

/** The pod templates a Service's selector picks, across the stack, in its namespace. */
export function selectedPods(service: KubernetesObject, context: PolicyContext): readonly PodTemplate[] {
  const index = indexOf(context);
  let pods = index.selected.get(service);
  if (pods === undefined) {
    const selector = Object.entries(record(record(service.body.spec).selector));
    pods = podsIn(context, service.namespace).filter((pod) => selector.every(([key, value]) => pod.labels[key] === value));
    index.selected.set(service, pods);
  }
  return pods;
}

/** `matchLabels` and `matchExpressions` of a LabelSelector (or a plain map, as Services use). */
export function matches(selector: unknown, labelsOf: Record<string, string>, plainMap = false): boolean {
  const given = record(selector);
  const matchLabels = plainMap ? given : record(given.matchLabels);
  for (const [key, value] of Object.entries(matchLabels)) if (labelsOf[key] !== value) return false;
  if (plainMap) return true;
  for (const expression of list(given.matchExpressions)) {
    const key = text(expression.key) ?? "";
    const values = Array.isArray(expression.values) ? expression.values.map(String) : [];
    const has = Object.hasOwn(labelsOf, key);
    switch (expression.operator) {
      case "In":
        if (!has || !values.includes(labelsOf[key] as string)) return false;
        break;
      case "NotIn":
        if (has && values.includes(labelsOf[key] as string)) return false;
        break;
      case "Exists":
        if (!has) return false;
        break;
      case "DoesNotExist":
        if (has) return false;
        break;
    }
  }
  return true;
}

/** Whether a selector selects nothing at all by being empty (which matches everything). */
export function isEmptySelector(selector: unknown): boolean {
  const given = record(selector);
  return Object.keys(record(given.matchLabels)).length === 0 && list(given.matchExpressions).length === 0;
}

/** Objects of a kind by name across the stack, in a namespace ("" for cluster-scoped). */
export function find(context: PolicyContext, kind: string, namespace: string, name: string, group?: string): KubernetesObject | undefined {
  return indexOf(context)
    .named.get(`${kind} ${namespace} ${name}`)
    ?.find((object) => group === undefined || object.group === group);
}

/** Whether an object of this kind and name exists in the stack or is declared external. */
export function exists(context: PolicyContext, kind: string, namespace: string, name: string, group?: string): boolean {
  if (find(context, kind, namespace, name, group) !== undefined) return true;
  return context.external.some(
    (item: ExternalObject) => item.kind === kind && item.name === name && (item.namespace === undefined || item.namespace === namespace),
  );
}

export interface Port {
  name?: string;
  number?: number;
}

/** The ports a container declares. */
export function containerPorts(container: Json): Port[] {
  return list(container.ports).map((port) => ({ name: text(port.name), number: typeof port.containerPort === "number" ? port.containerPort : undefined }));
}

/** `8080`, `"8080"` or `"http"`: a port reference as Kubernetes reads it. */
export function portRef(value: unknown): Port | undefined {
  if (typeof value === "number") return { number: value };
  if (typeof value === "string") return /^\d+$/.test(value) ? { number: Number(value) } : { name: value };
  return undefined;
}

export function hasPort(ports: readonly Port[], wanted: Port): boolean {
  return ports.some((port) => (wanted.name !== undefined ? port.name === wanted.name : port.number === wanted.number));
}

export function describePort(port: Port): string {
  return port.name !== undefined ? `"${port.name}"` : String(port.number);
}
