import type { PolicyRule, RuleResult } from "../../model/policy.js";
import { imagesOf } from "../../images/extract.js";
import { pinnedReference } from "../../images/reference.js";
import { formatPath } from "../../util/tree-path.js";
import { containerPorts, containers, podTemplate, record, text, type Container } from "../objects.js";

// Workload hygiene: what makes a deploy reproducible and schedulable.

function eachContainer(
  objects: Parameters<PolicyRule["check"]>[0],
  visit: (container: Container, object: (typeof objects)[number], out: RuleResult[]) => void,
  init = true,
): RuleResult[] {
  const out: RuleResult[] = [];
  for (const object of objects) {
    const pod = podTemplate(object);
    if (pod === undefined || object.hook !== undefined) continue;
    for (const container of containers(pod, init)) visit(container, object, out);
  }
  return out;
}

export const imageTag: PolicyRule = {
  id: "image-tag",
  description: "Images are pinned: a tag other than latest, or better a digest.",
  severity: "warning",
  check(objects) {
    return eachContainer(objects, ({ container, path }, object, out) => {
      const image = text(container.image) ?? "";
      if (image.includes("@sha256:")) return;
      const tag = /:([^/:]+)$/.exec(image)?.[1];
      if (tag !== undefined && tag !== "latest") return;
      out.push({
        object,
        path: `${path}.image`,
        message:
          tag === undefined
            ? `runs ${image || "(no image)"} without a tag: what runs changes without a deploy`
            : `runs ${image}: the latest tag moves, so what runs changes without a deploy`,
        hint: "pin a tag, or better a digest (image@sha256:…)",
      });
    });
  },
};

export const imageDigest: PolicyRule = {
  id: "image-digest",
  description: "In a production stack every image runs by digest: a tag can be pushed again, a digest cannot.",
  severity: "warning",
  check(objects, context) {
    if (context.production !== true) return [];
    const out: RuleResult[] = [];
    for (const object of objects) {
      for (const use of imagesOf(object)) {
        if (use.reference === undefined || use.reference.digest !== undefined) continue;
        const digest = context.lockedImages?.get(use.written);
        out.push({
          object,
          path: formatPath(use.at.map((step) => (typeof step === "number" ? { index: step } : { key: step }))),
          message: `runs ${use.written} by tag in production stack ${context.stack}: the tag can be pushed again with other bytes`,
          hint:
            digest === undefined
              ? `declare registries["${use.reference.registry}"] and run \`chartroom lock\` to lock its digest, then set pinImages: true on ${context.chart}`
              : `use ${pinnedReference(use.written, digest)}: set pinImages: true on ${context.chart}, and chartroom deploys it so`,
        });
      }
    }
    return out;
  },
};

export const resourceRequests: PolicyRule = {
  id: "resource-requests",
  description: "Containers request CPU and memory, so the scheduler can place them.",
  severity: "warning",
  check(objects) {
    return eachContainer(
      objects,
      ({ container, path }, object, out) => {
        const requests = record(record(container.resources).requests);
        const missing = ["cpu", "memory"].filter((resource) => requests[resource] === undefined);
        if (missing.length > 0)
          out.push({
            object,
            path: `${path}.resources.requests`,
            message: `requests no ${missing.join(" or ")}`,
            hint: `set resources.requests.${missing[0]} (the chart's resources value)`,
          });
      },
      false,
    );
  },
};

export const memoryLimitWithoutRequest: PolicyRule = {
  id: "memory-limit-without-request",
  description: "A memory limit comes with a memory request (Kubernetes otherwise requests the whole limit).",
  severity: "info",
  check(objects) {
    return eachContainer(objects, ({ container, path }, object, out) => {
      const resources = record(container.resources);
      if (record(resources.limits).memory !== undefined && record(resources.requests).memory === undefined) {
        out.push({
          object,
          path: `${path}.resources.requests.memory`,
          message: "limits memory without requesting any: the scheduler reserves the whole limit",
          hint: "set resources.requests.memory to what the container usually needs",
        });
      }
    });
  },
};

export const readinessProbe: PolicyRule = {
  id: "readiness-probe",
  description: "A container that serves ports has a readiness probe, so traffic waits until it is ready.",
  severity: "warning",
  check(objects) {
    return eachContainer(
      objects,
      ({ container, path }, object, out) => {
        if (object.kind === "Job" || object.kind === "CronJob") return;
        if (containerPorts(container).length > 0 && container.readinessProbe === undefined) {
          out.push({
            object,
            path: `${path}.readinessProbe`,
            message: "serves ports but has no readiness probe: it takes traffic before it is ready",
            hint: "add a readinessProbe on the serving port",
          });
        }
      },
      false,
    );
  },
};

export const WORKLOADS: PolicyRule[] = [imageTag, imageDigest, resourceRequests, memoryLimitWithoutRequest, readinessProbe];
