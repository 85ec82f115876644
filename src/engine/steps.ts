import type { EngineName, EngineStep } from "../model/engine.js";
import { ENGINES } from "./records.js";

export interface StepFacts {
  action: "add" | "delete" | "update" | "replace" | "rename";
  /** A field the provider replaces on (helm.v4.Chart). */
  forceNew: boolean;
  /** A field the API server refuses to change in place. */
  immutable: boolean;
  /** Any change at all, noise included: the engine sees every field. */
  changed: boolean;
}

/**
 * What the chart's engine does to one object. helm.v4.Chart: Pulumi's step for
 * the child resource, whose URN holds the type (with its apiVersion) and the
 * name: a rename is a new resource and the old one deleted; an apiVersion move
 * is an update because chartroom aliases each child to its kind's other
 * apiVersions (deployCharts' `aliasApiVersions`, on by default).
 * helm.v3.Release: what `helm upgrade` does to the object.
 */
export function engineStep(engine: EngineName, facts: StepFacts): EngineStep {
  if (facts.action === "add") return "create";
  if (facts.action === "delete") return "delete";
  if (facts.action === "rename") return "recreate";
  if (ENGINES[engine].replacesOnForceNew && facts.forceNew) return "replace";
  if (facts.immutable) return "fails";
  return facts.changed ? "update" : "same";
}
