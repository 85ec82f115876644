import type { KubernetesObject } from "../model/policy.js";
import { entryOf } from "../util/json.js";

// When an object exists during a release's life, as Helm runs it: the
// pre-install (pre-upgrade) hooks by weight, then the release's own objects,
// then the post-install (post-upgrade) hooks; `helm test` after. A hook with
// the hook-succeeded delete policy is gone once its phase succeeded. Pure.

type Flow = "install" | "upgrade" | "test";

/** A point in a release's life: the flow, its step (0 pre-hooks, 1 the release's objects, 2 post-hooks) and a hook's weight. */
interface Moment {
  flow: Flow;
  step: 0 | 1 | 2;
  weight: number;
  event: string;
}

const EVENTS: Record<string, Pick<Moment, "flow" | "step">> = {
  "pre-install": { flow: "install", step: 0 },
  "post-install": { flow: "install", step: 2 },
  "pre-upgrade": { flow: "upgrade", step: 0 },
  "post-upgrade": { flow: "upgrade", step: 2 },
  test: { flow: "test", step: 0 },
  "test-success": { flow: "test", step: 0 },
};

/** The moments an object is created at (a hook at each of its events; a release object with the release). */
export function momentsOf(object: Pick<KubernetesObject, "hook">): Moment[] {
  if (object.hook === undefined)
    return [
      { flow: "install", step: 1, weight: 0, event: "install" },
      { flow: "upgrade", step: 1, weight: 0, event: "upgrade" },
    ];
  const weight = object.hook.weight;
  return object.hook.events.flatMap((event) => {
    const moment = entryOf(EVENTS, event);
    return moment === undefined ? [] : [{ ...moment, weight, event }];
  });
}

function goneAfterItsPhase(object: Pick<KubernetesObject, "hook">): boolean {
  return object.hook?.deletePolicies.includes("hook-succeeded") === true;
}

/** Whether `target` exists at moment `at`. */
function presentAt(target: Pick<KubernetesObject, "hook">, at: Moment): boolean {
  if (target.hook === undefined) return at.flow !== "install" || at.step >= 1;
  const created = momentsOf(target);
  const inFlow = created.filter((moment) => moment.flow === at.flow);
  const before = inFlow.some(
    (moment) => (moment.step < at.step || (moment.step === at.step && moment.weight <= at.weight)) && (!goneAfterItsPhase(target) || moment.step === at.step),
  );
  if (before) return true;
  // Left over from an earlier flow (kept until its hook runs again): an install's hook seen at upgrade or test time.
  const earlier = at.flow === "upgrade" ? ["install"] : at.flow === "test" ? ["install", "upgrade"] : [];
  return !goneAfterItsPhase(target) && created.some((moment) => earlier.includes(moment.flow));
}

/** Present every time the referrer runs; only on upgrades (a first install fails); or never, with the moment it is missing at. */
export type Presence = { kind: "present" } | { kind: "upgrades-only"; missingAt: string } | { kind: "absent"; missingAt: string };

/**
 * Whether what `referrer` names is there whenever the referrer runs, given
 * the objects of that kind and name the stack renders (release objects and
 * hooks). An object of another chart counts as present: its release runs on
 * its own.
 */
export function presenceFor(referrer: Pick<KubernetesObject, "hook">, targets: readonly Pick<KubernetesObject, "hook">[]): Presence {
  const moments = momentsOf(referrer);
  if (moments.length === 0) return { kind: "present" };
  const missing = moments.filter((at) => !targets.some((target) => presentAt(target, at)));
  if (missing.length === 0) return { kind: "present" };
  const first = missing[0] as Moment;
  if (missing.length === moments.length) return { kind: "absent", missingAt: first.event };
  return missing.every((at) => at.flow === "install") ? { kind: "upgrades-only", missingAt: first.event } : { kind: "absent", missingAt: first.event };
}
