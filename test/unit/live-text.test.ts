// The live section of a text diff (src/report/live-text.ts), line by line: the
// cluster tests check what the API server says; this checks how it is told,
// failures first, with each fix, and in colour only where asked.
import { describe, expect, it } from "vitest";
import type { LiveSection } from "../../src/diff/model.js";
import { liveLines } from "../../src/report/live-text.js";
import { painter, plain } from "../../src/report/paint.js";

const full: LiveSection = {
  server: "https://127.0.0.1:6443",
  context: "kind-dev",
  counts: { same: 4, update: 1, conflict: 1, create: 2, blocked: 1 },
  release: { name: "web", namespace: "apps", revision: 3, status: "deployed", chart: "web-1.2.0", comparedWith: 2 },
  hooks: [
    { id: "h1", display: "Job.batch apps/migrate", events: ["pre-upgrade"], weight: -5, deletePolicies: ["before-hook-creation", "hook-succeeded"] },
    { id: "h2", display: "Pod apps/smoke", events: ["post-install", "post-upgrade"], weight: 0, deletePolicies: [] },
  ],
  objects: [
    { id: "b", display: "ConfigMap apps/b", outcome: "update", fields: ["data.a", "data.b"], drift: ["data.c"] },
    { id: "a", display: "ConfigMap apps/a", outcome: "update", fields: [] },
    {
      id: "c",
      display: "Deployment.apps apps/web",
      outcome: "conflict",
      conflicts: [
        { manager: "kubectl-edit", field: "spec.replicas", owner: "kubectl-edit", fix: "drop the field from the chart or take it over" },
        { manager: "hpa-controller", subresource: "scale", field: "spec.replicas", owner: "hpa", fix: "leave replicas to the autoscaler" },
      ],
    },
    { id: "d", display: "Service apps/old", outcome: "adopt", owners: [] },
    { id: "e", display: "Service apps/taken", outcome: "adopt", owners: ["helm", "kubectl"] },
    { id: "f", display: "Job.batch apps/once", outcome: "blocked", message: "field is immutable", fix: "delete the Job first" },
    { id: "g", display: "ConfigMap apps/new", outcome: "create", fix: "created on the first deploy" },
  ],
  awaits: [
    { id: "w1", display: "Deployment.apps apps/web", on: "ready replicas" },
    { id: "w2", display: "Job.batch apps/once", on: "completion", note: "a Job with a long backoff" },
    { id: "w3", display: "Deployment.apps apps/api", on: "ready replicas", failing: ["api-1 api: ImagePullBackOff", "api-2 api: CrashLoopBackOff"] },
  ],
  missingRights: ["cannot create deployments.apps in namespace apps", "cannot patch services in namespace apps"],
  notes: ["the cluster runs Kubernetes 1.34"],
};

describe("liveLines", () => {
  it("tells every part of the live review, failures first, each with its fix", () => {
    expect(liveLines(full, plain)).toStrictEqual([
      "  live: https://127.0.0.1:6443 (context kind-dev): 1 blocked, 1 conflict, 2 create, 1 update, 4 same",
      "    release apps/web: revision 3 deployed (web-1.2.0), compared with revision 2",
      "    hook Job.batch apps/migrate: pre-upgrade, weight -5, deleted before-hook-creation, hook-succeeded",
      "    hook Pod apps/smoke: post-install, post-upgrade, weight 0",
      "    ✗ Job.batch apps/once: blocked",
      "        server: field is immutable",
      "        fix: delete the Job first",
      "    ✗ Deployment.apps apps/web: conflict",
      '        spec.replicas is owned by "kubectl-edit"',
      "          fix: drop the field from the chart or take it over",
      '        spec.replicas is owned by "hpa-controller" (subresource scale)',
      "          fix: leave replicas to the autoscaler",
      "    · Service apps/old: adopt",
      "        owned by: no field manager",
      "    · Service apps/taken: adopt",
      "        owned by: helm, kubectl",
      "    · ConfigMap apps/new: create",
      "        note: created on the first deploy",
      "    · ConfigMap apps/a: update",
      "    · ConfigMap apps/b: update",
      "        fields: data.a, data.b",
      "        drift (changed in the cluster, the apply puts back): data.c",
      "    waits for 3 object(s) before going on (--format json says on what)",
      "    · waits for Job.batch apps/once: completion",
      "        note: a Job with a long backoff",
      "    · waits for Deployment.apps apps/api: ready replicas",
      "        ✗ stuck now, the wait would time out: api-1 api: ImagePullBackOff",
      "        ✗ stuck now, the wait would time out: api-2 api: CrashLoopBackOff",
      "    ✗ the identity may not do all the deploy does (2 verb(s)):",
      "        cannot create deployments.apps in namespace apps",
      "        cannot patch services in namespace apps",
      "        fix: grant them: chartroom check --stack <name> --cluster --format yaml prints the Role",
      "    note: the cluster runs Kubernetes 1.34",
    ]);
  });

  it("says only the server when it has nothing else to say, and no revision for a release not installed yet", () => {
    const bare: LiveSection = {
      server: "https://127.0.0.1:6443",
      context: "dev",
      counts: {},
      objects: [],
      notes: [],
      release: { name: "web", namespace: "apps" },
    };
    expect(liveLines(bare, plain)).toStrictEqual(["  live: https://127.0.0.1:6443 (context dev)"]);
    const newest = { ...bare, release: { name: "web", namespace: "apps", revision: 1, status: "failed", chart: "web-1.0.0" } };
    expect(liveLines(newest, plain)[1]).toBe("    release apps/web: revision 1 failed (web-1.0.0)");
  });

  it("paints failures red, fixes yellow and the rest dim, only when asked", () => {
    const red = (text: string) => `\u001b[31m${text}\u001b[0m`;
    const lines = liveLines(full, painter(true));
    expect(lines[0]).toBe(`\u001b[1m${liveLines(full, plain)[0]}\u001b[0m`);
    expect(lines).toContain(red("    ✗ Job.batch apps/once: blocked"));
    expect(lines).toContain("\u001b[33m        fix: delete the Job first\u001b[0m");
    expect(lines).toContain("\u001b[2m    · ConfigMap apps/a: update\u001b[0m");
    expect(lines).toContain("\u001b[2m        note: created on the first deploy\u001b[0m");
    expect(lines).toContain(red("        ✗ stuck now, the wait would time out: api-1 api: ImagePullBackOff"));
    expect(liveLines(full, painter(false))).toStrictEqual(liveLines(full, plain));
  });
});
