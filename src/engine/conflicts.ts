// Who else owns a field the Pulumi provider's server-side apply wants, and
// what to do about it: the fix depends on the other manager, not on the
// field. The managers are the ones the test cluster named (kubectl, the
// controller-manager through the scale subresource, Helm, another Pulumi
// resource). Pure.

/** A field another manager owns, as the API server's 409 names it. */
export interface Conflict {
  /** The other manager, as the server names it (`hotfix`, `kube-controller-manager`). */
  manager: string;
  /** `scale` when it wrote through a subresource. */
  subresource?: string;
  /** The field path as the server writes it: `.spec.replicas`. */
  field: string;
}

export type Owner = "autoscaler" | "controller" | "webhook" | "kubectl" | "helm" | "pulumi" | "other";

/** What the other manager is, and the fix. */
export interface ConflictAdvice {
  owner: Owner;
  fix: string;
}

/** The provider's field manager for server-side apply: `pulumi-kubernetes-<8 hex>`, one per resource. */
export const PULUMI_MANAGER = /^pulumi-kubernetes-[0-9a-f]{8}$/;

/** The conflicts of a 409 message: `conflict with "m" [with subresource "s"] [using v]: .path`, or a list after `conflicts with "m":`. */
export function parseConflicts(message: string): Conflict[] {
  const found: Conflict[] = [];
  const single = /conflict with "([^"]+)"(?: with subresource "([^"]+)")?(?: using [^:\s]+)?: (\.[^\s]+)/g;
  for (const match of message.matchAll(single)) found.push(conflictOf(match[1], match[2], match[3]));
  const listed = /conflicts with "([^"]+)"(?: with subresource "([^"]+)")?(?: using [^:\s]+)?:((?:\s*- \.[^\n]+)+)/g;
  for (const match of message.matchAll(listed)) {
    for (const line of (match[3] ?? "").split("\n")) {
      const field = line.trim().replace(/^- /, "");
      if (field.startsWith(".")) found.push(conflictOf(match[1], match[2], field));
    }
  }
  return found;
}

function conflictOf(manager = "", subresource: string | undefined, field = ""): Conflict {
  return subresource === undefined ? { manager, field } : { manager, subresource, field };
}

/** Who the other manager is and how to stop the conflict, in the words a reviewer acts on. */
export function adviceFor(conflict: Conflict): ConflictAdvice {
  const { manager, subresource, field } = conflict;
  if (subresource === "scale" || (manager === "kube-controller-manager" && field === ".spec.replicas")) {
    return {
      owner: "autoscaler",
      fix: "an autoscaler sets the replicas: stop declaring them (the chart's replicas value unset, or ignoreChanges on spec.replicas)",
    };
  }
  if (manager.startsWith("kube-") || manager.endsWith("-controller") || manager.endsWith("-controller-manager")) {
    return { owner: "controller", fix: `the controller ${manager} writes it: leave the field to it (do not declare it)` };
  }
  if (/webhook|injector|sidecar|istio|linkerd/i.test(manager)) {
    return { owner: "webhook", fix: `the admission webhook ${manager} sets it on every write: leave the field unset` };
  }
  if (PULUMI_MANAGER.test(manager)) {
    return {
      owner: "pulumi",
      fix: "another Pulumi resource (another stack, or an earlier resource of this one) applies it: the object has two owners; keep one",
    };
  }
  if (manager === "helm" || manager === "pulumi-resource-kubernetes") {
    return { owner: "helm", fix: "a Helm release owns the object: the object has two owners; uninstall the release or drop the object from this chart" };
  }
  if (manager.startsWith("kubectl")) {
    return {
      owner: "kubectl",
      fix: `changed by hand (${manager}): put the value in the chart's values, or take the field back with the annotation pulumi.com/patchForce: "true" on this one resource`,
    };
  }
  return {
    owner: "other",
    fix: `${manager} applied it out of band: put the value in the chart's values, or take the field back with pulumi.com/patchForce: "true" on this one resource`,
  };
}
