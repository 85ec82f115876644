import type { ChartReport, DiffReport, ObjectReport } from "../diff/model.js";
import { describeImageChange } from "./images.js";
import { countActions, describeCounts, isBookkeepingOnly, isReal, liveStops } from "../diff/report.js";
import { ENGINES } from "../engine/records.js";
import { diffBlockLines } from "./diff-lines.js";
import { chartHeading, otherChart, summaryLine } from "./diff-text.js";

/** GitHub refuses comments over 65,536 characters; this leaves room for a wrapper. */
export const MARKDOWN_LIMIT = 65_000;

/** How much of a chart is shown: its field changes, its object list, or one line naming every object. */
type Detail = "fields" | "objects" | "line";

/**
 * For a pull-request comment: the summary first (and what was shortened,
 * if anything), the table, then each chart with changes, folded, its lines
 * in a ```diff block that GitHub colours. Over the limit it cuts field
 * details first (largest chart first), then folds charts to one line each;
 * every changed object is still named with its class, and no values
 * contract or policy finding is ever dropped.
 */
export function formatMarkdown(report: DiffReport, limit = MARKDOWN_LIMIT): string {
  const head = (cut: string) => [`### chartroom diff`, "", summaryLine(report), ...(cut === "" ? [] : ["", cut]), "", table(report.charts)].join("\n");
  const charts = report.charts.filter(
    (chart) =>
      chart.objects.length > 0 ||
      chart.contract.length > 0 ||
      chart.notes.length > 0 ||
      chart.findings.added.length + chart.findings.resolved.length > 0 ||
      (chart.live?.objects.length ?? 0) + (chart.live?.notes.length ?? 0) > 0 ||
      liveStops(chart.live),
  );
  const detail = new Map<ChartReport, Detail>(charts.map((chart) => [chart, "fields"]));
  const build = () => {
    const blocks = charts.map((chart) => section(chart, detail.get(chart) ?? "fields"));
    return [head(cutNote(detail)), ...blocks].join("\n\n");
  };
  let body = build();
  // Largest first: one big chart's details cost more than many small ones'.
  const bySize = [...charts].sort((a, b) => section(b, "fields").length - section(a, "fields").length);
  for (const level of ["objects", "line"] as const) {
    for (const chart of bySize) {
      if (body.length <= limit) return body;
      detail.set(chart, level);
      body = build();
    }
  }
  if (body.length <= limit) return body;
  return `${body.slice(0, limit - 120)}\n\n> **Report cut** at ${limit.toLocaleString("en-US")} characters even with every chart on one line. Run \`chartroom diff\` locally for all of it.`;
}

function cutNote(detail: Map<ChartReport, Detail>): string {
  const lists = [...detail.values()].filter((level) => level === "objects").length;
  const lines = [...detail.values()].filter((level) => level === "line").length;
  if (lists === 0 && lines === 0) return "";
  const parts = [
    ...(lists > 0 ? [`field changes of ${lists} chart(s) left out (their objects are listed)`] : []),
    ...(lines > 0 ? [`${lines} chart(s) folded to one line naming each changed object`] : []),
  ];
  return `> **Shortened** to stay under ${MARKDOWN_LIMIT.toLocaleString("en-US")} characters: ${parts.join("; ")}. \`chartroom diff --format html\` or a local \`chartroom diff\` shows everything.`;
}

function table(charts: ChartReport[]): string {
  const rows = charts.map((chart) => {
    const counts = countActions(chart);
    const from = chart.from?.version ?? "—";
    const to = chart.to?.version ?? "—";
    return `| ${chart.chart} | ${chart.stack} | ${from} | ${to} | ${counts.add} | ${counts.delete} | ${counts.update} | ${counts.replace} | ${counts.rename} |`;
  });
  return [
    "| chart | stack | from | to | added | deleted | updated | replaced | renamed |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

function section(chart: ChartReport, detail: Detail): string {
  if (detail === "line") return oneLine(chart);
  const body = detail === "fields" ? diffBlockLines(chart).join("\n") : objectList(chart);
  return `<details><summary>${escapeHtml(chartHeading(chart))}</summary>\n\n\`\`\`diff\n${body.replace(/```/g, "ˋˋˋ")}\n\`\`\`\n</details>`;
}

const MARK: Record<ObjectReport["action"], string> = { add: "+", delete: "-", update: "~", replace: "!", rename: ">" };

function objectLine(object: ObjectReport): string {
  const noise = isReal(object) ? "" : isBookkeepingOnly(object) ? " (bookkeeping only)" : " (changes on every render only)";
  const renamed = object.renamedFrom === undefined ? "" : ` (from ${object.renamedFrom.display})`;
  const moved =
    object.moved === undefined
      ? ""
      : object.action === "add"
        ? ` (moved from chart ${object.moved.from}: see the text report)`
        : ` (moved to chart ${object.moved.to})`;
  return `${MARK[object.action]} ${object.display} ${object.action}${renamed}${moved}, engine: ${object.step}${noise}`;
}

function objectList(chart: ChartReport): string {
  const lines = chart.objects.map(objectLine);
  for (const change of chart.images) lines.push(`  image ${describeImageChange(change)}`);
  const contract = chart.contract.filter((change) => change.kind !== "default");
  if (contract.length > 0) lines.push(`  values contract: ${contract.map((change) => `${change.kind} ${change.path}`).join(", ")}`);
  for (const found of chart.findings.added)
    lines.push(`+ policy ${found.severity} ${found.rule}: ${otherChart(found, chart)}${found.object ?? ""} ${found.path ?? ""}`.trimEnd());
  for (const found of chart.findings.resolved)
    lines.push(`- policy ${found.rule}: ${otherChart(found, chart)}${found.object ?? ""} ${found.path ?? ""}`.trimEnd());
  return lines.length === 0 ? "  no object changes" : lines.join("\n");
}

/** `**webapp** · dev · helm.v4.Chart · 1.0.1 → 2.0.0: replaced Deployment.apps web/x; updated Service web/x, …` */
function oneLine(chart: ChartReport): string {
  const groups = new Map<string, string[]>();
  for (const object of chart.objects) {
    const label = isReal(object) ? object.action : "noise";
    (groups.get(label) ?? groups.set(label, []).get(label))?.push(object.display);
  }
  const parts = [...groups].map(([label, names]) => `${label} ${names.map((name) => `\`${name}\``).join(", ")}`);
  const versions =
    chart.from?.version === chart.to?.version ? (chart.to?.version ?? "") : `${chart.from?.version ?? "(absent)"} → ${chart.to?.version ?? "(removed)"}`;
  const line = `- **${escapeHtml(chart.chart)}** · ${chart.stack} · ${ENGINES[chart.engine].display} · ${versions}: ${describeCounts(countActions(chart))}${parts.length === 0 ? "" : ` — ${parts.join("; ")}`}`;
  // Folded as far as it goes, a chart still names its contract and policy findings: they are what a reviewer must not miss.
  const kept = [
    ...chart.contract.filter((change) => change.kind !== "default").map((change) => `values contract ${change.kind} \`${change.path}\``),
    ...chart.findings.added.map((found) => `policy ${found.severity} added: ${found.rule} ${otherChart(found, chart)}\`${found.object ?? ""}\``),
    ...chart.findings.resolved.map((found) => `policy resolved: ${found.rule} ${otherChart(found, chart)}\`${found.object ?? ""}\``),
  ];
  return [line, ...kept.map((item) => `  - ${escapeHtml(item)}`)].join("\n");
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
