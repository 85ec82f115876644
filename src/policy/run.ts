import type { EngineName } from "../model/engine.js";
import type { Finding, Severity } from "../model/findings.js";
import { displayName } from "../model/objects.js";
import type { ExternalObject, KubernetesObject, PolicyContext, PolicyRule } from "../model/policy.js";
import type { PolicyException, PolicySettings } from "./settings.js";

/** One chart of a stack, rendered, as the rules see it. */
export interface PolicyChart {
  key: string;
  engine: EngineName;
  dropHooks: boolean;
  values: Record<string, unknown>;
  objects: readonly KubernetesObject[];
  /** The digests the lock records for the chart's images, by reference as written. */
  lockedImages?: ReadonlyMap<string, string>;
}

export interface PolicyRun {
  stack: string;
  kubeVersion?: string;
  /** The stack is marked production. */
  production?: boolean;
  charts: readonly PolicyChart[];
  rules: readonly PolicyRule[];
  settings: PolicySettings;
  /** Today, YYYY-MM-DD: exceptions expire on it. */
  today: string;
}

/**
 * Every rule over every chart of one stack. Pure: rules return what they
 * find; severities and exceptions from the policy files are applied here; a
 * silenced finding stays in the list with its exception, at severity info.
 */
export function runPolicies(run: PolicyRun): Finding[] {
  const charts = new Map(run.charts.map((chart) => [chart.key, chart.objects]));
  const external: ExternalObject[] = run.settings.external;
  const used = new Set<PolicyException>();
  const out: Finding[] = [];
  for (const chart of run.charts) {
    const context: PolicyContext = {
      stack: run.stack,
      kubeVersion: run.kubeVersion,
      chart: chart.key,
      engine: chart.engine,
      values: chart.values,
      charts,
      external,
      dropHooks: chart.dropHooks,
      production: run.production === true,
      lockedImages: chart.lockedImages ?? new Map(),
    };
    for (const rule of run.rules) {
      const severity = severityOf(rule, run.settings, run.stack);
      if (severity === "off") continue;
      for (const result of rule.check(chart.objects, context)) {
        const finding: Finding = { rule: rule.id, severity: milder(severity, result.severity), chart: chart.key, stack: run.stack, message: result.message };
        if (result.object !== undefined) finding.object = displayName(result.object);
        if (result.path !== undefined) finding.path = result.path;
        if (result.hint !== undefined) finding.hint = result.hint;
        const exception = run.settings.exceptions.find((item) => silences(item, finding));
        if (exception !== undefined && (exception.until === undefined || exception.until >= run.today)) {
          used.add(exception);
          finding.exception = { reason: exception.reason, file: exception.file, ...(exception.until === undefined ? {} : { until: exception.until }) };
          finding.severity = "info";
        }
        out.push(finding);
      }
    }
  }
  return [...out, ...exceptionFindings(run, used)];
}

const RANK: Record<Severity, number> = { error: 2, warning: 1, info: 0 };

/** A result's own cap on its rule's severity: the milder of the two. */
function milder(severity: Severity, cap: Severity | undefined): Severity {
  return cap !== undefined && RANK[cap] < RANK[severity] ? cap : severity;
}

function severityOf(rule: PolicyRule, settings: PolicySettings, stack: string): Severity | "off" {
  const setting = settings.severities.get(rule.id);
  return setting?.stacks[stack] ?? setting?.severity ?? rule.severity;
}

function silences(exception: PolicyException, finding: Finding): boolean {
  return (
    exception.rule === finding.rule &&
    exception.chart === finding.chart &&
    (exception.stack === undefined || exception.stack === finding.stack) &&
    (exception.object === undefined || exception.object === finding.object)
  );
}

/** An expired exception is an error naming it; one that silences nothing in this stack is worth a look. */
function exceptionFindings(run: PolicyRun, used: ReadonlySet<PolicyException>): Finding[] {
  const out: Finding[] = [];
  const keys = new Set(run.charts.map((chart) => chart.key));
  for (const exception of run.settings.exceptions) {
    if ((exception.stack !== undefined && exception.stack !== run.stack) || !keys.has(exception.chart)) continue;
    const position = { file: exception.file, line: exception.line, column: exception.column };
    if (exception.until !== undefined && exception.until < run.today) {
      out.push({
        rule: "policy-exception-expired",
        severity: "error",
        chart: exception.chart,
        stack: run.stack,
        message: `the exception for ${exception.rule} expired on ${exception.until} ("${exception.reason}")`,
        hint: "fix what it excused, or renew it with a new until date and reason",
        position,
      });
    } else if (!used.has(exception)) {
      out.push({
        rule: "policy-exception-unused",
        severity: "warning",
        chart: exception.chart,
        stack: run.stack,
        message: `the exception for ${exception.rule}${exception.object === undefined ? "" : ` on ${exception.object}`} silences nothing`,
        hint: "remove it, or fix its rule, chart or object",
        position,
      });
    }
  }
  return out;
}
