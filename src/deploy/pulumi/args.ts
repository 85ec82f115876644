import type * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ChartroomError } from "../../errors/index.js";
import type { DeploymentPlan } from "../../workflows/deployments.js";
import { pinImagesPostRenderer } from "./images.js";

const CRD_TYPES = new Set(["kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition", "kubernetes:apiextensions.k8s.io/v1beta1:CustomResourceDefinition"]);

/**
 * A `transforms` entry for helm.v4.Chart: CustomResourceDefinitions are kept
 * when the chart goes away, because deleting a CRD deletes every instance of
 * it in the whole cluster.
 */
export function retainCrds(args: pulumi.ResourceTransformArgs): pulumi.ResourceTransformResult | undefined {
  if (!CRD_TYPES.has(args.type)) return undefined;
  return { props: args.props, opts: pulumi.mergeOptions(args.opts, { retainOnDelete: true }) };
}

/** What both engines take alike: the verified archive by path, the values, where and under which name. */
function sameForBoth(plan: DeploymentPlan, values: pulumi.Input<Record<string, unknown>>) {
  return { chart: plan.chart, values, namespace: plan.spec.namespace, name: plan.spec.releaseName, skipCrds: plan.spec.skipCrds };
}

/** The inputs of helm.v4.Chart for a plan: the verified archive by path, nothing fetched. */
export function chartArgs(plan: DeploymentPlan, values: pulumi.Input<Record<string, unknown>>): k8s.helm.v4.ChartArgs {
  const { spec } = plan;
  return {
    ...sameForBoth(plan, values),
    ...(plan.postRenderer === undefined ? {} : { postRenderer: { command: plan.postRenderer.command, args: plan.postRenderer.args } }),
    ...(spec.resourcePrefix === undefined ? {} : { resourcePrefix: spec.resourcePrefix }),
  };
}

/** The inputs of helm.v3.Release for a plan, with the declaration's release settings. */
export function releaseArgs(plan: DeploymentPlan, values: pulumi.Input<Record<string, unknown>>): k8s.helm.v3.ReleaseArgs {
  const { spec } = plan;
  if (plan.postRenderer !== undefined && plan.postRenderer.args.length > 0 && !spec.pinImages) {
    throw new ChartroomError("ENGINE_UNSUPPORTED", `helm.v3.Release takes a post-renderer command without arguments (charts.${spec.key}.postRenderer)`, {
      place: { chart: spec.key, key: `charts.${spec.key}.postRenderer.args` },
      hint: "wrap the command and its arguments in a script",
    });
  }
  return {
    ...sameForBoth(plan, values),
    // A null in values removes the chart's default, as with helm -f; the Release drops nulls unless told.
    allowNullValues: true,
    ...spec.release,
    // pinImages runs the chart's own post-renderer first, arguments and all.
    ...(spec.pinImages ? { postrender: pinImagesPostRenderer(plan) } : plan.postRenderer === undefined ? {} : { postrender: plan.postRenderer.command }),
  };
}
