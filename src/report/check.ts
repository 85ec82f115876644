import type { ValuesFinding } from "../values/check.js";
import type { Paint } from "./paint.js";
import { markdownTable } from "./tables.js";

/** `chartroom check`: every chart's values for every stack against its pinned version's contract. */
export interface CheckReport {
  report: "check";
  format: 1;
  /** Chart/stack pairs checked. */
  checked: number;
  findings: ValuesFinding[];
  /** True when any finding is an error: the exit code is 2. */
  failed: boolean;
}

function where(found: ValuesFinding): string {
  return found.position === undefined ? "(chart default)" : `${found.position.file}:${found.position.line}:${found.position.column}`;
}

function summary(report: CheckReport): string {
  return `${report.findings.length} finding(s) in ${report.checked} chart/stack pair(s)`;
}

export function checkText(report: CheckReport, paint: Paint): string {
  const lines = report.findings.map((found) => {
    const head = `${paint(found.severity, found.severity === "error" ? "red" : "yellow")} ${where(found)} ${found.chart} [${found.stack}] ${paint(found.path, "bold")}: ${found.message} (${found.rule})`;
    return found.hint === undefined ? head : `${head}\n  hint: ${found.hint}`;
  });
  return [...lines, summary(report)].join("\n");
}

export function checkMarkdown(report: CheckReport): string {
  const rows = report.findings.map((found) => [found.severity, found.chart, found.stack, found.path, found.rule, found.message, found.hint ?? "", where(found)]);
  return rows.length === 0 ? summary(report) : `${summary(report)}\n\n${markdownTable(["severity", "chart", "stack", "key", "rule", "problem", "hint", "where"], rows)}`;
}
