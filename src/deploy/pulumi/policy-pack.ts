// chartroom/policy: chartroom's policy rules as a Pulumi policy pack, run by
// `pulumi preview --policy-pack` on what the engine registers.
import type { PolicyResource, ReportViolation, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import type { Finding } from "../../model/findings.js";
import { displayName } from "../../model/objects.js";
import type { PolicyChart } from "../../policy/run.js";
import { objectsOf } from "../../render/manifest.js";
import { isRecord } from "../../util/json.js";
import { policyFindings, policyChart } from "../../project/policies.js";
import { checkOptions } from "../../project/arguments.js";
import { openProject } from "../../project/project.js";
import { requirePin, stacksFor } from "../../project/select.js";
import { projectRoot } from "./root.js";

/** Options of `chartroomPolicies`. */
export interface PolicyPackOptions {
  /**
   * Folder of chartroom.config.ts, charts.lock.json, values/ and policies/.
   * @default the nearest folder up from the working directory that holds charts.lock.json
   */
  dir?: string;
  /**
   * The chartroom stack whose policy settings apply.
   * @default the Pulumi stack's name (from the resources' URNs)
   */
  stack?: string;
  env?: NodeJS.ProcessEnv;
}

const COMPONENT = "chartroom:index:ChartDeployment";

/**
 * Two stack policies for a `PolicyPack`: `chartroom` (mandatory) reports the
 * findings of severity error, `chartroom-advisory` the warnings; notes and
 * findings an exception silences are not reported. Objects of helm.v4.Chart
 * charts are read from the resources the engine registers; a
 * helm.v3.Release's objects are rendered from its pinned archive and the
 * values it was given, as Helm will render them.
 */
export function chartroomPolicies(given: PolicyPackOptions = {}): StackValidationPolicy[] {
  const options = checkOptions("chartroomPolicies", given);
  const runs = new WeakMap<StackValidationArgs, Promise<Finding[]>>();
  const findings = (args: StackValidationArgs) => {
    let run = runs.get(args);
    if (run === undefined) {
      run = findingsOf(args.resources, options);
      runs.set(args, run);
    }
    return run;
  };
  const policy = (name: string, severity: Finding["severity"], enforcementLevel: "mandatory" | "advisory", description: string): StackValidationPolicy => ({
    name,
    description,
    enforcementLevel,
    validateStack: async (args: StackValidationArgs, reportViolation: ReportViolation) => {
      const urnOf = urnFor(args.resources);
      for (const found of await findings(args)) {
        if (found.severity === severity) reportViolation(describe(found), urnOf(found));
      }
    },
  });
  return [
    policy("chartroom", "error", "mandatory", "chartroom's policy findings of severity error (chartroom check shows the same)"),
    policy("chartroom-advisory", "warning", "advisory", "chartroom's policy findings of severity warning"),
  ];
}

function describe(found: Finding): string {
  const where = [found.object, found.path].filter((part) => part !== undefined).join(" ");
  return `${found.rule}: ${found.chart} [${found.stack}]${where === "" ? "" : ` ${where}`}: ${found.message}${found.hint === undefined ? "" : ` (${found.hint})`}`;
}

async function findingsOf(resources: readonly PolicyResource[], options: PolicyPackOptions): Promise<Finding[]> {
  const project = await openProject({ dir: options.dir ?? projectRoot(), env: options.env });
  // As deployCharts picks it: a platform without stacks has one, whatever Pulumi's is called.
  const stack = stacksFor(project, project.config.stacks.length > 0 ? (options.stack ?? stackOfUrn(resources[0]?.urn)) : undefined)[0];
  const registered = objectsByChart(resources);
  const charts: PolicyChart[] = [];
  for (const spec of project.config.charts) {
    const chart = registered.get(spec.key);
    if (chart === undefined) continue; // not in this program
    if (chart.release === undefined) {
      charts.push({ key: spec.key, engine: "chart", dropHooks: spec.dropHooks, values: {}, objects: objectsOf(chart.items, spec.namespace) });
    } else {
      const extra = isRecord(chart.release.values) ? [{ name: "values given to the Release", text: JSON.stringify(chart.release.values) }] : [];
      const rendered = await policyChart(project, spec, stack, { pin: requirePin(project, spec) }, extra);
      charts.push({ ...rendered, engine: "release" });
    }
  }
  return policyFindings(project, stack, charts);
}

interface RegisteredChart {
  /** The objects the engine registers under the chart, each with its resource's URN. */
  items: { body: Record<string, unknown>; urn: string }[];
  /** A helm.v3.Release's inputs, and its URN. */
  release?: Record<string, unknown>;
  releaseUrn?: string;
}

/** The Kubernetes objects under each ChartDeployment, and each Release's inputs. */
function objectsByChart(resources: readonly PolicyResource[]): Map<string, RegisteredChart> {
  const out = new Map<string, RegisteredChart>();
  for (const resource of resources) {
    const key = chartOf(resource);
    if (key === undefined) continue;
    const entry = out.get(key) ?? { items: [] };
    out.set(key, entry);
    if (resource.type === "kubernetes:helm.sh/v3:Release") {
      entry.release = resource.props;
      entry.releaseUrn = resource.urn;
    } else if (isObjectResource(resource)) entry.items.push({ body: resource.props, urn: resource.urn });
  }
  return out;
}

/**
 * Where to show a finding: the resource that creates its object; for a
 * Release, the Release (its objects are not resources); else the chart's
 * ChartDeployment.
 */
function urnFor(resources: readonly PolicyResource[]): (found: Finding) => string | undefined {
  const objects = new Map<string, string>();
  const charts = new Map<string, string>();
  for (const resource of resources) {
    if (resource.type === COMPONENT && typeof resource.props.chart === "string") charts.set(resource.props.chart, resource.urn);
  }
  for (const [key, chart] of objectsByChart(resources)) {
    if (chart.releaseUrn !== undefined) charts.set(key, chart.releaseUrn);
    // The provider registers each object with its namespace set: no default is needed to name it.
    for (const [i, object] of objectsOf(chart.items, "").entries()) objects.set(`${key} ${displayName(object)}`, chart.items[i]?.urn ?? "");
  }
  return (found) => (found.object === undefined ? undefined : objects.get(`${found.chart} ${found.object}`)) ?? charts.get(found.chart);
}

function isObjectResource(resource: PolicyResource): boolean {
  return (
    resource.type.startsWith("kubernetes:") &&
    !resource.type.startsWith("kubernetes:helm.sh/") &&
    !resource.type.startsWith("kubernetes:yaml") &&
    typeof resource.props.kind === "string"
  );
}

/** The chart key of the ChartDeployment a resource sits under, if any. */
function chartOf(resource: PolicyResource): string | undefined {
  for (let node: PolicyResource | undefined = resource.parent; node !== undefined; node = node.parent) {
    if (node.type === COMPONENT && typeof node.props.chart === "string") return node.props.chart;
  }
  return undefined;
}

/** `urn:pulumi:<stack>::<project>::<type>::<name>` → the stack. */
function stackOfUrn(urn: string | undefined): string | undefined {
  return urn?.split("::")[0]?.split(":")[2];
}
