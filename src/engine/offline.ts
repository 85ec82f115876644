import type { EngineName } from "../model/engine.js";
import { meetsConstraint } from "../util/helm-range.js";
import { ENGINES } from "./records.js";

/**
 * The Kubernetes version the provider's Helm renders helm.v4.Chart charts for
 * when it reaches no cluster (renderYamlToDirectory, or a preview without a
 * kubeconfig): Helm's own default, with Helm's default API versions.
 */
export const OFFLINE_KUBE_VERSION = "1.20.0";

/** The Kubernetes version and API versions a chart renders for under its engine, in a stack. */
export function engineKubernetes(
  engine: EngineName | undefined,
  stack: { kubeVersion?: string; apiVersions: string[]; offline?: boolean } | undefined,
): { kubeVersion?: string; apiVersions: string[] } {
  // An engine that cannot work offline (a Release) renders for the stack's cluster, as everything does with a cluster.
  if (stack?.offline === true && rendersOffline(engine)) return { kubeVersion: OFFLINE_KUBE_VERSION, apiVersions: [] };
  return { kubeVersion: stack?.kubeVersion, apiVersions: stack?.apiVersions ?? [] };
}

/**
 * Why a helm.v4.Chart chart cannot be rendered by the provider without a
 * cluster: its Chart.yaml's kubeVersion excludes v1.20.0. Undefined when it can.
 */
export function offlineRefusal(engine: EngineName | undefined, chartKubeVersion: string | undefined): string | undefined {
  if (!rendersOffline(engine) || chartKubeVersion === undefined || meetsConstraint(OFFLINE_KUBE_VERSION, chartKubeVersion, true)) return undefined;
  return `the chart requires Kubernetes ${chartKubeVersion}; without a cluster (renderYamlToDirectory, or a preview with no kubeconfig) the provider's Helm renders helm.v4.Chart for v${OFFLINE_KUBE_VERSION} and refuses it`;
}

/** Whether the provider renders the engine's charts without a cluster (an engine not known yet, before the first lock, counts as helm.v4.Chart's). */
function rendersOffline(engine: EngineName | undefined): boolean {
  return ENGINES[engine ?? "chart"].offline === "renders for v1.20.0";
}
