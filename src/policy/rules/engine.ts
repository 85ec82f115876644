import { ENGINES } from "../../engine/records.js";
import type { PolicyRule } from "../../model/policy.js";

// What the engine does with what the chart renders.

export const hooksUnderChart: PolicyRule = {
  id: "hooks-under-chart",
  description: "Charts deployed by helm.v4.Chart have no lifecycle hooks (it drops them), unless the declaration accepts it (dropHooks).",
  severity: "error",
  check(objects, context) {
    const record = ENGINES[context.engine];
    if (record.hooks !== "dropped" || context.dropHooks) return [];
    return objects
      .filter((object) => object.hook !== undefined && !object.hook.test)
      .map((object) => ({
        object,
        path: 'metadata.annotations["helm.sh/hook"]',
        message: `is a ${object.hook?.events.join(",")} hook: ${record.display} never creates it`,
        hint: 'deploy the chart with engine: "release", or set dropHooks: true to accept it',
      }));
  },
};

export const crdsInChart: PolicyRule = {
  id: "crds-in-chart",
  description: "What removing a chart does to the CustomResourceDefinitions it ships, under its engine.",
  severity: "info",
  check(objects, context) {
    return objects
      .filter((object) => object.kind === "CustomResourceDefinition" && object.group === "apiextensions.k8s.io")
      .map((object) => ({
        object,
        message: ENGINES[context.engine].crdsOnRemoval,
      }));
  },
};

export const ENGINE_RULES: PolicyRule[] = [hooksUnderChart, crdsInChart];
