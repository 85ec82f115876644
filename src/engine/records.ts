import type { EngineName } from "../model/engine.js";

/**
 * Everything that differs between the two Pulumi engines, in one record
 * each. Diff, reports, policies and deploy read their answers here; a third
 * engine is one more record (and, in deploy/, one more builder).
 */
export interface EngineRecord {
  name: EngineName;
  /** How its users know it. */
  display: string;
  /** The Pulumi type of the resource a chart becomes. */
  pulumiType: string;
  /** The other engine, for "under the other engine…" notes. */
  other: EngineName;
  /**
   * How Pulumi knows an object: a child resource per object, whose URN holds
   * its type (apiVersion included) and name; or one resource for the whole
   * release, which `helm upgrade` reconciles.
   */
  identity: "child per object" | "one release";
  /** Lifecycle hooks: Helm runs them at their phases, or the engine never creates them. */
  hooks: "run" | "dropped";
  /** Objects of the chart's `crds/` folder on an upgrade: applied like any other, or left as installed (Helm installs them once). */
  crdsOnUpgrade: "applied" | "skipped";
  /** The provider replaces an object when one of its forceNew fields changes (engine/force-new.ts). */
  replacesOnForceNew: boolean;
  /**
   * How pinImages reaches the objects: a transform on each child (every
   * object), or a post-renderer, which Helm 3 runs on the manifests but not
   * on hooks (pkg/action/action.go renderResources), so hook images stay as rendered.
   */
  pinsHookImages: boolean;
  /** Who changes an object in place, in words. */
  updater: string;
  /** What an apiVersion move does to one object, when the engine's identity makes it worth saying. */
  apiVersionNote?: string;
  /** What removing the chart does to the CustomResourceDefinitions it ships. */
  crdsOnRemoval: string;
  /** What a fixed-name object whose replacement fields change goes through, against a cluster. */
  replacement: string;
  /** The same without a cluster (renderYamlToDirectory), where the provider's order differs. */
  replacementOffline?: string;
  /**
   * What a live review compares the new side with, and how it asks the
   * server: the old render, applied as the provider's field manager (a
   * conflict fails the deploy); or the release Helm stored, applied with
   * force (helm upgrade patches over other managers).
   */
  live: { base: "old render" | "stored release"; force: boolean };
  /** What every run does to objects the engine replaces at each render (a random Secret value), named in `objects`. */
  everyRun?: (objects: string, offline: boolean) => string;
  /** When an immutable field changes on an object it updates in place. */
  immutableChange: string;
  /** When only fields the other engine replaces on change. */
  inPlace: string;
  /** An object that moves to another chart key under this engine (from and to both this engine). */
  moveWithin: (from: string, to: string) => string;
  /**
   * Which helm chartroom renders it with: `CHARTROOM_CHART_HELM` when set (the
   * Helm the provider embeds, for helm.v4.Chart), else the user's.
   */
  ownHelmSetting?: "CHARTROOM_CHART_HELM";
  /** Rendered by the provider without a cluster (renderYamlToDirectory): for Helm's default v1.20.0, or not at all. */
  offline: "renders for v1.20.0" | "cannot";
  /** How it waits for the objects to be ready. */
  awaits: string;
}

const CHART: EngineRecord = {
  name: "chart",
  display: "helm.v4.Chart",
  pulumiType: "kubernetes:helm.sh/v4:Chart",
  other: "release",
  identity: "child per object",
  hooks: "dropped",
  crdsOnUpgrade: "applied",
  replacesOnForceNew: true,
  pinsHookImages: true,
  updater: "Pulumi's update",
  apiVersionNote: "helm.v4.Chart: the apiVersion is part of the child's URN; chartroom aliases the old type, so Pulumi updates it",
  crdsOnRemoval:
    "a CRD under helm.v4.Chart: chartroom retains it when the chart is removed (retainCrds), or deleting it would delete every custom resource of its kind",
  replacement:
    "helm.v4.Chart: Pulumi replaces the object, creating the replacement first under the same name; server-side apply refuses it, since the changed fields belong to the original's field manager (Server-Side Apply field conflict detected), and `pulumi up` fails. Forced (patchForce), the original's delete then deletes the object. Delete the object before the up, or give it a new name",
  replacementOffline:
    "helm.v4.Chart without a cluster (renderYamlToDirectory): Pulumi creates the replacement first, then deletes the original, and that delete removes the file just written: the object is missing from the render folder though the state has it (the provider's behaviour)",
  everyRun: (objects, offline) =>
    offline
      ? `helm.v4.Chart replaces ${objects} at every \`pulumi up\``
      : `helm.v4.Chart fails every \`pulumi up\` after the first on ${objects}: each run replaces it, creating the replacement first, and the changed fields belong to the original's field manager`,
  immutableChange: "helm.v4.Chart: Pulumi updates the object and the API server refuses (the field is immutable); the object must be deleted first",
  inPlace: "helm.v4.Chart: Pulumi updates the object in place",
  moveWithin: (from, to) =>
    `helm.v4.Chart names each child by its chart, so Pulumi sees a new resource under ${to} and an old one under ${from}: it creates the new one first (server-side apply takes over the live object; providers from v4.29 stop with AlreadyExists) and then deletes the old one, which deletes the live object. Keep the key, or alias the children to their old names before the move`,
  ownHelmSetting: "CHARTROOM_CHART_HELM",
  offline: "renders for v1.20.0",
  live: { base: "old render", force: false },
  awaits: "each child as the provider awaits its kind (Deployments rolled out, Services with endpoints, Jobs complete), unless skipAwait",
};

const RELEASE: EngineRecord = {
  name: "release",
  display: "helm.v3.Release",
  pulumiType: "kubernetes:helm.sh/v3:Release",
  other: "chart",
  identity: "one release",
  hooks: "run",
  crdsOnUpgrade: "skipped",
  replacesOnForceNew: false,
  pinsHookImages: false,
  updater: "helm upgrade",
  crdsOnRemoval: "a CRD under helm.v3.Release: Helm keeps those from crds/ on uninstall, deletes those from templates/ (and every custom resource with them)",
  replacement: 'helm.v3.Release: `helm upgrade` fails with "field is immutable"; the object must be deleted first',
  immutableChange: 'helm.v3.Release: `helm upgrade` fails with "field is immutable"; the object must be deleted first',
  inPlace: "helm.v3.Release: `helm upgrade` updates the object in place",
  moveWithin: (from, to) =>
    `the object belongs to the release ${from}: installing ${to} fails ("invalid ownership metadata") until ${from} is uninstalled, which deletes the object first (downtime)`,
  offline: "cannot",
  live: { base: "stored release", force: true },
  awaits: "the release as Helm waits for it (atomic, with the timeout), hooks and Jobs included",
};

/** The one place that knows every engine. */
export const ENGINES: Readonly<Record<EngineName, EngineRecord>> = { chart: CHART, release: RELEASE };

/** What one engine does to an object whose replacement or immutable fields change. */
export function consequenceOf(record: EngineRecord, seen: { forceNew: boolean; immutable: boolean; offline: boolean }): string {
  if (record.replacesOnForceNew && seen.forceNew) return seen.offline ? (record.replacementOffline ?? record.replacement) : record.replacement;
  return seen.immutable ? record.immutableChange : record.inPlace;
}

/** Each engine's consequence, by name (the report shows both). */
export function consequences(seen: { forceNew: boolean; immutable: boolean; offline: boolean }): Record<EngineName, string> {
  return Object.fromEntries(Object.values(ENGINES).map((record) => [record.name, consequenceOf(record, seen)])) as Record<EngineName, string>;
}

/** When the object changes engine between the two sides. */
export function moveAcross(before: EngineName, after: EngineName, from: string): string {
  return `the object changes engine (${ENGINES[before].display} → ${ENGINES[after].display}): the new owner creates it while the old still holds it, and removing it from ${from} deletes it; plan a window, or move it in two steps`;
}
