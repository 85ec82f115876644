import type { KubernetesObject, PolicyRule, RuleResult } from "../../model/policy.js";
import { displayName } from "../../model/objects.js";

// What names an object: group, kind, namespace and name. Two objects under one
// identity are one object to the API server and one resource URN to Pulumi;
// a name the API server's validation refuses never gets created.

export const duplicateObject: PolicyRule = {
  id: "duplicate-object",
  description: "No two objects of a stack share a group, kind, namespace and name (the API server keeps one; Pulumi refuses two resources with one URN).",
  severity: "error",
  check(objects, context) {
    const out: RuleResult[] = [];
    const mine = new Map<string, number>();
    for (const object of objects) if (object.hook === undefined) mine.set(object.id, (mine.get(object.id) ?? 0) + 1);
    for (const [id, count] of mine) {
      const object = objects.find((item) => item.id === id) as KubernetesObject;
      if (count > 1)
        out.push({
          object,
          message: `is rendered ${count} times by this chart: only one of them can exist`,
          hint: "make the names differ (check the templates that render it), or render it once",
        });
      for (const [chart, others] of context.charts) {
        if (chart === context.chart || !others.some((other) => other.id === id && other.hook === undefined)) continue;
        out.push({
          object,
          message: `is also rendered by chart ${chart} of this stack: both would own ${displayName(object)}`,
          hint: "let one chart render it (a values switch), or give one of them another name",
        });
      }
    }
    return out;
  },
};

/** Kinds whose names are DNS labels (RFC 1035/1123): at most 63 characters. */
const LABEL_NAMED = new Set(["/Service", "/Namespace"]);

export const objectName: PolicyRule = {
  id: "object-name",
  description: "Object names fit the API server's limits: 253 characters, 63 for Services and Namespaces.",
  severity: "error",
  check(objects) {
    const out: RuleResult[] = [];
    for (const object of objects) {
      const limit = LABEL_NAMED.has(`${object.group}/${object.kind}`) ? 63 : 253;
      if (object.name.length <= limit) continue;
      out.push({
        object,
        path: "metadata.name",
        message: `has a name of ${object.name.length} characters; the API server refuses names over ${limit} for a ${object.kind}`,
        hint: "shorten the release name or the chart's fullnameOverride / nameOverride",
      });
    }
    return out;
  },
};

export const IDENTITY: PolicyRule[] = [duplicateObject, objectName];
