import { describeCounts } from "../diff/report.js";
import { ENGINES } from "../engine/records.js";
import { esc, page } from "./html-page.js";
import { planStatus, type PlanReport } from "./plan.js";
import { shortDigest } from "./tables.js";

// The HTML reports: the plan here, the diff and upgrade review page in
// diff-html.ts, both in the frame of html-page.ts.

export { diffHtml, upgradeHtml } from "./diff-html.js";

export function planHtml(report: PlanReport): string {
  const rows = report.charts.map((row) => {
    const state = row.problems.length > 0 ? "problem" : row.outdated?.outdated ? "outdated" : "current";
    const next =
      row.next === undefined
        ? ""
        : `<ul>${Object.entries(row.next.stacks)
            .map(([stack, counts]) => `<li>${esc(`${stack}: ${describeCounts(counts)}`)}</li>`)
            .join("")}</ul>`;
    const digest = `<code>${esc(row.digest === undefined ? "-" : shortDigest(row.digest))}</code>`;
    const engine = esc(row.engine === undefined ? "-" : ENGINES[row.engine].display);
    const status = `${esc(planStatus(row))}${row.next === undefined ? "" : ` <span class="next">→ ${esc(row.next.version)}</span>`}${next}`;
    const cells = [esc(row.namespace), esc(row.range), esc(row.pinned ?? "-"), digest, row.verified ? "yes" : "no", engine, status];
    return `<tr class="${state}"><th scope="row">${esc(row.chart)}</th>${cells.map((cell) => `<td>${cell}</td>`).join("")}</tr>`;
  });
  const verified = report.charts.filter((row) => row.verified).length;
  const table = `<table><caption>Charts</caption><thead><tr>${["chart", "namespace", "range", "pinned", "digest", "verified", "engine", "status"].map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
  return page(
    "chartroom plan",
    `<p class="summary">${esc(`${report.charts.length} charts, ${verified} verified against charts.lock.json`)}</p>`,
    `<main id="report">${table}</main>`,
  );
}
