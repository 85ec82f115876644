import * as pulumi from "@pulumi/pulumi";
import { entryOf } from "../../util/json.js";

// A helm.v4.Chart child's URN holds its type, and the type holds the
// apiVersion: `kubernetes:autoscaling/v2:HorizontalPodAutoscaler`. When a chart
// moves an object to another apiVersion of the same kind, Pulumi sees a new
// resource (create it, delete the old one) unless the new one names the old
// type as an alias. Aliases to types the state does not hold cost nothing.

/** Versions Kubernetes API groups have used, oldest first. */
const VERSIONS = ["v1alpha1", "v1alpha2", "v1alpha3", "v1beta1", "v1beta2", "v1beta3", "v1", "v2alpha1", "v2beta1", "v2beta2", "v2", "v3"];

/** Built-in kinds that moved between groups as they matured. */
const GROUP_MOVES: Record<string, string[]> = {
  Deployment: ["extensions", "apps"],
  DaemonSet: ["extensions", "apps"],
  ReplicaSet: ["extensions", "apps"],
  StatefulSet: ["apps"],
  Ingress: ["extensions", "networking.k8s.io"],
  IngressClass: ["networking.k8s.io"],
  NetworkPolicy: ["extensions", "networking.k8s.io"],
  PodSecurityPolicy: ["extensions", "policy"],
  PodDisruptionBudget: ["policy"],
  HorizontalPodAutoscaler: ["autoscaling"],
  CronJob: ["batch"],
  Event: ["core", "events.k8s.io"],
};

/** `kubernetes:<group>/<version>:<Kind>` → the same kind under every other version (and group it lived in). */
export function apiVersionAliases(type: string): string[] {
  const match = /^kubernetes:([^/:]+)\/([^:]+):(.+)$/.exec(type);
  if (match === null) return [];
  const [, group = "", version = "", kind = ""] = match;
  if (group === "helm.sh" || group === "yaml") return [];
  const moves = entryOf(GROUP_MOVES, kind);
  const groups = moves?.includes(group) === true ? moves : [group];
  const out: string[] = [];
  for (const g of groups) for (const v of VERSIONS) if (g !== group || v !== version) out.push(`kubernetes:${g}/${v}:${kind}`);
  return out;
}

/**
 * A `transforms` entry for helm.v4.Chart: each child also answers to its
 * kind's other apiVersions, so a move between them is an update.
 */
export function aliasApiVersions(args: pulumi.ResourceTransformArgs): pulumi.ResourceTransformResult | undefined {
  const types = apiVersionAliases(args.type);
  if (types.length === 0) return undefined;
  return { props: args.props, opts: pulumi.mergeOptions(args.opts, { aliases: types.map((type) => ({ type })) }) };
}
