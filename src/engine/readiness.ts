// What each engine waits for before a deploy goes on, per object: the
// provider's awaiters under helm.v4.Chart (provider/pkg/await: Deployments
// rolled out, Services with endpoints, Jobs complete…), Helm's wait under
// helm.v3.Release. And where the wait proves little: `pulumi.com/skipAwait`,
// or pods without a readiness probe, ready as soon as they start. Pure.
import type { EngineName } from "../model/engine.js";
import { displayName, type RenderedObject } from "../model/objects.js";
import { isRecord } from "../util/json.js";

export interface Awaited {
  id: string;
  display: string;
  /** What the engine waits for. */
  on: string;
  /** Why the wait proves little, when it does. */
  note?: string;
}

const PROVIDER: Record<string, string> = {
  "apps/Deployment": "rolled out: observedGeneration current, updated and available replicas, Progressing with NewReplicaSetAvailable",
  "apps/StatefulSet": "rolled out: updated and ready replicas, currentRevision equal to updateRevision",
  "apps/DaemonSet": "rolled out: every scheduled pod updated and available",
  "batch/Job": "Complete",
  "/Pod": "Ready",
  "/PersistentVolumeClaim": "Bound",
  "/Service": "endpoints for its selector",
  "networking.k8s.io/Ingress": "an address in status.loadBalancer, and endpoints for its backends",
};

const HELM: Record<string, string> = {
  "apps/Deployment": "its new ReplicaSet's ready pods (replicas less maxUnavailable)",
  "apps/StatefulSet": "updated and ready replicas",
  "apps/DaemonSet": "updated and available pods (maxUnavailable allowed)",
  "batch/Job": "Complete (waitForJobs)",
  "/Pod": "Ready",
  "/PersistentVolumeClaim": "Bound",
  "/Service": "a cluster IP",
  "apiextensions.k8s.io/CustomResourceDefinition": "Established",
};

const WORKLOADS = new Set(["apps/Deployment", "apps/StatefulSet", "apps/DaemonSet"]);

export function awaitsOf(engine: EngineName, objects: readonly RenderedObject[]): Awaited[] {
  const table = engine === "release" ? HELM : PROVIDER;
  const out: Awaited[] = [];
  for (const object of objects) {
    const kind = `${object.group}/${object.kind}`;
    let on = table[kind];
    if (on === undefined || object.hook?.test === true) continue;
    const spec = isRecord(object.body.spec) ? object.body.spec : {};
    if (object.kind === "Service" && spec.type === "LoadBalancer") on = "an address in status.loadBalancer (a load balancer controller must give one)";
    if (object.kind === "Service" && (spec.type === "ExternalName" || spec.selector === undefined)) continue;
    const item: Awaited = { id: object.id, display: displayName(object), on: object.hook === undefined ? on : `${on}, as a hook before the release goes on` };
    const note = weakness(engine, object, kind);
    if (note !== undefined) item.note = note;
    out.push(item);
  }
  return out;
}

function weakness(engine: EngineName, object: RenderedObject, kind: string): string | undefined {
  const metadata = isRecord(object.body.metadata) ? object.body.metadata : {};
  const annotations = isRecord(metadata.annotations) ? metadata.annotations : {};
  if (engine === "chart" && annotations["pulumi.com/skipAwait"] === "true")
    return "pulumi.com/skipAwait: not waited for at all; the deploy goes on before it is ready";
  if (!WORKLOADS.has(kind)) return undefined;
  const template = isRecord(object.body.spec) && isRecord(object.body.spec.template) ? object.body.spec.template : {};
  const pod = isRecord(template.spec) ? template.spec : {};
  const containers = Array.isArray(pod.containers) ? pod.containers.filter(isRecord) : [];
  const unprobed = containers.filter((container) => container.readinessProbe === undefined).map((container) => String(container.name));
  return unprobed.length === 0 ? undefined : `no readinessProbe on ${unprobed.join(", ")}: ready as soon as started, so the wait proves little`;
}

/** Container states a rollout does not recover from on its own: the wait would end in a timeout. */
export const STUCK = new Set([
  "ImagePullBackOff",
  "ErrImagePull",
  "InvalidImageName",
  "CreateContainerConfigError",
  "CreateContainerError",
  "CrashLoopBackOff",
]);
