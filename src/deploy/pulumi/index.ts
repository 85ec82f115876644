// chartroom/pulumi: every declared chart of a stack deployed as the lock says,
// from the verified archive, with values validated before anything is created.
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { WrittenConfig } from "../../config/types.js";
import { ChartroomError } from "../../errors/index.js";
import { didYouMean } from "../../util/nearest.js";
import type { ChartValues, ValuesOf } from "../../values/typed.js";
import { BUILT_IN_NAMESPACES } from "../../engine/rights.js";
import { SchemaCache } from "../../values/schema.js";
import { deploymentPlans, type DeploymentPlan } from "../../workflows/deployments.js";
import { checkOptions } from "../../project/arguments.js";
import { openProject } from "../../project/project.js";
import { ChartDeployment, type ChartResourceOptions } from "./deployment.js";
import { projectRoot } from "./root.js";

export { ChartDeployment, type ChartDeploymentArgs, type ChartResourceOptions } from "./deployment.js";
export { retainCrds } from "./args.js";
export { aliasApiVersions, apiVersionAliases } from "./aliases.js";

/** A value where any part may be a Pulumi Input (an Output, a promise, or the value). */
export type DeepInput<T> = T extends readonly (infer Item)[]
  ? pulumi.Input<readonly DeepInput<Item>[]>
  : T extends object
    ? pulumi.Input<{ [K in keyof T]?: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** Values given in code, per chart key: typed by chartroom.types.ts (any map before it exists); Inputs anywhere. */
export type CodeValues = [keyof ChartValues] extends [never]
  ? Record<string, pulumi.Input<Record<string, unknown>>>
  : { [K in keyof ChartValues]?: DeepInput<ValuesOf<K & string>> };

/** Options of `deployCharts`. */
export interface DeployOptions {
  /**
   * The chartroom stack whose values files are used.
   * @default the Pulumi stack's name
   */
  stack?: string;
  /** The Kubernetes provider every chart uses. Required unless `allowAmbientKubeconfig`. */
  provider?: k8s.Provider;
  /**
   * Let charts use whatever kubeconfig this machine has (for local experiments only).
   * @default false
   */
  allowAmbientKubeconfig?: boolean;
  /** Values given in code, highest precedence; Outputs and Promises anywhere. */
  values?: CodeValues;
  /** Resource options per chart key (`protect`, `ignoreChanges`, `deletedWith`, `customTimeouts`, `skipAwait`). */
  charts?: Record<string, ChartResourceOptions>;
  /**
   * Create a Namespace for every namespace the charts use, except the ones
   * every cluster has and those listed in `existingNamespaces`; each chart
   * depends on its own. Neither engine creates them: helm.v4.Chart never
   * does, and chartroom leaves helm.v3.Release's `createNamespace` off.
   * @default true
   */
  createNamespaces?: boolean;
  /** Namespaces that exist already (made elsewhere): used, never created. */
  existingNamespaces?: string[];
  /**
   * A prefix for every resource name, so one program can deploy the platform
   * twice (two clusters, two providers) without URN collisions.
   */
  name?: string;
  /**
   * Alias helm.v4.Chart children to their kind's other apiVersions (an apiVersion move is an update).
   * @default true
   */
  aliasApiVersions?: boolean;
  /**
   * Folder of chartroom.config.ts, charts.lock.json and values/.
   * @default the nearest folder up from the program's that holds charts.lock.json
   */
  dir?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Every declared chart of a stack, in dependency order, each a
 * ChartDeployment. `dependsOn` between charts becomes Pulumi `dependsOn`
 * between their deployments and their inner Chart/Release.
 */
export async function deployCharts<R extends string, C extends string>(
  config: WrittenConfig<R, C>,
  given: DeployOptions = {},
): Promise<Record<C, ChartDeployment>> {
  const options = checkOptions("deployCharts", given);
  if (options.provider === undefined && options.allowAmbientKubeconfig !== true) {
    throw new ChartroomError("PROVIDER_MISSING", "deployCharts needs an explicit Kubernetes provider", {
      details: [
        "without one, every chart targets whatever kubeconfig this machine has (KUBECONFIG, ~/.kube/config, the current context):",
        "the wrong cluster is one `kubectl config use-context` away",
      ],
      hint: "pass { provider: new k8s.Provider(...) }; for a local experiment only, allowAmbientKubeconfig: true",
    });
  }
  const project = await openProject({ dir: options.dir ?? projectRoot(), env: options.env, config });
  // Options or values for a chart that is not declared would be dropped without a word.
  for (const key of [...Object.keys(options.charts ?? {}), ...Object.keys(options.values ?? {})])
    project.config.charts.find((spec) => spec.key === key) ??
      unknownChart(
        key,
        project.config.charts.map((spec) => spec.key),
      );
  const plans = await deploymentPlans(project, { stack: options.stack ?? pulumi.getStack() });
  const prefix = options.name === undefined ? "" : `${options.name}-`;
  const namespaces = options.createNamespaces === false ? new Map<string, k8s.core.v1.Namespace>() : createNamespaces(plans, options, prefix);
  const schemas = new SchemaCache();
  const created: Record<string, ChartDeployment> = {};
  for (const plan of dependencyOrder(plans)) {
    const namespace = namespaces.get(plan.spec.namespace);
    const after = plan.spec.dependsOn.map((key) => created[key]).filter((item): item is ChartDeployment => item !== undefined);
    const values = (options.values as Record<string, unknown> | undefined)?.[plan.spec.key];
    created[plan.spec.key] = new ChartDeployment(
      `${prefix}${plan.spec.key}`,
      { plan, values, provider: options.provider, after, options: options.charts?.[plan.spec.key], aliasApiVersions: options.aliasApiVersions, schemas },
      { dependsOn: namespace === undefined ? [] : [namespace] },
    );
  }
  return created as Record<C, ChartDeployment>;
}

function unknownChart(key: string, keys: string[]): never {
  throw new ChartroomError("UNKNOWN_CHART", `deployCharts options name "${key}", which is not a chart declared in the config${didYouMean(key, keys)}`, {
    hint: `declared charts: ${keys.join(", ")}`,
  });
}

/** Namespaces every cluster has: creating one fails with AlreadyExists, deleting one is a disaster. */

function createNamespaces(plans: DeploymentPlan[], options: DeployOptions, prefix: string): Map<string, k8s.core.v1.Namespace> {
  const used = [...new Set(plans.map((plan) => plan.spec.namespace))].sort();
  // A misspelt namespace here would create the real one while looking as if it did not.
  for (const name of options.existingNamespaces ?? []) {
    if (!used.includes(name)) {
      throw new ChartroomError("INVALID_ARGUMENT", `deployCharts names "${name}" in existingNamespaces, which no chart uses${didYouMean(name, used)}`, {
        hint: `the charts' namespaces: ${used.join(", ")}`,
      });
    }
  }
  const existing = new Set([...BUILT_IN_NAMESPACES, ...(options.existingNamespaces ?? [])]);
  const names = used.filter((name) => !existing.has(name));
  const opts = options.provider === undefined ? {} : { provider: options.provider };
  return new Map(names.map((name) => [name, new k8s.core.v1.Namespace(`${prefix}namespace-${name}`, { metadata: { name } }, opts)]));
}

/** Plans ordered so every chart comes after the charts it depends on (the config has no cycles). */
export function dependencyOrder(plans: DeploymentPlan[]): DeploymentPlan[] {
  const byKey = new Map(plans.map((plan) => [plan.spec.key, plan]));
  const out: DeploymentPlan[] = [];
  const seen = new Set<string>();
  const visit = (plan: DeploymentPlan) => {
    if (seen.has(plan.spec.key)) return;
    seen.add(plan.spec.key);
    for (const key of plan.spec.dependsOn) {
      const dependency = byKey.get(key);
      if (dependency !== undefined) visit(dependency);
    }
    out.push(plan);
  };
  for (const plan of plans) visit(plan);
  return out;
}

export { SchemaCache };
