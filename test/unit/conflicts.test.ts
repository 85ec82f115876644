// The 409 messages the test cluster gave, parsed, and the fix each owner gets.
import { describe, expect, it } from "vitest";
import { adviceFor, parseConflicts } from "../../src/engine/conflicts.js";

describe("field-manager conflicts", () => {
  it("reads one conflict, with and without a subresource", () => {
    expect(parseConflicts('Apply failed with 1 conflict: conflict with "hotfix": .spec.replicas')).toStrictEqual([
      { manager: "hotfix", field: ".spec.replicas" },
    ]);
    expect(
      parseConflicts('Apply failed with 1 conflict: conflict with "kube-controller-manager" with subresource "scale" using apps/v1: .spec.replicas'),
    ).toStrictEqual([{ manager: "kube-controller-manager", subresource: "scale", field: ".spec.replicas" }]);
  });

  it("reads the listed form, one field a line", () => {
    const message =
      'Apply failed with 2 conflicts: conflicts with "pulumi-kubernetes-5ef8b1f9":\n- .metadata.labels.app.kubernetes.io/version\n- .metadata.labels.helm.sh/chart';
    expect(parseConflicts(message)).toStrictEqual([
      { manager: "pulumi-kubernetes-5ef8b1f9", field: ".metadata.labels.app.kubernetes.io/version" },
      { manager: "pulumi-kubernetes-5ef8b1f9", field: ".metadata.labels.helm.sh/chart" },
    ]);
  });

  it.each([
    [{ manager: "kube-controller-manager", subresource: "scale", field: ".spec.replicas" }, "autoscaler", "stop declaring them"],
    [{ manager: "kubectl-edit", field: ".spec.template.spec.containers" }, "kubectl", "pulumi.com/patchForce"],
    [{ manager: "istio-sidecar-injector", field: ".spec.template.metadata.annotations" }, "webhook", "leave the field unset"],
    [{ manager: "pulumi-kubernetes-0a1b2c3d", field: ".data" }, "pulumi", "two owners"],
    [{ manager: "helm", field: ".data" }, "helm", "two owners"],
    [{ manager: "cert-manager-controller", field: ".data" }, "controller", "leave the field to it"],
    [{ manager: "hotfix", field: ".spec.replicas" }, "other", "pulumi.com/patchForce"],
  ])("advises on %o as %s", (conflict, owner, fix) => {
    const advice = adviceFor(conflict);
    expect(advice.owner).toBe(owner);
    expect(advice.fix).toContain(fix);
  });
});
