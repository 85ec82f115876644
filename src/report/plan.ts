import type { EngineName } from "../model/engine.js";
import type { LiveOutcome, ObjectAction } from "../diff/model.js";
import { describeCounts } from "../diff/report.js";
import type { OutdatedRow } from "../versions/outdated.js";
import type { Paint } from "./paint.js";
import { markdownTable, shortDigest, textTable } from "./tables.js";

/** One chart's line in the plan: the pin, whether its archive checks out, what is newer. */
export interface PlanRow {
  chart: string;
  namespace: string;
  range: string;
  pinned?: string;
  digest?: string;
  verified: boolean;
  engine?: EngineName;
  outdated?: OutdatedRow;
  /** What moving to the next version (wanted, else latest) does, per stack. */
  next?: {
    version: string;
    stacks: Record<string, Record<ObjectAction, number>>;
    contract: Record<string, number>;
    /** With `--cluster`: per stack reviewed against its cluster, the live outcomes other than `same`. */
    live?: Record<string, Partial<Record<LiveOutcome, number>>>;
  };
  /** Policy findings of the pinned version, every stack together (silenced ones not counted). */
  findings?: { errors: number; warnings: number };
  problems: string[];
  /** What the engine will do that the rest of the row does not say (a chart the provider cannot render offline). */
  notes?: string[];
}

/** `chartroom plan`: every declared chart, its pin verified, what is newer and what that does. */
export interface PlanReport {
  report: "plan";
  format: 1;
  charts: PlanRow[];
}

const HEADERS = ["CHART", "NAMESPACE", "RANGE", "PINNED", "DIGEST", "VERIFIED", "ENGINE", "STATUS"];

export function planStatus(row: PlanRow): string {
  if (row.problems.length > 0) return row.problems.join("; ");
  const outdated = row.outdated;
  if (outdated === undefined || !outdated.outdated) return "up to date";
  const parts: string[] = [];
  if (outdated.wanted !== undefined && outdated.wanted !== row.pinned) parts.push(`wanted ${outdated.wanted}`);
  if (outdated.latest !== undefined && outdated.latest !== outdated.wanted) parts.push(`latest ${outdated.latest}`);
  return `${parts.join(", ")} (${outdated.updateType ?? "update"})`;
}

function cells(rows: PlanRow[]): string[][] {
  return rows.map((row) => [
    row.chart,
    row.namespace,
    row.range,
    row.pinned ?? "-",
    row.digest === undefined ? "-" : shortDigest(row.digest),
    row.verified ? "yes" : "no",
    row.engine ?? "-",
    planStatus(row),
  ]);
}

function nextLines(rows: PlanRow[]): string[] {
  return rows
    .filter((row) => row.next !== undefined)
    .map((row) => {
      const stacks = Object.entries(row.next?.stacks ?? {}).map(([stack, counts]) => {
        const contract = row.next?.contract[stack] ?? 0;
        const live = Object.entries(row.next?.live?.[stack] ?? {}).map(([outcome, count]) => `${count} ${outcome}`);
        const liveText = row.next?.live?.[stack] === undefined ? "" : `; live: ${live.length === 0 ? "nothing changes" : live.join(", ")}`;
        return `    ${stack}: ${describeCounts(counts)}${contract > 0 ? `; ${contract} values contract finding(s)` : ""}${liveText}`;
      });
      return [`  ${row.chart} ${row.pinned} → ${row.next?.version}`, ...stacks].join("\n");
    });
}

export function planText(report: PlanReport, paint: Paint): string {
  const rows = report.charts;
  const painted = cells(rows).map((cell, i) => {
    const row = rows[i];
    const colour = row === undefined || row.problems.length > 0 ? "red" : row.outdated?.outdated ? "yellow" : "green";
    return cell.map((text, column) => (column === 5 || column === 7 ? paint(text, colour) : text));
  });
  const verified = rows.filter((row) => row.verified).length;
  const next = nextLines(rows);
  const nextBlock = next.length === 0 ? "" : `\n\nWhat the next version does (chartroom diff <chart> --to <version> for details):\n${next.join("\n")}`;
  const notes = noteLines(rows);
  const notesBlock = notes.length === 0 ? "" : `\n\nNotes:\n${notes.join("\n")}`;
  return `${textTable(HEADERS, painted)}${nextBlock}${notesBlock}\n\n${rows.length} charts, ${verified} verified against charts.lock.json${policyLine(rows)}`;
}

function noteLines(rows: PlanRow[]): string[] {
  return rows.flatMap((row) => (row.notes ?? []).map((note) => `  ${row.chart}: ${note}`));
}

function policyLine(rows: PlanRow[]): string {
  if (rows.every((row) => row.findings === undefined)) return "";
  const errors = rows.reduce((sum, row) => sum + (row.findings?.errors ?? 0), 0);
  const warnings = rows.reduce((sum, row) => sum + (row.findings?.warnings ?? 0), 0);
  return `; policy findings: ${errors} error(s), ${warnings} warning(s) (\`chartroom check\` lists them)`;
}

export function planMarkdown(report: PlanReport): string {
  const next = nextLines(report.charts);
  const notes = noteLines(report.charts);
  return [
    `### chartroom plan`,
    "",
    markdownTable(
      HEADERS.map((h) => h.toLowerCase()),
      cells(report.charts),
    ),
    ...(next.length === 0 ? [] : ["", "What the next version does:", "", "```", ...next, "```"]),
    ...(notes.length === 0 ? [] : ["", "Notes:", "", ...notes.map((note) => `-${note.slice(1)}`)]),
    ...(policyLine(report.charts) === "" ? [] : ["", policyLine(report.charts).slice(2)]),
  ].join("\n");
}
