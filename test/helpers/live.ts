// The example deployed to the test cluster: what chartroom rendered, what the
// API server holds, the engine's Helm, and the writes the audit log saw.
import { join } from "node:path";
import { type AuditEvent, type Cluster, startCluster } from "./cluster.js";
import { ExampleProject, engineBin } from "./engine.js";
import type { ManagedEntry } from "./managed.js";
import { type ProcessOutcome, runGroup } from "./process.js";

export interface RenderedObject {
  id: string;
  kind: string;
  group: string;
  namespace?: string;
  name: string;
  body: { metadata: { annotations?: Record<string, string> } } & Record<string, unknown>;
}

export interface LiveObject {
  metadata: { managedFields?: ManagedEntry[]; annotations?: Record<string, string>; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** `chartroom render <chart> -o json --show-secrets`: every object, with its body. */
export async function rendered(project: ExampleProject, chart: string, stack: string, values: string[] = []): Promise<RenderedObject[]> {
  const args = ["render", chart, "--stack", stack, "-o", "json", "--show-secrets", ...values.flatMap((file) => ["-f", file])];
  const outcome = await project.chartroom(args);
  if (outcome.code !== 0) throw new Error(`chartroom ${args.join(" ")} failed:\n${outcome.stderr}`);
  return (JSON.parse(outcome.stdout) as { objects: RenderedObject[] }).objects;
}

/** The object as the API server holds it, managedFields included; undefined when it is not there. */
export async function live(cluster: Cluster, object: Pick<RenderedObject, "kind" | "group" | "namespace" | "name">): Promise<LiveObject | undefined> {
  const resource = `${object.kind.toLowerCase()}${object.group === "" ? "" : `.${object.group}`}`;
  const where = object.namespace === undefined ? [] : ["-n", object.namespace];
  const got = await cluster.kubectl(["get", resource, object.name, ...where, "-o", "json", "--show-managed-fields"]);
  if (got.code !== 0 && got.stderr.includes("NotFound")) return undefined;
  if (got.code !== 0) throw new Error(`kubectl get ${resource} ${object.name}: ${got.stderr}`);
  return JSON.parse(got.stdout) as LiveObject;
}

/** The engine's own Helm (the one the provider embeds is this version), against the cluster as admin. */
export async function helm(cluster: Cluster, args: string[]): Promise<ProcessOutcome> {
  return runGroup(join(await engineBin(), "helm"), ["--kubeconfig", cluster.kubeconfigFile(), ...args], {
    cwd: cluster.dir,
    env: { HELM_CACHE_HOME: join(cluster.dir, "helm-cache"), HELM_CONFIG_HOME: join(cluster.dir, "helm-config") },
    timeoutMs: 600_000,
  });
}

/** A hook object (Helm runs it around an install or upgrade, or `helm test` does): never a live object of the release. */
export function isHook(object: RenderedObject): boolean {
  return object.body.metadata.annotations?.["helm.sh/hook"] !== undefined;
}

/**
 * The writes (create, update, patch, delete) the Pulumi provider made in a
 * namespace, in order, as `verb resource name` — the provider's own Helm
 * included, which shares its user agent.
 */
export function providerWrites(events: AuditEvent[], namespace: string, since = ""): string[] {
  return events
    .filter(
      (event) =>
        event.stage === "ResponseComplete" &&
        ["create", "update", "patch", "delete"].includes(event.verb) &&
        event.userAgent?.startsWith("pulumi-kubernetes/") === true &&
        event.objectRef?.namespace === namespace &&
        // The Namespace object itself (its objectRef carries its own name as the namespace).
        event.objectRef?.resource !== "namespaces" &&
        event.requestReceivedTimestamp > since &&
        !event.requestURI.includes("dryRun="),
    )
    .sort((a, b) => a.requestReceivedTimestamp.localeCompare(b.requestReceivedTimestamp))
    .map((event) => `${event.verb} ${event.objectRef?.resource} ${event.objectRef?.name}`);
}

/** A pulumi command that must succeed; its failure names the cluster's state too. */
export async function mustPass(project: ExampleProject, args: string[], cluster: Cluster): Promise<string> {
  const outcome = await project.pulumi(args);
  if (outcome.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${outcome.stdout}${outcome.stderr}\n${await cluster.explain()}`);
  return outcome.stdout;
}

/**
 * A test cluster with the example deployed on it by `pulumi up` (stack dev,
 * as admin, the planted password), and the program's code values written
 * for chartroom. When any step fails, the cluster is stopped and the project
 * removed before the error is thrown: nothing outlives the failed set-up.
 */
export async function deployedExample(prefix: string, password: string): Promise<{ cluster: Cluster; project: ExampleProject }> {
  const cluster = await startCluster();
  let project: ExampleProject | undefined;
  try {
    project = await ExampleProject.create(prefix);
    await project.initStack("dev", password, cluster.kubeconfig());
    await mustPass(project, ["up", "--yes", "--skip-preview"], cluster);
    await project.writeCodeValues(password);
    return { cluster, project };
  } catch (error) {
    await project?.remove();
    await cluster.stop();
    throw error;
  }
}
