import type { EngineName } from "./engine.js";
import type { Severity } from "./findings.js";
import type { RenderedObject } from "./objects.js";

/** A Kubernetes object as rendered, for policy rules: identity, apiVersion and body. */
export type KubernetesObject = RenderedObject;

/** An object that exists outside the platform (made by another tool), declared so references to it pass. */
export interface ExternalObject {
  kind: string;
  name: string;
  /** Absent for cluster-scoped kinds, and to match every namespace. */
  namespace?: string;
}

/** What a rule sees: one chart's objects, and the stack around it. */
export interface PolicyContext {
  stack: string;
  /** The stack's Kubernetes version (`1.31.0`), when it declares one. */
  kubeVersion?: string;
  chart: string;
  /** The engine the chart is deployed with. */
  engine: EngineName;
  /** The chart's values as the platform sets them (files only; never printed). */
  values: Record<string, unknown>;
  /** Every chart's objects in the stack, this one's included, by chart key. */
  charts: ReadonlyMap<string, readonly KubernetesObject[]>;
  /** Objects declared to exist outside the platform. */
  external: readonly ExternalObject[];
  /** Whether the chart's declaration accepts that helm.v4.Chart drops its hooks. */
  dropHooks: boolean;
  /** The stack is marked production in the config. */
  production?: boolean;
  /** The digest `chartroom lock` recorded for each image reference the chart runs, as written. */
  lockedImages?: ReadonlyMap<string, string>;
}

/** What a rule says about one object (or the chart as a whole). */
export interface RuleResult {
  /** The object it is about. */
  object?: KubernetesObject;
  /** The field, as a dotted path (`spec.selector`). */
  path?: string;
  message: string;
  /** The field or value to change. */
  hint?: string;
  /**
   * At most this severity, whatever the rule's: for what the render cannot
   * tell for sure (an operator may create the pods, a container may listen on
   * a port it does not declare). An error means the deploy certainly fails or
   * serves nothing.
   */
  severity?: "warning" | "info";
}

/** A policy rule: built in, or written in policies/*.ts with `definePolicy`. */
export interface PolicyRule {
  /** Stable id, used in policy files and exceptions: `kebab-case`. */
  id: string;
  description: string;
  /** The severity unless a policy file sets another. */
  severity: Severity;
  /** The findings for one chart's objects; pure, no I/O. */
  check(objects: readonly KubernetesObject[], context: PolicyContext): RuleResult[];
}
