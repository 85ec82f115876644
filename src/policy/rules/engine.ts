import type { PolicyRule } from "../../model/policy.js";

// What the engine does with what the chart renders.

export const hooksUnderChart: PolicyRule = {
  id: "hooks-under-chart",
  description: "Charts deployed by helm.v4.Chart have no lifecycle hooks (it drops them), unless the declaration accepts it (dropHooks).",
  severity: "error",
  check(objects, context) {
    if (context.engine !== "chart" || context.dropHooks) return [];
    return objects
      .filter((object) => object.hook !== undefined && !object.hook.test)
      .map((object) => ({ object, path: "metadata.annotations[\"helm.sh/hook\"]", message: `is a ${object.hook?.events.join(",")} hook: helm.v4.Chart never creates it`, hint: 'deploy the chart with engine: "release", or set dropHooks: true to accept it' }));
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
        message:
          context.engine === "chart"
            ? "a CRD under helm.v4.Chart: chartroom retains it when the chart is removed (retainCrds), or deleting it would delete every custom resource of its kind"
            : "a CRD under helm.v3.Release: Helm keeps those from crds/ on uninstall, deletes those from templates/ (and every custom resource with them)",
      }));
  },
};

export const ENGINE: PolicyRule[] = [hooksUnderChart, crdsInChart];
