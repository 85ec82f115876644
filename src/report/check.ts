import type { Finding } from "../model/findings.js";
import type { Paint } from "./paint.js";
import { markdownTable } from "./tables.js";

/** `chartroom check`: every chart's values for every stack against its pinned version's contract. */
export interface CheckReport {
  report: "check";
  format: 1;
  /** Chart/stack pairs checked. */
  checked: number;
  /** Values findings and policy findings, silenced ones included (severity info, with their exception). */
  findings: Finding[];
  /** True when any finding is an error: the exit code is 2. */
  failed: boolean;
}

/** A file position, else the object; a values finding with neither is about a chart default; a chart-wide finding has none. */
function where(found: Finding): string {
  if (found.position !== undefined) return `${found.position.file}:${found.position.line}:${found.position.column}`;
  return found.object ?? (found.path !== undefined ? "(chart default)" : "");
}

/** The field; nothing when the finding is about a whole file already named as its place. */
function subject(found: Finding): string {
  return found.path === undefined || found.path === found.position?.file ? "" : found.path;
}

function summary(report: CheckReport): string {
  const count = (severity: Finding["severity"]) => report.findings.filter((found) => found.severity === severity).length;
  return `${count("error")} error(s), ${count("warning")} warning(s), ${count("info")} note(s) in ${report.checked} chart/stack pair(s)`;
}

export function checkText(report: CheckReport, paint: Paint): string {
  const lines = report.findings.map((found) => {
    const colour = found.severity === "error" ? "red" : found.severity === "warning" ? "yellow" : "dim";
    const field = subject(found) === "" ? "" : ` ${paint(subject(found), "bold")}`;
    const head = `${[paint(found.severity, colour), where(found), found.chart].filter((part) => part !== "").join(" ")} [${found.stack}]${field}: ${found.message} (${found.rule})`;
    const more = [
      ...(found.hint === undefined || found.exception !== undefined ? [] : [`  hint: ${found.hint}`]),
      ...(found.exception === undefined
        ? []
        : [
            `  excepted in ${found.exception.file}: ${found.exception.reason}${found.exception.until === undefined ? "" : ` (until ${found.exception.until})`}`,
          ]),
    ];
    return [head, ...more].join("\n");
  });
  return [...lines, summary(report)].join("\n");
}

export function checkMarkdown(report: CheckReport): string {
  const rows = report.findings.map((found) => [
    found.severity,
    found.chart,
    found.stack,
    subject(found),
    found.rule,
    found.message,
    found.exception === undefined ? (found.hint ?? "") : `excepted: ${found.exception.reason}`,
    where(found),
  ]);
  return rows.length === 0
    ? summary(report)
    : `${summary(report)}\n\n${markdownTable(["severity", "chart", "stack", "field", "rule", "problem", "hint", "where"], rows)}`;
}
