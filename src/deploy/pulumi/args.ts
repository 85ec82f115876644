import * as pulumi from "@pulumi/pulumi";
import { ChartroomError } from "../../errors/index.js";
import { rememberSecret } from "../../errors/secrets.js";
import type { DeploymentPlan } from "../../workflows/deployments.js";

const CRD_TYPES = new Set([
  "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition",
  "kubernetes:apiextensions.k8s.io/v1beta1:CustomResourceDefinition",
]);

/**
 * A `transforms` entry for helm.v4.Chart: CustomResourceDefinitions are kept
 * when the chart goes away, because deleting a CRD deletes every instance of
 * it in the whole cluster.
 */
export function retainCrds(args: pulumi.ResourceTransformArgs): pulumi.ResourceTransformResult | undefined {
  if (!CRD_TYPES.has(args.type)) return undefined;
  return { props: args.props, opts: pulumi.mergeOptions(args.opts, { retainOnDelete: true }) };
}

/** Credentials from the variables the config names, as Pulumi secrets. */
function repositoryOpts(plan: DeploymentPlan, env: NodeJS.ProcessEnv): Record<string, pulumi.Input<string>> | undefined {
  const repository = plan.repository;
  if (repository === undefined) return undefined;
  const read = (name: string | undefined) => {
    if (name === undefined) return undefined;
    const value = env[name];
    if (value === undefined || value === "") {
      throw new ChartroomError("HTTP_AUTH", `environment variable ${name} is not set`, {
        place: { chart: plan.spec.key, key: `repositories.${plan.spec.repository.name}.auth` },
        hint: `export ${name} before running the Pulumi program`,
      });
    }
    rememberSecret(value);
    return pulumi.secret(value);
  };
  // An OCI chart is named by its full oci:// reference; the options only log in.
  const opts: Record<string, pulumi.Input<string>> = plan.spec.repository.kind === "oci" ? {} : { repo: repository.repo };
  const username = read(repository.usernameEnv);
  const password = read(repository.passwordEnv) ?? read(repository.tokenEnv);
  if (username !== undefined) opts.username = username;
  if (password !== undefined) opts.password = password;
  if (repository.caFile !== undefined) opts.caFile = repository.caFile;
  return opts;
}

/** What both engines take: the pinned chart, its values, where and under which name. */
function commonArgs(plan: DeploymentPlan, values: pulumi.Input<Record<string, unknown>>): Record<string, unknown> {
  const args: Record<string, unknown> = { chart: plan.chart, values, namespace: plan.spec.namespace, name: plan.spec.releaseName, skipCrds: plan.spec.skipCrds };
  if (plan.version !== undefined) args.version = plan.version;
  return args;
}

/** The inputs of helm.v4.Chart for a plan. */
export function chartArgs(plan: DeploymentPlan, values: pulumi.Input<Record<string, unknown>>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const args = commonArgs(plan, values);
  const repository = repositoryOpts(plan, env);
  if (repository !== undefined && Object.keys(repository).length > 0) args.repositoryOpts = repository;
  if (plan.plainHttp) args.plainHttp = true;
  if (plan.spec.postRenderer !== undefined) args.postRenderer = { command: plan.spec.postRenderer.command, args: plan.spec.postRenderer.args };
  if (plan.spec.resourcePrefix !== undefined) args.resourcePrefix = plan.spec.resourcePrefix;
  return args;
}

/** The inputs of helm.v3.Release for a plan, with the declaration's release settings. */
export function releaseArgs(plan: DeploymentPlan, values: pulumi.Input<Record<string, unknown>>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const args: Record<string, unknown> = { ...commonArgs(plan, values), ...plan.spec.release };
  const repository = repositoryOpts(plan, env);
  if (repository !== undefined && Object.keys(repository).length > 0) args.repositoryOpts = repository;
  if (plan.spec.postRenderer !== undefined) {
    if (plan.spec.postRenderer.args.length > 0) {
      throw new ChartroomError("CONFIG_INVALID", `helm.v3.Release takes a post-renderer command without arguments (charts.${plan.spec.key}.postRenderer)`, {
        place: { chart: plan.spec.key, key: `charts.${plan.spec.key}.postRenderer.args` },
        hint: "wrap the command and its arguments in a script",
      });
    }
    args.postrender = plan.spec.postRenderer.command;
  }
  return args;
}
