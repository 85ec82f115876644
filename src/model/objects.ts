// A rendered Kubernetes object as every layer sees it: render produces it,
// diff and policy read it, reports show it.

/** A Helm hook object's annotations: its events, weight and delete policies. */
export interface HookInfo {
  events: string[];
  weight: number;
  deletePolicies: string[];
  /** Only run by `helm test`. */
  test: boolean;
}

/** One rendered Kubernetes object, identified the way the API server does. */
export interface RenderedObject {
  /** `group/Kind/namespace/name`: the API version is not identity. */
  id: string;
  apiVersion: string;
  group: string;
  kind: string;
  namespace: string;
  name: string;
  /** The template it came from (`# Source:`). */
  source?: string;
  hook?: HookInfo;
  body: Record<string, unknown>;
  /**
   * Its name differs between two renders of the same inputs (a random
   * suffix): the part that stays, as `prefix-*`. Such an object is matched
   * by template and kind, not by name.
   */
  generatedName?: string;
}

export function objectId(group: string, kind: string, namespace: string, name: string): string {
  return `${group}/${kind}/${namespace}/${name}`;
}

/** `Deployment.apps web/webapp`, `Service web/webapp`, `ClusterRole reader`. */
export function displayName(object: Pick<RenderedObject, "group" | "kind" | "namespace" | "name">): string {
  const kind = object.group === "" ? object.kind : `${object.kind}.${object.group}`;
  return `${kind} ${object.namespace === "" ? "" : `${object.namespace}/`}${object.name}`;
}

/** Where an object comes from, less its name: kind, namespace and template (objects named at random pair by it). */
export function templateSlot(object: Pick<RenderedObject, "group" | "kind" | "namespace" | "source">): string {
  return `${object.group}/${object.kind}/${object.namespace} ${object.source ?? ""}`;
}

/** The object under another's identity and name (its twin with a random name), to compare the rest. */
export function namedAs(object: RenderedObject, twin: Pick<RenderedObject, "id" | "name">): RenderedObject {
  const metadata = { ...(object.body.metadata as Record<string, unknown>), name: twin.name };
  return { ...object, id: twin.id, name: twin.name, body: { ...object.body, metadata } };
}

/** The name as every render gives it: the generated pattern (`test-*`) where the name is random. */
export function stableDisplayName(object: Pick<RenderedObject, "group" | "kind" | "namespace" | "name" | "generatedName">): string {
  return displayName({ ...object, name: object.generatedName ?? object.name });
}
