import type { DiffReport } from "../diff/model.js";
import { formatMarkdown } from "./diff-markdown.js";
import { formatText } from "./diff-text.js";
import type { Paint } from "./paint.js";

/** One chart's move from its pin to another version. */
export interface UpgradeMove {
  chart: string;
  from: string;
  to: string;
  /** `upgrade --to` outside the declared range: the range in the config, before and after (rewritten there). */
  range?: { from: string; to: string };
}

/**
 * `chartroom upgrade`: each chart's move to the highest version in its range,
 * what the move does (the per-object diff and values contract, per stack),
 * and whether charts.lock.json was written.
 */
export interface UpgradeReport {
  report: "upgrade";
  format: 1;
  moves: UpgradeMove[];
  /** Newer versions outside the declared ranges, with the config change each needs. */
  notes: string[];
  /** False for a dry run (or nothing to move). */
  written: boolean;
  diff: DiffReport;
}

function headline(report: UpgradeReport): string {
  if (report.moves.length === 0) return "every chart is on the highest version its range allows";
  const moves = report.moves.map(
    (move) => `${move.chart} ${move.from} → ${move.to}${move.range === undefined ? "" : ` (range "${move.range.from}" → "${move.range.to}" in the config)`}`,
  );
  return `${report.written ? "upgraded" : "would upgrade"}: ${moves.join(", ")}`;
}

function notes(report: UpgradeReport): string {
  return report.notes.map((note) => `note: ${note}`).join("\n");
}

export function upgradeText(report: UpgradeReport, paint: Paint): string {
  const body = report.diff.charts.length === 0 ? "" : formatText(report.diff, paint);
  return [body, headline(report), notes(report)].filter(Boolean).join("\n\n");
}

export function upgradeMarkdown(report: UpgradeReport): string {
  const body = report.diff.charts.length === 0 ? "" : formatMarkdown(report.diff).replace(/^### chartroom diff/, "### chartroom upgrade");
  return [body, `**${headline(report)}**`, notes(report)].filter(Boolean).join("\n\n");
}
