import { resolve } from "node:path";
import type { ClusterRef } from "../config/types.js";
import type { Finding } from "../model/findings.js";
import { clusterRef } from "../project/cluster.js";
import type { CheckReport } from "../report/check.js";
import { mapLimit } from "../util/pool.js";
import { checkValues, type ValuesFinding } from "../values/check.js";
import { SchemaCache } from "../values/schema.js";
import { splitExtra, withFlags } from "../values/layers.js";
import { ChartroomError } from "../errors/index.js";
import type { ValuesLayer } from "../model/values.js";
import { offlineRefusal } from "../engine/offline.js";
import { archiveFor, contractFor, inspectionOf } from "../project/archives.js";
import { stackFindings, startPolicies } from "../project/policies.js";
import type { Project } from "../project/project.js";
import { unreadValuesFiles, valuesLayers } from "../project/values-files.js";
import { requirePin, selectCharts, stackName, stacksFor } from "../project/select.js";

/**
 * `chartroom check`: coalesce each chart's defaults with the platform's
 * values files as Helm does, validate against the pinned version's schema,
 * find keys the chart does not know, and values files nothing reads.
 */
export interface CheckOptions {
  /** Chart keys; all when empty. */
  charts?: readonly string[];
  /** One stack; every declared stack when absent. */
  stack?: string;
  /**
   * Values files nothing reads are errors (else warnings).
   * @default false
   */
  strict?: boolean;
  /**
   * Also ask a live cluster whether the kubeconfig's identity may deploy the
   * stack (one stack: `stack`, or the only one), and the least-privilege
   * Role that lets it; `{}`: the cluster the stack names in the config.
   */
  cluster?: Partial<ClusterRef>;
  /** Values above the platform's for one chart (`charts` names it): `-f` files and `--set` flags, as `render` takes them. */
  values?: readonly ValuesLayer[];
}

export async function check(project: Project, options: CheckOptions = {}): Promise<CheckReport> {
  startPolicies(project);
  const schemas = new SchemaCache();
  const charts = selectCharts(project, options.charts);
  const stacks = stacksFor(project, options.stack);
  const extra = options.values ?? [];
  if (extra.length > 0 && charts.length !== 1)
    throw new ChartroomError("USAGE", "values on the command line (--values, --set…) are for one chart", {
      hint: "name the chart they are for: chartroom check <chart> --set key=value",
    });
  const given = splitExtra(extra);
  const values = await mapLimit(charts, 8, async (spec) => {
    const pin = requirePin(project, spec);
    const contract = await contractFor(project, spec, { pin });
    const found: ValuesFinding[] = [];
    const offline = offlineRefusal(pin.engine.name, (await inspectionOf(project, await archiveFor(project, spec, { pin }), spec.key)).kubeVersion);
    // Information for every stack: an error where the stack is declared offline (its render fails then).
    if (offline !== undefined)
      found.push({
        chart: spec.key,
        stack: "*",
        severity: "info",
        rule: "engine-offline",
        path: "Chart.yaml#kubeVersion",
        message: offline,
        hint: "deploy it with a provider that reaches the cluster, or pin a version that accepts v1.20",
      });
    for (const stack of stacks) {
      const layers = withFlags([...(await valuesLayers(project, spec.key, stack?.name)), ...given.files], given.flags);
      found.push(...checkValues({ chart: spec.key, stack: stackName(stack), contract, layers, schemas }).findings);
    }
    project.progress(`checked ${spec.key}`);
    return found;
  });
  // Policies see every chart of a stack together; findings are kept for the charts asked about.
  const keys = new Set(charts.map((spec) => spec.key));
  const policies: Finding[] = [];
  for (const stack of stacks) {
    project.progress(`policies for stack ${stackName(stack)}`);
    const extraFor = charts.length === 1 && extra.length > 0 ? { chart: charts[0]?.key ?? "", values: extra } : undefined;
    policies.push(...(await stackFindings(project, stack, extraFor)).filter((found) => keys.has(found.chart)));
  }
  const findings: Finding[] = [...(await unreadValuesFiles(project, options.strict === true ? "error" : "warning")), ...values.flat(), ...policies];
  const report: CheckReport = { report: "check", format: 1, checked: charts.length * stacks.length, findings, failed: false };
  if (options.cluster !== undefined) {
    const given =
      options.cluster.kubeconfig === undefined ? options.cluster : { ...options.cluster, kubeconfig: resolve(project.config.dir, options.cluster.kubeconfig) };
    const { deployRights } = await import("../project/rights.js");
    const { section, findings: refused } = await deployRights(project, stacks[0], clusterRef(given, stacks));
    report.rights = section;
    findings.push(...refused);
  }
  report.failed = findings.some((found) => found.severity === "error");
  return report;
}
