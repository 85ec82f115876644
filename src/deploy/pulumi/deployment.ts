import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { ChartroomError } from "../../errors/index.js";
import type { EngineName } from "../../model/engine.js";
import { isPlainObject } from "../../util/json.js";
import { checkValues, type ValuesFinding } from "../../values/check.js";
import { isDeferred } from "../../values/deferred.js";
import type { Values } from "../../values/coalesce.js";
import { SchemaCache } from "../../values/schema.js";
import type { DeploymentPlan } from "../../workflows/deployments.js";
import { aliasApiVersions } from "./aliases.js";
import { chartArgs, releaseArgs, retainCrds } from "./args.js";
import { pinImagesTransform } from "./images.js";
import { keepSecretsSecret, secretTexts } from "./secrets.js";
import { underMocks } from "./runtime.js";
import { checkable, mergedValues, unknownPaths } from "./values.js";

/** Resource options for one chart's resources (under helm.v4.Chart, each child's). */
export interface ChartResourceOptions {
  /** Refuse to delete the chart's resources. */
  protect?: boolean;
  /** Properties whose changes are ignored (of each child under helm.v4.Chart, of the Release otherwise). */
  ignoreChanges?: string[];
  /** Delete with this resource instead of one by one. */
  deletedWith?: pulumi.Resource;
  customTimeouts?: pulumi.CustomTimeouts;
  /**
   * Do not wait for the chart's objects to become ready.
   * @default false
   */
  skipAwait?: boolean;
}

/** What one ChartDeployment is made from: its plan, the values given in code, the provider and its place among the others. */
export interface ChartDeploymentArgs {
  plan: DeploymentPlan;
  /** Values given in code: Outputs and Promises may stand anywhere in them. */
  values?: unknown;
  provider?: k8s.Provider;
  /** Other charts' deployments this one comes after (their inner Chart/Release too). */
  after?: ChartDeployment[];
  options?: ChartResourceOptions;
  /**
   * Alias each helm.v4.Chart child to its kind's other apiVersions, so an
   * apiVersion move is an update, not a create and a delete.
   * @default true
   */
  aliasApiVersions?: boolean;
  schemas?: SchemaCache;
}

/**
 * One declared chart as a Pulumi component: helm.v4.Chart or helm.v3.Release
 * as the lock decided, given the verified archive by path and values
 * validated before anything is created.
 */
export class ChartDeployment extends pulumi.ComponentResource {
  readonly engine: pulumi.Output<EngineName>;
  readonly version: pulumi.Output<string>;
  readonly reasons: pulumi.Output<string[]>;
  /** The values handed to helm (secret when any part of them is). */
  readonly values: pulumi.Output<Values>;
  readonly resource: k8s.helm.v4.Chart | k8s.helm.v3.Release;

  constructor(name: string, args: ChartDeploymentArgs, opts: pulumi.ComponentResourceOptions = {}) {
    super("chartroom:index:ChartDeployment", name, {}, { ...opts, dependsOn: [...toArray(opts.dependsOn), ...(args.after ?? [])] });
    const { plan } = args;
    const schemas = args.schemas ?? new SchemaCache();
    // What is known now is checked now; the rest once it resolves. Keys the chart
    // does not know are warned about once each (Helm ignores them; they never block a deploy).
    const warned = new Set<string>();
    const warn = (found: ValuesFinding) => {
      if (warned.has(found.path)) return;
      warned.add(found.path);
      void pulumi.log.warn(`values of ${plan.spec.key}: ${found.path}: ${found.message}${found.hint === undefined ? "" : ` (${found.hint})`}`, this);
    };
    validate(plan, checkable(args.values ?? {}), schemas, warn);
    const merged = mergedValues(plan.fileValues, args.values, (resolved) => checkResolved(plan, resolved, schemas, warn));
    void warnUnknown(this, plan.spec.key, args.values);
    // dependsOn on the inner resource too: a component's dependsOn does not order its children's deletes.
    const inner = (args.after ?? []).map((deployment) => deployment.resource);
    const own = args.options ?? {};
    const childOpts: pulumi.CustomResourceOptions = { parent: this, dependsOn: inner, ...(args.provider === undefined ? {} : { provider: args.provider }) };
    const build = { name, args, merged, own, childOpts, parent: this };
    this.resource = BUILDERS[plan.engine.name](build);
    this.engine = pulumi.output(plan.engine.name);
    this.version = pulumi.output(plan.pin.version);
    this.reasons = pulumi.output(plan.engine.reasons);
    this.values = merged;
    // The chart key, for the policy pack: it finds each object's chart through its parents.
    this.registerOutputs({ chart: plan.spec.key, engine: this.engine, version: this.version, reasons: this.reasons });
  }
}

interface Build {
  name: string;
  args: ChartDeploymentArgs;
  merged: pulumi.Output<Values>;
  own: ChartResourceOptions;
  childOpts: pulumi.CustomResourceOptions;
  parent: pulumi.Resource;
}

/** The Pulumi resource each engine deploys a chart as (engine/records.ts has what else differs). */
const BUILDERS: Record<EngineName, (build: Build) => k8s.helm.v4.Chart | k8s.helm.v3.Release> = {
  chart: ({ name, args, merged, own, childOpts, parent }) => {
    // Under setMocks a helm.v4.Chart has no children to transform, and the mock monitor takes no transforms.
    const transforms = underMocks() ? [] : chartTransforms(args, parent);
    return new k8s.helm.v4.Chart(
      name,
      { ...chartArgs(args.plan, merged), ...(own.skipAwait === undefined ? {} : { skipAwait: own.skipAwait }) },
      { ...childOpts, transforms },
    );
  },
  release: ({ name, args, merged, own, childOpts }) => {
    // Values holding a secret (under a secret-looking key, or perhaps in a Secret the chart renders) go as a Pulumi secret, in and out.
    const secret = args.plan.fileSecrets.length > 0 || args.plan.rendersSecrets;
    const values = secret ? pulumi.secret(merged) : merged;
    const secretOutputs = secret ? { additionalSecretOutputs: ["values"] } : {};
    return new k8s.helm.v3.Release(
      name,
      { ...releaseArgs(args.plan, values), ...(own.skipAwait === undefined ? {} : { skipAwait: own.skipAwait }) },
      { ...childOpts, ...resourceOptions(own), ...secretOutputs },
    );
  },
};

/**
 * The transforms a helm.v4.Chart deployment gives its children, in order:
 * secrets first, so the others see props whose secrets are already protected.
 */
export function chartTransforms(args: ChartDeploymentArgs, parent: pulumi.Resource): pulumi.ResourceTransform[] {
  const { plan } = args;
  const own = args.options ?? {};
  return [
    keepSecretsSecret(
      secretTexts(args.values).then((texts) => [...texts, ...plan.fileSecrets]),
      parent,
    ),
    ...(plan.spec.retainCrds ? [retainCrds] : []),
    ...(args.aliasApiVersions === false ? [] : [aliasApiVersions]),
    ...(plan.spec.pinImages ? [pinImagesTransform(plan)] : []),
    ...(hasChildOptions(own) ? [childOptions(own)] : []),
  ];
}

function toArray<T>(value: pulumi.Input<pulumi.Input<T>[]> | pulumi.Input<T> | undefined): pulumi.Input<T>[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value as pulumi.Input<T>];
}

function resourceOptions(own: ChartResourceOptions): pulumi.CustomResourceOptions {
  const out: pulumi.CustomResourceOptions = {};
  if (own.protect !== undefined) out.protect = own.protect;
  if (own.ignoreChanges !== undefined) out.ignoreChanges = own.ignoreChanges;
  if (own.deletedWith !== undefined) out.deletedWith = own.deletedWith;
  if (own.customTimeouts !== undefined) out.customTimeouts = own.customTimeouts;
  return out;
}

function hasChildOptions(own: ChartResourceOptions): boolean {
  return Object.keys(resourceOptions(own)).length > 0;
}

/** Under helm.v4.Chart the options belong on each child, where the objects are. */
function childOptions(own: ChartResourceOptions): pulumi.ResourceTransform {
  return (args) => (args.custom ? { props: args.props, opts: pulumi.mergeOptions(args.opts, resourceOptions(own)) } : undefined);
}

/** The code values once every part is known, checked as `chartroom check` would. */
export function checkResolved(plan: DeploymentPlan, resolved: Values, schemas = new SchemaCache(), warn: (found: ValuesFinding) => void = () => {}): void {
  validate(plan, resolved, schemas, warn);
}

/**
 * Validate the layered values and the code values (deferred markers where
 * not known yet) as Helm does: what Helm refuses (the chart's schema) stops
 * the deploy; a key the chart does not know is a warning, since Helm renders
 * on without it (`chartroom check` keeps it an error for review).
 */
function validate(plan: DeploymentPlan, code: unknown, schemas: SchemaCache, warn: (found: ValuesFinding) => void): void {
  // A whole-chart Output is checked once it resolves.
  const known = isDeferred(code) || !isPlainObject(code) ? {} : code;
  const { findings } = checkValues({ chart: plan.spec.key, stack: "", contract: plan.contract, layers: plan.layers, code: known, schemas });
  for (const found of findings) if (found.rule === "unknown-key" && found.severity === "error") warn(found);
  const errors = findings.filter((found) => found.severity === "error" && found.rule !== "unknown-key");
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

/**
 * During a preview some code values may not be known (an Output of a resource
 * not created yet); helm.v4.Chart then registers no children. Say once which
 * keys, on the component, so the short preview is not a mystery.
 */
async function warnUnknown(resource: pulumi.Resource, chart: string, code: unknown): Promise<void> {
  const paths = await unknownPaths(code);
  if (paths.length === 0) return;
  await pulumi.log.warn(`values of ${chart} not known until the deployment runs: ${paths.join(", ")}; the preview cannot show this chart's objects`, resource);
}
