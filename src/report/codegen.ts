import { relative } from "node:path";

/** `chartroom types`: chartroom.types.ts generated from each pinned chart's values schema. */
export interface TypesReport {
  report: "types";
  format: 1;
  path: string;
  charts: { chart: string; version: string }[];
  /** written: the file changed; unchanged: it said this already; stale: `--check` found it out of date (nothing written). */
  status: "written" | "unchanged" | "current" | "stale";
}

export function typesText(report: TypesReport, cwd: string): string {
  const shown = relative(cwd, report.path) || report.path;
  const count = `${report.charts.length} charts`;
  switch (report.status) {
    case "written":
      return `wrote ${shown} (${count})`;
    case "unchanged":
      return `unchanged ${shown} (${count})`;
    case "current":
      return `${shown} is up to date (${count})`;
    case "stale":
      return `${shown} is stale: run \`chartroom types\` and commit it`;
  }
}

export function typesMarkdown(report: TypesReport, cwd: string): string {
  return `${typesText(report, cwd)}\n\n${report.charts.map((chart) => `- \`${chart.chart}\` ${chart.version}`).join("\n")}`;
}
