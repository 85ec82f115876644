import { chartBlock, chartHeading, summaryLine } from "./format-text.js";
import type { ChartReport, DiffReport } from "./model.js";
import { isReal } from "./report.js";

export const MARKDOWN_LIMIT = 65_000;

/**
 * For a pull-request comment: the summary table first, each chart's details
 * folded, the whole under 65,000 characters (details dropped from the end,
 * with a note saying so, when it would not fit).
 */
export function formatMarkdown(report: DiffReport, limit = MARKDOWN_LIMIT): string {
  const head = [`### chartroom diff`, "", summaryLine(report), "", table(report.charts)].join("\n");
  const details = report.charts.filter((chart) => chart.objects.length > 0 || chart.contract.length > 0 || chart.notes.length > 0).map(folded);
  let body = [head, ...details].join("\n\n");
  let kept = details.length;
  while (body.length > limit && kept > 0) {
    kept--;
    const note = `> **Report cut:** details of ${details.length - kept} of ${details.length} chart(s) left out to stay under ${limit.toLocaleString("en-US")} characters. Run \`chartroom diff\` locally for all of it.`;
    body = [head, ...details.slice(0, kept), note].join("\n\n");
  }
  return body.length > limit ? `${body.slice(0, limit - 40)}\n\n> **Report cut** at ${limit} characters.` : body;
}

function table(charts: ChartReport[]): string {
  const rows = charts.map((chart) => {
    const count = (action: string) => chart.objects.filter((object) => object.action === action && isReal(object)).length;
    const from = chart.from?.version ?? "—";
    const to = chart.to?.version ?? "—";
    return `| ${chart.chart} | ${chart.stack} | ${from} | ${to} | ${count("add")} | ${count("delete")} | ${count("update")} | ${count("replace")} | ${count("rename")} |`;
  });
  return ["| chart | stack | from | to | added | deleted | updated | replaced | renamed |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- |", ...rows].join("\n");
}

function folded(chart: ChartReport): string {
  const text = chartBlock(chart, (value) => value).split("\n").slice(1).join("\n");
  return `<details><summary>${escapeHtml(chartHeading(chart))}</summary>\n\n\`\`\`diff\n${text.replace(/```/g, "ˋˋˋ")}\n\`\`\`\n</details>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
