import type { PolicyRule, RuleResult } from "../../model/policy.js";
import { CLUSTER_SCOPED } from "../../render/kinds.js";
import { find, matches, podsIn, record, text } from "../objects.js";

// Who owns a field: two controllers writing the same thing fight, and a
// budget that allows no eviction blocks every drain.

export const hpaAndReplicas: PolicyRule = {
  id: "hpa-and-replicas",
  description: "A workload scaled by a HorizontalPodAutoscaler does not also set spec.replicas (each deploy resets the autoscaler's count).",
  severity: "warning",
  check(objects, context) {
    const out: RuleResult[] = [];
    for (const hpa of objects.filter((object) => object.kind === "HorizontalPodAutoscaler" && object.hook === undefined)) {
      const ref = record(record(hpa.body.spec).scaleTargetRef);
      const target = find(context, text(ref.kind) ?? "", hpa.namespace, text(ref.name) ?? "");
      if (target === undefined || record(target.body.spec).replicas === undefined) continue;
      out.push({
        object: target,
        path: "spec.replicas",
        message: `sets replicas while ${hpa.kind} ${hpa.namespace}/${hpa.name} scales it: every deploy resets the count the autoscaler chose`,
        hint: "leave spec.replicas unset when autoscaling is on (most charts do this behind autoscaling.enabled)",
      });
    }
    return out;
  },
};

export const pdbBlocksEviction: PolicyRule = {
  id: "pdb-blocks-eviction",
  description: "A PodDisruptionBudget leaves room for one voluntary eviction (minAvailable below the replicas, maxUnavailable above 0).",
  severity: "error",
  check(objects, context) {
    const out: RuleResult[] = [];
    for (const pdb of objects.filter((object) => object.kind === "PodDisruptionBudget" && object.hook === undefined)) {
      const spec = record(pdb.body.spec);
      if (spec.maxUnavailable === 0 || spec.maxUnavailable === "0%") {
        out.push({
          object: pdb,
          path: "spec.maxUnavailable",
          message: "allows no pod to be evicted: node drains and upgrades never finish",
          hint: "set maxUnavailable to 1 (or a percentage above 0)",
        });
        continue;
      }
      if (typeof spec.minAvailable !== "number") continue;
      for (const pod of podsIn(context, pdb.namespace).filter((template) => matches(spec.selector, template.labels))) {
        const replicas = record(pod.object.body.spec).replicas;
        if (typeof replicas === "number" && spec.minAvailable >= replicas) {
          out.push({
            object: pdb,
            path: "spec.minAvailable",
            message: `requires ${spec.minAvailable} of ${pod.object.kind} ${pod.object.namespace}/${pod.object.name}'s ${replicas} replicas: no voluntary eviction ever succeeds`,
            hint: "set minAvailable below the replicas, or use maxUnavailable: 1",
          });
        }
      }
    }
    return out;
  },
};

export const clusterScopedNamespace: PolicyRule = {
  id: "cluster-scoped-namespace",
  description: "A cluster-scoped object names no namespace (the API server drops it; tools that trust it are misled).",
  severity: "warning",
  check(objects) {
    return objects
      .filter((object) => CLUSTER_SCOPED.has(`${object.group}/${object.kind}`) && text(record(object.body.metadata).namespace) !== undefined)
      .map((object) => ({
        object,
        path: "metadata.namespace",
        message: `is cluster-scoped but names namespace "${text(record(object.body.metadata).namespace)}"`,
        hint: "remove metadata.namespace from the template",
      }));
  },
};

export const OWNERSHIP: PolicyRule[] = [hpaAndReplicas, pdbBlocksEviction, clusterScopedNamespace];
