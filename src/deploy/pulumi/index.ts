import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ChartroomError } from "../../errors/index.js";
import { isPlainObject } from "../../util/json.js";
import { checkValues } from "../../values/check.js";
import { mergeLayers } from "../../values/coalesce.js";
import { deferredValue } from "../../values/deferred.js";
import { SchemaCache } from "../../values/schema.js";
import type { ChartValues, ValuesOf } from "../../values/typed.js";
import { deploymentPlans, type DeploymentPlan } from "../../workflows/deployments.js";
import { openProject } from "../../workflows/project.js";
import { chartArgs, releaseArgs, retainCrds } from "./args.js";

export { retainCrds } from "./args.js";

/** A value where any part may be a Pulumi Input (an Output, a promise, or the value). */
export type DeepInput<T> = T extends readonly (infer Item)[]
  ? pulumi.Input<readonly pulumi.Input<Item>[]>
  : T extends object
    ? pulumi.Input<{ [K in keyof T]?: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** Values given in code, per chart key: typed by chartroom.types.ts (any map before it exists); Outputs allowed anywhere. */
export type CodeValues = [keyof ChartValues] extends [never]
  ? Record<string, Record<string, unknown>>
  : { [K in keyof ChartValues]?: DeepInput<ValuesOf<K & string>> };

export interface DeployOptions {
  /** The stack to deploy: its values files are used. */
  stack: string;
  /** The Kubernetes provider every chart uses. Required unless `allowAmbientKubeconfig`. */
  provider?: k8s.Provider;
  /**
   * Let charts use whatever kubeconfig this machine has (for local experiments only).
   * @default false
   */
  allowAmbientKubeconfig?: boolean;
  /** Values given in code, highest precedence. */
  values?: CodeValues;
  /**
   * Create a Namespace for every namespace the charts use (except the ones
   * every cluster has), each chart depending on its own. Neither engine
   * creates them: helm.v4.Chart never does, and chartroom leaves
   * helm.v3.Release's `createNamespace` off so one mechanism serves both.
   * @default true
   */
  createNamespaces?: boolean;
  /** Folder of chartroom.config.ts, charts.lock.json and values/. @default process.cwd() */
  dir?: string;
  env?: NodeJS.ProcessEnv;
}

export interface ChartDeploymentArgs {
  plan: DeploymentPlan;
  values?: unknown;
  provider?: k8s.Provider;
  env?: NodeJS.ProcessEnv;
  schemas?: SchemaCache;
}

/**
 * One declared chart as a Pulumi component: helm.v4.Chart or helm.v3.Release
 * as the lock decided, with the pinned version and values validated before
 * anything is created.
 */
export class ChartDeployment extends pulumi.ComponentResource {
  readonly engine: pulumi.Output<"chart" | "release">;
  readonly version: pulumi.Output<string>;
  readonly reasons: pulumi.Output<string[]>;
  /** The values handed to helm (secret when any part of them is). */
  readonly values: pulumi.Output<Record<string, unknown>>;
  readonly resource: k8s.helm.v4.Chart | k8s.helm.v3.Release;

  constructor(name: string, args: ChartDeploymentArgs, opts: pulumi.ComponentResourceOptions = {}) {
    super("chartroom:index:ChartDeployment", name, {}, opts);
    const { plan } = args;
    validate(plan, args.values, args.schemas ?? new SchemaCache());
    const merged = mergeLayers([plan.fileValues, isPlainObject(args.values) ? args.values : {}]);
    const env = args.env ?? process.env;
    const childOpts: pulumi.CustomResourceOptions = { parent: this, ...(args.provider === undefined ? {} : { provider: args.provider }) };
    if (plan.engine.name === "chart") {
      const transforms = plan.spec.retainCrds ? [retainCrds] : [];
      this.resource = new k8s.helm.v4.Chart(name, chartArgs(plan, merged, env) as unknown as k8s.helm.v4.ChartArgs, { ...childOpts, transforms });
    } else {
      this.resource = new k8s.helm.v3.Release(name, releaseArgs(plan, merged, env) as unknown as k8s.helm.v3.ReleaseArgs, childOpts);
    }
    this.engine = pulumi.output(plan.engine.name);
    this.version = pulumi.output(plan.pin.version);
    this.reasons = pulumi.output(plan.engine.reasons);
    this.values = pulumi.output(merged) as unknown as pulumi.Output<Record<string, unknown>>;
    this.registerOutputs({ engine: this.engine, version: this.version, reasons: this.reasons });
  }
}

/** Validate the layered values and the code values (Outputs present but unchecked) before creating anything. */
function validate(plan: DeploymentPlan, code: unknown, schemas: SchemaCache): void {
  const { findings } = checkValues({
    chart: plan.spec.key,
    stack: "",
    contract: plan.contract,
    layers: plan.layers,
    code: isPlainObject(code) ? (checkable(code) as Record<string, unknown>) : {},
    schemas,
  });
  const errors = findings.filter((found) => found.severity === "error");
  if (errors.length === 0) return;
  throw new ChartroomError("VALUES_INVALID", `values of ${plan.spec.key} do not fit ${plan.spec.chart} ${plan.pin.version}`, {
    place: { chart: plan.spec.key },
    details: errors.map((found) => {
      const where = found.position === undefined ? "in code" : `${found.position.file}:${found.position.line}:${found.position.column}`;
      return `${found.path}: ${found.message} (${where}${found.hint === undefined ? "" : `; ${found.hint}`})`;
    }),
    hint: "fix the values; `chartroom check` shows the same findings",
  });
}

/** Outputs become deferred markers: present, but not known until the deployment runs. */
function checkable(value: unknown): unknown {
  if (pulumi.Output.isInstance(value)) return deferredValue();
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, checkable(item)]));
  if (Array.isArray(value)) return value.some((item) => pulumi.Output.isInstance(item)) ? deferredValue() : value;
  return value;
}

/**
 * Every declared chart of a stack, in dependency order; `dependsOn` between
 * charts becomes Pulumi `dependsOn` between their deployments.
 */
export async function deployCharts(config: unknown, options: DeployOptions): Promise<Record<string, ChartDeployment>> {
  if (options.provider === undefined && options.allowAmbientKubeconfig !== true) {
    throw new ChartroomError("PROVIDER_MISSING", "deployCharts needs an explicit Kubernetes provider", {
      details: [
        "without one, every chart targets whatever kubeconfig this machine has (KUBECONFIG, ~/.kube/config, the current context):",
        "the wrong cluster is one `kubectl config use-context` away",
      ],
      hint: "pass { provider: new k8s.Provider(...) }; for a local experiment only, allowAmbientKubeconfig: true",
    });
  }
  const project = await openProject({ dir: options.dir, env: options.env, config });
  const plans = await deploymentPlans(project, { stack: options.stack });
  const namespaces = options.createNamespaces === false ? new Map<string, k8s.core.v1.Namespace>() : createNamespaces(plans, options.provider);
  const schemas = new SchemaCache();
  const created: Record<string, ChartDeployment> = {};
  for (const plan of dependencyOrder(plans)) {
    const namespace = namespaces.get(plan.spec.namespace);
    const dependsOn = [...plan.spec.dependsOn.map((key) => created[key]), namespace].filter((item): item is ChartDeployment | k8s.core.v1.Namespace => item !== undefined);
    const values = (options.values as Record<string, unknown> | undefined)?.[plan.spec.key];
    created[plan.spec.key] = new ChartDeployment(plan.spec.key, { plan, values, provider: options.provider, env: options.env, schemas }, { dependsOn });
  }
  return created;
}

/** Namespaces every cluster has: creating one fails with AlreadyExists, deleting one is a disaster. */
const BUILT_IN_NAMESPACES = new Set(["default", "kube-system", "kube-public", "kube-node-lease"]);

function createNamespaces(plans: DeploymentPlan[], provider: k8s.Provider | undefined): Map<string, k8s.core.v1.Namespace> {
  const names = [...new Set(plans.map((plan) => plan.spec.namespace))].filter((name) => !BUILT_IN_NAMESPACES.has(name)).sort();
  const opts = provider === undefined ? {} : { provider };
  return new Map(names.map((name) => [name, new k8s.core.v1.Namespace(`namespace-${name}`, { metadata: { name } }, opts)]));
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
