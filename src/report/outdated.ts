import type { OutdatedRow } from "../versions/outdated.js";
import type { Paint } from "./paint.js";
import { markdownTable, textTable } from "./tables.js";

/** `chartroom outdated`: per chart, the pin against what the repository offers. */
export interface OutdatedReport {
  report: "outdated";
  format: 1;
  charts: OutdatedRow[];
}

const HEADERS = ["CHART", "CURRENT", "WANTED", "LATEST", "UPDATE", "REPOSITORY"];
const CURRENT = "every chart is on its latest version";

function cells(rows: OutdatedRow[]): string[][] {
  return rows.map((row) => [row.chart, row.current ?? "(not locked)", row.wanted ?? "-", row.latest ?? "-", row.updateType ?? "-", row.repository]);
}

export function outdatedText(report: OutdatedReport, paint: Paint): string {
  const shown = report.charts.filter((row) => row.outdated);
  if (shown.length === 0) return CURRENT;
  const painted = cells(shown).map((cell, i) => {
    const type = shown[i]?.updateType;
    const colour = type === "major" ? "red" : type === "minor" ? "yellow" : "green";
    return cell.map((text, column) => (column === 4 ? paint(text, colour) : text));
  });
  return textTable(HEADERS, painted);
}

export function outdatedMarkdown(report: OutdatedReport): string {
  const shown = report.charts.filter((row) => row.outdated);
  return shown.length === 0 ? CURRENT : markdownTable(HEADERS, cells(shown));
}
