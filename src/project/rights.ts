// `check --cluster`: the rights the stack's deploy needs (engine/rights.ts),
// asked of the cluster for the kubeconfig's identity, each one refused
// reported as the API server would word it, and the least-privilege Role
// and ClusterRole (with bindings) that grant exactly those.
import type { Missing } from "../cluster/access.js";
import type { ClusterRef, StackSpec } from "../config/types.js";
import { BUILT_IN_NAMESPACES, rbacManifest, rightsNeeded, type Right, type RightsChart } from "../engine/rights.js";
import type { Finding } from "../model/findings.js";
import { displayName } from "../model/objects.js";
import type { RightsSection } from "../report/check.js";
import { mapLimit } from "../util/pool.js";
import { crdResources } from "../cluster/review.js";
import { connect } from "./cluster.js";
import { stackCharts } from "./policies.js";
import type { Project } from "./project.js";
import { stackName } from "./select.js";

export async function deployRights(project: Project, stack: StackSpec | undefined, ref: ClusterRef): Promise<{ section: RightsSection; findings: Finding[] }> {
  const { client, access, resourceOf } = await connect(ref);
  const { whoAmI, missingRights } = await import("../cluster/access.js");
  const identity = await whoAmI(client);
  const charts = await stackCharts(project, stack);
  const crds = crdResources(charts.flatMap((chart) => chart.objects));
  const unserved: string[] = [];
  const inputs: RightsChart[] = await mapLimit(charts, 4, async (chart) => {
    const spec = project.config.charts.find((item) => item.key === chart.key);
    const objects = [];
    for (const object of chart.objects) {
      const resource = (await resourceOf(object.apiVersion, object.kind)) ?? crds.get(`${object.group}/${object.kind}`);
      if (resource === undefined) unserved.push(displayName(object));
      else objects.push({ ...object, resource: resource.plural, namespaced: resource.namespaced });
    }
    return { key: chart.key, engine: chart.engine, release: { name: spec?.releaseName ?? chart.key, namespace: spec?.namespace ?? "default" }, objects };
  });
  const namespaces = [...new Set(project.config.charts.map((spec) => spec.namespace))].filter((name) => !BUILT_IN_NAMESPACES.has(name)).sort();
  project.progress(`asking ${access.server} what ${identity.user} may do`);
  const rights = rightsNeeded(inputs, namespaces);
  const missing = await missingRights(client, identity, rights);
  const name = `chartroom-deploy-${stackName(stack)}`;
  const subject = serviceAccount(identity.user) ?? { kind: "User" as const, name: identity.user };
  const section: RightsSection = {
    stack: stackName(stack),
    server: access.server,
    context: access.context,
    user: identity.user,
    rights,
    missing: missing.map(({ right, verb, name: object, message }) => ({
      group: right.group,
      resource: right.resource,
      namespace: right.namespace,
      verb,
      ...(object === undefined ? {} : { name: object }),
      message,
    })),
    manifest: rbacManifest(rights, subject, name),
    requests: client.requests(),
    ...(unserved.length === 0 ? {} : { unserved }),
  };
  return { section, findings: missing.map((item) => finding(item, stackName(stack))) };
}

function finding(missing: Missing, stack: string): Finding {
  return {
    rule: "deploy-rights",
    severity: "error",
    chart: missing.right.chart,
    stack,
    object: missing.right.for,
    message: missing.message,
    hint: `grant it: chartroom check --stack ${stack} --cluster [--kubeconfig F] --format yaml prints the Role and bindings the deploy needs`,
  };
}

/** `system:serviceaccount:<namespace>:<name>` as a binding's subject. */
function serviceAccount(user: string): { kind: "ServiceAccount"; name: string; namespace: string } | undefined {
  const match = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user);
  return match === null ? undefined : { kind: "ServiceAccount", namespace: match[1] ?? "", name: match[2] ?? "" };
}

export type { Right };
