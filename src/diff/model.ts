import type { EngineName, EngineStep } from "../model/engine.js";
import type { HookInfo, RenderedObject } from "../model/objects.js";
import type { Finding } from "../model/findings.js";
import type { ContractChange } from "../values/contract.js";
import type { SecretState } from "./secrets.js";

/**
 * Tags that keep a change out of the exit code, or explain it: `immutable`
 * the API server refuses it in place; `replaces` the chart's engine replaces
 * the object for it (helm.v4.Chart's provider replaces ConfigMaps and Secrets
 * whose contents change, among others).
 */
export type ChangeTag = "bookkeeping" | "unstable" | "immutable" | "replaces";

/** One field that changes, with its tags (bookkeeping, every-render noise, immutable, replaces). */
export interface ReportedChange {
  path: string;
  op: "add" | "remove" | "change" | "reorder";
  before?: unknown;
  after?: unknown;
  tags: ChangeTag[];
  /** Present for a Secret value: what happened to it (values are never shown). */
  secret?: SecretState;
  /**
   * A long value changed in a few of its lines (a multi-line string, a JSON
   * document kept in one string, a list of scalars): the change as unified
   * hunks. `before` and `after` stay whole beside it.
   */
  lines?: LineDiff;
}

/** A unified diff of one changed value. */
export interface LineDiff {
  /** `text`: the string's own lines; `json`: the JSON it holds, pretty-printed; `list`: one element a line. */
  form: "text" | "json" | "list";
  /** Lines added and removed in all. */
  added: number;
  removed: number;
  /** Each hunk: where it starts and how many lines it spans on each side (1-based, as `diff -u`), and its lines, each starting with ` `, `-` or `+`. */
  hunks: { before: { start: number; lines: number }; after: { start: number; lines: number }; lines: string[] }[];
}

/** One CRD version's schema changes, counted (`descriptions`: how many of the changed fields are descriptions). */
export interface SchemaSummary {
  /** The path of the version's schema, e.g. `spec.versions[0].schema.openAPIV3Schema`. */
  path: string;
  version: string;
  added: number;
  removed: number;
  changed: number;
  descriptions: number;
}

/** What happens to an object in Kubernetes terms: added, deleted, updated in place, replaced (an immutable field, or a field the engine replaces on), renamed. */
export type ObjectAction = "add" | "delete" | "update" | "replace" | "rename";

/** One object that changes: its identity, action, the engine's step and its field changes (Secret values masked). */
export interface ObjectReport {
  id: string;
  display: string;
  action: ObjectAction;
  /** What the chart's engine does to it, noise included (the engine sees every field). */
  step: EngineStep;
  apiVersion: string;
  source?: string;
  hook?: HookInfo;
  /** For `rename`: the object it was before. */
  renamedFrom?: { id: string; display: string };
  /** For `add` and `delete`: the whole object (Secret values masked). */
  body?: Record<string, unknown>;
  changes: ReportedChange[];
  /** For a changed Secret: its values that did not change, by byte length (values are never shown). */
  unchangedSecrets?: { path: string; bytes: number }[];
  /**
   * For a CustomResourceDefinition whose schema changed in more than a few
   * fields: the counts per served version, in place of the field changes
   * (`--show-schema-fields` lists every one).
   */
  schemaChanges?: SchemaSummary[];
  /**
   * The same Kubernetes object deleted from one chart and added to another
   * of the stack (a chart key renamed, an object moved between charts), and
   * what the engine does about it.
   */
  moved?: { from: string; to: string; consequence: string };
  /**
   * For `replace`: which immutable fields changed, what each engine will do,
   * and in which order helm.v4.Chart's replacement runs: `create-first`, with
   * a cluster and without (the test cluster showed the replacement of a
   * fixed-name child created first, and refused for the original's fields).
   */
  replacement?: { fields: string[]; consequences: Record<EngineName, string>; order?: "create-first" };
}

/** A container image that changes: its reference as rendered and the digest locked for it, where one is. */
export interface ImageChange {
  object: string;
  container: string;
  change: "added" | "removed" | "changed";
  from?: { image: string; digest?: string };
  to?: { image: string; digest?: string };
}

/** One chart and stack in a diff: both sides' versions, the objects that change and what the engine does to each. */
export interface ChartReport {
  chart: string;
  stack: string;
  engine: EngineName;
  from: { version: string } | null;
  to: { version: string } | null;
  objects: ObjectReport[];
  /** Objects the engine never creates (hooks under helm.v4.Chart, test hooks), listed apart from the diff. */
  apart: { id: string; display: string; reason: string; change: "add" | "delete" | "update" | "same" }[];
  /** The helm that rendered the two sides: its version and where it was found. */
  helm?: string;
  /** The Helm the engine renders and installs with: the one the project's @pulumi/kubernetes provider embeds. */
  engineHelm?: string;
  /** Objects whose only changes were bookkeeping labels/annotations (hidden unless asked). */
  bookkeeping: { objects: number; fields: string[] };
  /**
   * Fields that differ between two renders of the same inputs, and what the
   * engine does to their objects at every run because of them (`churn`).
   */
  unstable: {
    objects: number;
    paths: string[];
    churn: { id: string; display: string; step: EngineStep }[];
    /** What the engine's runs do to the objects churn replaces, when it replaces any. */
    consequence?: string;
  };
  /** What the version change does to the values this platform sets (empty when the version is the same). */
  contract: ContractChange[];
  /** Container images that change: tag to tag, digest to digest, added or removed. */
  images: ImageChange[];
  /** Policy findings about this chart that the change adds, and those it resolves. */
  findings: { added: Finding[]; resolved: Finding[] };
  notes: string[];
  /** With `--cluster`: what the API server says of the new side. */
  live?: LiveSection;
}

/** What the API server says of one object of the new side (a GET, then a server-side apply with dryRun=All). */
export type LiveOutcome =
  | "create"
  | "update"
  | "drift"
  | "delete"
  | "same"
  | "adopt"
  | "conflict"
  | "immutable"
  | "unknown-kind"
  | "forbidden"
  | "blocked"
  | "error";

/** Outcomes a deploy stops on: the live review counts them as findings (exit 2). */
export const LIVE_FAILURES: readonly LiveOutcome[] = ["conflict", "immutable", "unknown-kind", "forbidden", "blocked", "error"];

export interface LiveObjectReport {
  id: string;
  display: string;
  outcome: LiveOutcome;
  /** The field manager the dry run applied as: the one the live object has from the provider, else a new one. */
  manager?: string;
  /** `update`: the fields the apply changes, among those the manager owns; `immutable`: the fields the server refused. */
  fields?: string[];
  /**
   * `update` and `drift`: fields the apply changes that the change under
   * review does not (changed or removed out of band since the last deploy):
   * what `pulumi preview --refresh` and `helm upgrade` put back.
   */
  drift?: string[];
  /** `conflict`: each field another manager owns, who it is and the fix. */
  conflicts?: { manager: string; subresource?: string; field: string; owner: string; fix: string }[];
  /** `adopt`: the managers that own the object now. */
  owners?: string[];
  /** The server's own words (values of a Secret hidden). */
  message?: string;
  /** What to do. */
  fix?: string;
}

/** What one chart's live review is given: both sides, and the release Helm names. */
export interface LiveInput {
  engine: EngineName;
  /** The new side, Secret values as they are (the server must see them). */
  objects: readonly RenderedObject[];
  /** The old side (what the lock deploys today); empty for a chart not deployed yet. */
  previous: readonly RenderedObject[];
  /** Its Secret values are sealed (not shown): they are never compared with the live ones. */
  previousSealed: boolean;
  release: { name: string; namespace: string };
}

/** `diff --cluster`: the new side of a chart reviewed against the live cluster. */
export interface LiveSection {
  /** The API server, and the kubeconfig context that named it. */
  server: string;
  context: string;
  /** Objects reviewed, by outcome. */
  counts: Partial<Record<LiveOutcome, number>>;
  /** The objects with something to say (not `same`). */
  objects: LiveObjectReport[];
  /** helm.v3.Release: the release the upgrade starts from, as Helm stores it. */
  release?: LiveRelease;
  /** helm.v3.Release: the hooks the upgrade (or install) runs, in Helm's order. */
  hooks?: LiveHook[];
  /** What the engine waits for before the deploy goes on, per object, and pods already stuck where it would wait. */
  awaits?: LiveAwait[];
  /** The verbs the deploy of this chart needs that the identity lacks (SelfSubjectAccessReview), as the API server words each. */
  missingRights?: string[];
  notes: string[];
}

/** The newest revision of a Helm release (its `sh.helm.release.v1.<name>.v<N>` Secret, decoded). */
export interface LiveRelease {
  name: string;
  namespace: string;
  /** Absent when the cluster has no such release: Helm installs it. */
  revision?: number;
  status?: string;
  /** `name-version` of the chart that revision deployed. */
  chart?: string;
  /** The revision the per-object comparison starts from, when not the newest (the newest failed). */
  comparedWith?: number;
}

/** One object the engine waits for (engine/readiness.ts), and what would already fail the wait. */
export interface LiveAwait {
  id: string;
  display: string;
  on: string;
  note?: string;
  /** Pods of the live object stuck now (`pod container: reason`): the wait would end in a timeout. */
  failing?: string[];
}

export interface LiveHook {
  id: string;
  display: string;
  events: string[];
  weight: number;
  deletePolicies: string[];
}

/** `chartroom diff`: per chart and stack, the objects each side renders, compared. */
export interface DiffReport {
  report: "diff";
  /** 2: objects carry the engine's `step`; `unstable.churn` lists every-run replacements. */
  format: 2;
  charts: ChartReport[];
  summary: Record<ObjectAction, number> & {
    charts: number;
    bookkeeping: number;
    unstable: number;
    contract: number;
    findingsAdded: number;
    findingsResolved: number;
    /** Chart/stack pairs whose render inputs are the same on both sides: not rendered, not listed. */
    unchanged: number;
  };
  /** Whether anything beyond bookkeeping and unstable noise changed: the exit code. */
  changed: boolean;
}

export type { EngineStep };
