import type { RenderedObject } from "../model/objects.js";
import { entryOf, isRecord } from "../util/json.js";
import { parseImage, type ImageReference } from "./reference.js";

// Where a render names container images: every container of every pod a
// workload creates, and the image fields of custom resources the user names.

/** Where each workload kind keeps its pod template (the Pod itself is the pod). */
export const POD_TEMPLATE_PATHS: Readonly<Record<string, readonly string[]>> = {
  Deployment: ["spec", "template"],
  ReplicaSet: ["spec", "template"],
  StatefulSet: ["spec", "template"],
  DaemonSet: ["spec", "template"],
  ReplicationController: ["spec", "template"],
  Job: ["spec", "template"],
  CronJob: ["spec", "jobTemplate", "spec", "template"],
};

const CONTAINER_LISTS = ["initContainers", "containers", "ephemeralContainers"] as const;

/** A custom resource's image field, named in the config: `{ kind: "Prometheus", path: "spec.image" }`. */
export interface ImageField {
  kind: string;
  /** Dotted keys from the object's top (`spec.image`, `spec.sidecar.image`). */
  path: string;
}

/** One image a rendered object names. */
export interface ImageUse {
  /** `containers[web]`, `initContainers[migrate]`, or the custom field's path. */
  container: string;
  /** The keys and indexes from the object's top to the image string. */
  at: (string | number)[];
  written: string;
  /** Undefined when the string is no image reference (the use is then reported, never pinned). */
  reference: ImageReference | undefined;
}

/** The keys from a workload's top to its pod spec, or undefined when the object runs no pods itself. */
export function podSpecPath(object: Pick<RenderedObject, "group" | "kind">): string[] | undefined {
  if (object.kind === "Pod" && object.group === "") return ["spec"];
  const template = entryOf(POD_TEMPLATE_PATHS, object.kind);
  return template === undefined ? undefined : [...template, "spec"];
}

/** Every image the object names, in container order. */
export function imagesOf(object: Pick<RenderedObject, "group" | "kind" | "body">, fields: readonly ImageField[] = []): ImageUse[] {
  const out: ImageUse[] = [];
  const podPath = podSpecPath(object);
  const pod = podPath === undefined ? undefined : at(object.body, podPath);
  if (isRecord(pod)) {
    for (const list of CONTAINER_LISTS) {
      const containers = pod[list];
      if (!Array.isArray(containers)) continue;
      containers.forEach((container, index) => {
        if (!isRecord(container) || typeof container.image !== "string") return;
        const name = typeof container.name === "string" ? container.name : String(index);
        out.push(use(`${list}[${name}]`, [...(podPath as string[]), list, index, "image"], container.image));
      });
    }
  }
  for (const field of fields) {
    if (field.kind !== object.kind) continue;
    const keys = field.path.split(".");
    const value = at(object.body, keys);
    if (typeof value === "string") out.push(use(field.path, keys, value));
  }
  return out;
}

function use(container: string, path: (string | number)[], written: string): ImageUse {
  return { container, at: path, written, reference: parseImage(written) };
}

function at(body: unknown, path: readonly (string | number)[]): unknown {
  let node = body;
  for (const step of path) node = isRecord(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[step] : undefined;
  return node;
}
