// When a release's objects and hooks exist, as Helm runs them
// (src/policy/hook-phases.ts): whether what a referrer names is there each
// time the referrer runs.
import { describe, expect, it } from "vitest";
import { momentsOf, presenceFor } from "../../src/policy/hook-phases.js";

type Target = Parameters<typeof presenceFor>[1][number];

const release: Target = { hook: undefined };
const hook = (events: string, weight = 0, deletePolicies: string[] = []): Target => ({
  hook: { events: events.split(","), weight, deletePolicies, test: events.startsWith("test") },
});

describe("presence through a release's life", () => {
  it.each([
    ["a release object naming a release object", release, [release], { kind: "present" }],
    ["a release object naming nothing", release, [], { kind: "absent", missingAt: "install" }],
    ["a pre-install hook naming a release object", hook("pre-install"), [release], { kind: "absent", missingAt: "pre-install" }],
    ["a pre-install,pre-upgrade hook naming a release object", hook("pre-install,pre-upgrade"), [release], { kind: "upgrades-only", missingAt: "pre-install" }],
    ["a hook naming a hook of lower weight", hook("pre-install", 5), [hook("pre-install", -5)], { kind: "present" }],
    ["a hook naming a hook of the same weight", hook("pre-upgrade", 0), [hook("pre-upgrade", 0)], { kind: "present" }],
    ["a hook naming a hook of higher weight", hook("pre-install", 0), [hook("pre-install", 10)], { kind: "absent", missingAt: "pre-install" }],
    ["a post-install hook naming a pre-install hook it outlives", hook("post-install"), [hook("pre-install")], { kind: "present" }],
    [
      "a post-install hook naming a pre-install hook deleted once it succeeded",
      hook("post-install"),
      [hook("pre-install", 0, ["hook-succeeded"])],
      { kind: "absent", missingAt: "post-install" },
    ],
    [
      "a pre-install hook naming a pre-install hook deleted once it succeeded, in the same phase",
      hook("pre-install", 1),
      [hook("pre-install", 0, ["hook-succeeded"])],
      { kind: "present" },
    ],
    ["a post-upgrade hook naming an install's leftover hook", hook("post-upgrade"), [hook("pre-install")], { kind: "present" }],
    ["a test naming an install's leftover hook", hook("test"), [hook("pre-install")], { kind: "present" }],
    ["a test naming an upgrade's leftover hook", hook("test"), [hook("post-upgrade")], { kind: "present" }],
    ["a test naming a hook deleted once it succeeded", hook("test"), [hook("pre-install", 0, ["hook-succeeded"])], { kind: "absent", missingAt: "test" }],
    ["a test naming a release object", hook("test-success"), [release], { kind: "present" }],
    ["an install hook naming an upgrade's hook", hook("post-install"), [hook("pre-upgrade")], { kind: "absent", missingAt: "post-install" }],
    [
      "a pre-install,pre-upgrade hook naming a pre-install hook gone after its phase",
      hook("pre-install,pre-upgrade", 1),
      [hook("pre-install", 0, ["hook-succeeded"])],
      { kind: "absent", missingAt: "pre-upgrade" },
    ],
    ["a hook of an event Helm never runs at install or upgrade", hook("pre-delete"), [], { kind: "present" }],
    ["a hook naming two objects, one there", hook("pre-install"), [release, hook("pre-install", -1)], { kind: "present" }],
  ] as const)("%s", (_what, referrer, targets, presence) => {
    expect(presenceFor(referrer, targets)).toStrictEqual(presence);
  });

  it("creates a release object at install and upgrade, a hook at each event it names that Helm runs", () => {
    expect(momentsOf(release)).toStrictEqual([
      { flow: "install", step: 1, weight: 0, event: "install" },
      { flow: "upgrade", step: 1, weight: 0, event: "upgrade" },
    ]);
    expect(momentsOf(hook("pre-install,post-upgrade,pre-delete", 3))).toStrictEqual([
      { flow: "install", step: 0, weight: 3, event: "pre-install" },
      { flow: "upgrade", step: 2, weight: 3, event: "post-upgrade" },
    ]);
  });
});
