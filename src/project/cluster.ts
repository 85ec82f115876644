// The cluster a `--cluster` command talks to: the kubeconfig the user
// passed, else the one the stack names in the config (stacks.<name>.cluster).
// Never the ambient ~/.kube/config or $KUBECONFIG.
import { resolve } from "node:path";
import { ChartroomError } from "../errors/index.js";
import type { ClusterRef, StackSpec } from "../config/types.js";
import type { KubeClient } from "../cluster/client.js";
import type { ClusterAccess } from "../cluster/kubeconfig.js";
import type { discovery } from "../cluster/review.js";
import type { CompareOptions } from "./compare.js";
import type { Project } from "./project.js";

export interface Connection {
  access: ClusterAccess;
  client: KubeClient;
  resourceOf: ReturnType<typeof discovery>;
}

/** `given` (from --kubeconfig/--context), else the cluster of the one stack asked about. */
export function clusterRef(given: Partial<ClusterRef>, stacks: readonly (StackSpec | undefined)[]): ClusterRef {
  if (given.kubeconfig !== undefined) return { kubeconfig: given.kubeconfig, ...(given.context === undefined ? {} : { context: given.context }) };
  const named = stacks.length === 1 ? stacks[0]?.cluster : undefined;
  if (named !== undefined) return { kubeconfig: named.kubeconfig, ...((given.context ?? named.context) ? { context: given.context ?? named.context } : {}) };
  const which = stacks.length === 1 ? `stack ${stacks[0]?.name ?? "(none)"} names no cluster` : "more than one stack is asked about";
  throw new ChartroomError("USAGE", `--cluster needs the cluster named: --kubeconfig <file> [--context <name>] (${which})`, {
    hint: "pass --kubeconfig (chartroom never uses ~/.kube/config or $KUBECONFIG on its own), or set stacks.<name>.cluster in the config and pick it with --stack",
  });
}

/**
 * One client and one discovery for the run; each chart's new side reviewed
 * with them. A relative kubeconfig given in code is the config folder's.
 */
export async function liveReviewer(
  project: Project,
  stacks: readonly (StackSpec | undefined)[],
  given: Partial<ClusterRef>,
): Promise<NonNullable<CompareOptions["live"]>> {
  const ref = clusterRef(given.kubeconfig === undefined ? given : { ...given, kubeconfig: resolve(project.config.dir, given.kubeconfig) }, stacks);
  const [{ client, access, resourceOf }, { reviewLive }] = await Promise.all([connect(ref), import("../cluster/review.js")]);
  return async (input) => {
    project.progress(`reviewing ${input.objects.length} object(s) against ${access.server} (context ${access.context})`);
    return reviewLive(client, access, resourceOf, input);
  };
}

export async function connect(ref: ClusterRef): Promise<Connection> {
  const [{ loadKubeconfig }, { kubeClient }, { discovery }] = await Promise.all([
    import("../cluster/kubeconfig.js"),
    import("../cluster/client.js"),
    import("../cluster/review.js"),
  ]);
  const access = await loadKubeconfig(ref.kubeconfig, ref.context);
  const client = kubeClient(access);
  return { access, client, resourceOf: discovery(client) };
}
