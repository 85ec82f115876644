import { relative } from "node:path";
import type { Paint } from "./paint.js";
import { markdownTable, textTable } from "./tables.js";

/** What `lock` did to one chart's pin. */
export interface LockChange {
  chart: string;
  kind: "added" | "updated" | "downgraded" | "republished" | "removed" | "unchanged";
  from?: string;
  to?: string;
  /** For "republished": the digest pinned before and the one pinned now. */
  digests?: { from: string; to: string };
}

/** `chartroom lock`: what changed in charts.lock.json. */
export interface LockReport {
  report: "lock";
  format: 1;
  /** Absolute path of charts.lock.json. */
  path: string;
  /** False when the lock already said exactly this. */
  written: boolean;
  changes: LockChange[];
}

/** `chartroom lock --frozen`: every pin fits its declaration and its archive verified. */
export interface VerifyReport {
  report: "verify";
  format: 1;
  path: string;
  charts: { chart: string; version: string; digest: string }[];
}

const COLOUR = { added: "green", updated: "yellow", downgraded: "red", republished: "red", removed: "red", unchanged: "dim" } as const;

function headline(report: LockReport, cwd: string): string {
  const where = relative(cwd, report.path) || report.path;
  return report.written ? `wrote ${where}` : `${where} is up to date`;
}

function rows(changes: LockChange[]): string[][] {
  return changes.map((change) => [
    change.chart,
    change.kind,
    change.from ?? "-",
    change.digests === undefined ? (change.to ?? "-") : `${change.to ?? "-"} (${change.digests.from.slice(7, 19)} → ${change.digests.to.slice(7, 19)})`,
  ]);
}

const HEADERS = ["CHART", "CHANGE", "FROM", "TO"];

export function lockText(report: LockReport, paint: Paint, cwd: string): string {
  const coloured = rows(report.changes).map(([chart = "", kind = "", from = "", to = ""]) => [
    chart,
    paint(kind, COLOUR[kind as LockChange["kind"]]),
    from,
    to,
  ]);
  return `${textTable(HEADERS, coloured)}\n\n${headline(report, cwd)}`;
}

export function lockMarkdown(report: LockReport, cwd: string): string {
  return `${headline(report, cwd)}\n\n${markdownTable(HEADERS, rows(report.changes))}`;
}

const VERIFIED = "charts.lock.json matches the config; every pinned archive verified";

export function verifyText(report: VerifyReport): string {
  return `${textTable(
    ["CHART", "VERSION", "DIGEST"],
    report.charts.map((c) => [c.chart, c.version, c.digest]),
  )}\n\n${VERIFIED}`;
}

export function verifyMarkdown(report: VerifyReport): string {
  return `${VERIFIED}\n\n${markdownTable(
    ["chart", "version", "digest"],
    report.charts.map((c) => [c.chart, c.version, `\`${c.digest}\``]),
  )}`;
}
