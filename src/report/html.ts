import type { EngineName } from "../model/engine.js";
import { describeImageChange } from "./images.js";
import type { ChartReport, DiffReport, ObjectReport, ReportedChange } from "../diff/model.js";
import type { Finding } from "../model/findings.js";
import { countActions, describeCounts, describeSchemaChanges, isBookkeepingOnly, isReal } from "../diff/report.js";
import { ENGINES } from "../engine/records.js";
import { liveLines } from "./live-text.js";
import { otherChart, summaryLine } from "./diff-text.js";
import { formatValue } from "./format-value.js";
import { planStatus, type PlanReport } from "./plan.js";
import { shortDigest } from "./tables.js";
import type { UpgradeReport } from "./upgrade.js";

// One self-contained page per report: styles and the filter script inline,
// no external asset, nothing fetched. Every text from a report is escaped.

export function diffHtml(report: DiffReport): string {
  return page("chartroom diff", `<p class="summary">${esc(summaryLine(report))}</p>${countsTable(report.charts)}`, diffBody(report));
}

export function upgradeHtml(report: UpgradeReport): string {
  const headline =
    report.moves.length === 0
      ? "every chart is on the highest version its range allows"
      : `${report.written ? "upgraded" : "would upgrade"}: ${report.moves.map((m) => `${m.chart} ${m.from} → ${m.to}`).join(", ")}`;
  const notes = report.notes.length === 0 ? "" : `<ul class="notes">${report.notes.map((note) => `<li>${esc(note)}</li>`).join("")}</ul>`;
  return page("chartroom upgrade", `<p class="summary">${esc(headline)}</p>${notes}${countsTable(report.diff.charts)}`, diffBody(report.diff));
}

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
    false,
  );
}

const CLASSES = ["add", "delete", "update", "replace", "rename", "noise"] as const;
const CLASS_LABEL: Record<(typeof CLASSES)[number], string> = {
  add: "added",
  delete: "deleted",
  update: "updated",
  replace: "replaced",
  rename: "renamed",
  noise: "noise only",
};

function objectClass(object: ObjectReport): (typeof CLASSES)[number] {
  return isReal(object) ? object.action : "noise";
}

function diffBody(report: DiffReport): string {
  const charts = [...new Set(report.charts.map((chart) => chart.chart))];
  const stacks = [...new Set(report.charts.map((chart) => chart.stack))];
  const filters = `<nav aria-label="Filters"><form id="filters"><fieldset><legend>Change class</legend>${CLASSES.map((name) => `<label><input type="checkbox" name="class" value="${name}" checked> ${CLASS_LABEL[name]}</label>`).join(" ")}</fieldset>
<label for="filter-chart">Chart</label> <select id="filter-chart" name="chart"><option value="">all charts</option>${charts.map((chart) => `<option>${esc(chart)}</option>`).join("")}</select>
<label for="filter-stack">Stack</label> <select id="filter-stack" name="stack"><option value="">all stacks</option>${stacks.map((stack) => `<option>${esc(stack)}</option>`).join("")}</select></form></nav>`;
  const sections = report.charts.map(chartSection).join("\n");
  return `${filters}<main id="report">${sections || "<p>No charts compared.</p>"}</main>`;
}

function chartSection(chart: ChartReport): string {
  const versions =
    chart.from?.version === chart.to?.version ? (chart.to?.version ?? "") : `${chart.from?.version ?? "(absent)"} → ${chart.to?.version ?? "(removed)"}`;
  const heading = `${chart.chart} · stack ${chart.stack} · ${ENGINES[chart.engine].display} · ${versions}`;
  const contract =
    chart.contract.length === 0
      ? ""
      : `<section class="contract" aria-label="Values contract of ${esc(chart.chart)}"><h3>Values contract</h3><ul>${chart.contract.map((change) => `<li class="${change.kind}"><code>${esc(change.path)}</code>: ${esc(change.detail)}${change.hint === undefined ? "" : ` <em>${esc(change.hint)}</em>`}</li>`).join("")}</ul></section>`;
  const images =
    chart.images.length === 0
      ? ""
      : `<section class="images" aria-label="Images of ${esc(chart.chart)}"><h3>Images</h3><ul>${chart.images.map((change) => `<li class="${change.change}"><code>${esc(describeImageChange(change))}</code></li>`).join("")}</ul></section>`;
  const noise: string[] = [];
  if (chart.bookkeeping.objects > 0) noise.push(`${chart.bookkeeping.objects} object(s) with bookkeeping changes (${chart.bookkeeping.fields.join(", ")})`);
  if (chart.unstable.paths.length > 0) noise.push(`changes on every render: ${chart.unstable.paths.join(", ")}`);
  if (chart.unstable.consequence !== undefined) noise.push(chart.unstable.consequence);
  const notes = [...chart.notes, ...noise];
  const objects =
    chart.objects.length === 0 ? `<p class="empty">No object changes.</p>` : chart.objects.map((object) => objectArticle(object, chart)).join("\n");
  const { added, resolved } = chart.findings;
  const finding = (found: Finding, sign: string) => {
    const hint = found.hint === undefined ? "" : ` <em>${esc(found.hint)}</em>`;
    const where = `${esc(otherChart(found, chart))}${esc(found.object ?? "")} <code>${esc(found.path ?? "")}</code>`;
    return `<li class="${found.severity}">${sign} <strong>${esc(found.severity)}</strong> <code>${esc(found.rule)}</code> ${where}: ${esc(found.message)}${hint}</li>`;
  };
  const findings =
    added.length + resolved.length === 0
      ? ""
      : `<section class="findings" aria-label="Policy findings of ${esc(chart.chart)}"><h3>Policy findings</h3><ul>${added.map((found) => finding(found, "added:")).join("")}${resolved.map((found) => finding(found, "resolved:")).join("")}</ul></section>`;
  const counts = `<p class="counts">${esc(describeCounts(countActions(chart)))}</p>`;
  const noted = notes.length === 0 ? "" : `<ul class="notes">${notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>`;
  const attributes = `data-chart="${esc(chart.chart)}" data-stack="${esc(chart.stack)}" aria-label="${esc(heading)}"`;
  const live =
    chart.live === undefined
      ? ""
      : `<section class="live" aria-label="Live review of ${esc(chart.chart)}"><h3>Live review</h3><pre>${esc(liveLines(chart.live, (text) => text).join("\n"))}</pre></section>`;
  return `<section class="chart" ${attributes}><h2>${esc(heading)}</h2>${counts}${images}${contract}${findings}${live}${objects}${noted}</section>`;
}

function objectArticle(object: ObjectReport, chart: ChartReport): string {
  const kind = objectClass(object);
  const label = kind === "noise" ? (isBookkeepingOnly(object) ? "bookkeeping only" : "changes on every render only") : CLASS_LABEL[kind];
  const renamed = object.renamedFrom === undefined ? "" : ` <span class="from">from ${esc(object.renamedFrom.display)}</span>`;
  const rows = object.changes.map(changeRow).join("");
  const changes =
    rows === ""
      ? ""
      : `<table class="changes"><thead><tr><th scope="col">field</th><th scope="col">before</th><th scope="col">after</th><th scope="col">note</th></tr></thead><tbody>${rows}</tbody></table>`;
  const moved =
    object.moved === undefined
      ? ""
      : `<div class="replacement" role="note"><strong>Moved ${esc(object.action === "add" ? `here from chart ${object.moved.from}` : `to chart ${object.moved.to}`)}.</strong> ${esc(object.moved.consequence)}</div>`;
  const schema = (object.schemaChanges ?? []).map((summary) => `<p class="schema">${esc(describeSchemaChanges(summary))}</p>`).join("");
  const body =
    object.body === undefined
      ? ""
      : `<details><summary>${object.action === "add" ? "the new object" : "the deleted object"}</summary><pre>${esc(JSON.stringify(object.body, null, 2))}</pre></details>`;
  const replacement = object.replacement === undefined ? "" : replacementNote(object.replacement, chart.engine);
  return `<article class="object ${kind}" data-class="${kind}"><h3><span class="badge ${kind}">${esc(label)}</span> ${esc(object.display)}${renamed} <span class="step">engine: ${esc(object.step)}</span></h3>${object.source === undefined ? "" : `<p class="source">${esc(object.source)}</p>`}${replacement}${moved}${changes}${schema}${body}</article>`;
}

function changeRow(change: ReportedChange): string {
  const tags = change.tags.map((tag) => (tag === "unstable" ? "changes on every render" : tag)).join(", ");
  const cell = (value: unknown, present: boolean) => (present ? `<pre>${esc(formatValue(value).join("\n"))}</pre>` : "");
  if (change.secret !== undefined) {
    const bytes = (value: unknown) => (value as { bytes?: number } | undefined)?.bytes ?? 0;
    const side = (value: unknown) => (value === undefined ? "" : `hidden, ${bytes(value)} bytes`);
    return `<tr class="secret"><th scope="row"><code>${esc(change.path)}</code></th><td>${side(change.before)}</td><td>${side(change.after)}</td><td>secret ${esc(change.secret)}${tags === "" ? "" : `; ${esc(tags)}`}</td></tr>`;
  }
  return `<tr class="${change.tags.includes("immutable") || change.tags.includes("replaces") ? "forces" : ""}"><th scope="row"><code>${esc(change.path)}</code></th><td>${cell(change.before, change.op !== "add")}</td><td>${cell(change.after, change.op !== "remove")}</td><td>${esc(tags)}</td></tr>`;
}

function countsTable(charts: ChartReport[]): string {
  if (charts.length === 0) return "";
  const rows = charts.map((chart) => {
    const counts = countActions(chart);
    return `<tr><th scope="row">${esc(chart.chart)}</th><td>${esc(chart.stack)}</td><td>${esc(chart.from?.version ?? "—")}</td><td>${esc(chart.to?.version ?? "—")}</td>${(["add", "delete", "update", "replace", "rename"] as const).map((a) => `<td>${counts[a]}</td>`).join("")}</tr>`;
  });
  return `<table class="counts"><caption>Per chart and stack</caption><thead><tr>${["chart", "stack", "from", "to", "added", "deleted", "updated", "replaced", "renamed"].map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function page(title: string, header: string, body: string, filters = true): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${esc(title)}</h1>${header}</header>
${body}
${filters ? `<script>${SCRIPT}</script>` : ""}
</body>
</html>
`;
}

function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem 1.5rem;color:#1b1f24;background:#fff}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.5rem 0 .3rem;border-bottom:1px solid #d0d7de;padding-bottom:.2rem}h3{font-size:1rem;margin:.6rem 0 .2rem}
table{border-collapse:collapse;margin:.5rem 0;width:100%}th,td{border:1px solid #d0d7de;padding:.2rem .45rem;text-align:left;vertical-align:top}caption{text-align:left;font-weight:600;padding:.2rem 0}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font-size:.85rem}code{font-size:.85rem}
nav form{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center;background:#f6f8fa;border:1px solid #d0d7de;padding:.5rem .75rem;margin:1rem 0}
fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem .75rem}legend{font-weight:600;float:left;margin-right:.5rem}
.object{border-left:4px solid #8c959f;padding:.1rem .75rem;margin:.75rem 0}
.object.add{border-color:#1a7f37}.object.delete,.object.replace{border-color:#cf222e}.object.update,.object.rename{border-color:#9a6700}
.badge{display:inline-block;font-size:.75rem;font-weight:600;padding:0 .4rem;border-radius:.6rem;background:#eaeef2;color:#1b1f24}
.badge.add{background:#dafbe1;color:#116329}.badge.delete,.badge.replace{background:#ffebe9;color:#a40e26}.badge.update,.badge.rename{background:#fff8c5;color:#6f4700}
.step{font-weight:400;font-size:.85rem;color:#57606a}.source{color:#57606a;font-size:.85rem;margin:0}
.replacement{background:#ffebe9;border:1px solid #cf222e;color:#82071e;padding:.4rem .6rem;margin:.4rem 0}
tr.forces th,tr.forces td{background:#fff5f5}tr.problem th,tr.problem td{background:#ffebe9}tr.outdated th,tr.outdated td{background:#fff8c5}
.notes{color:#57606a;font-size:.9rem}.summary{font-weight:600}[hidden]{display:none!important}
`;

const SCRIPT = `
(function(){
  var form=document.getElementById("filters");if(!form)return;
  function apply(){
    var classes=[].slice.call(form.querySelectorAll("input[name=class]:checked")).map(function(i){return i.value});
    var chart=form.elements.chart.value,stack=form.elements.stack.value;
    [].forEach.call(document.querySelectorAll("section.chart"),function(s){
      var show=(!chart||s.dataset.chart===chart)&&(!stack||s.dataset.stack===stack);
      s.hidden=!show;
      [].forEach.call(s.querySelectorAll("article.object"),function(a){a.hidden=classes.indexOf(a.dataset.class)<0});
    });
  }
  form.addEventListener("change",apply);apply();
})();
`;

function replacementNote(replacement: NonNullable<ObjectReport["replacement"]>, engine: EngineName): string {
  const fields = esc(replacement.fields.join(", "));
  return `<div class="replacement" role="note"><strong>Replaced for ${fields}.</strong> ${esc(replacement.consequences[engine])}<br><small>${esc(replacement.consequences[ENGINES[engine].other])}</small></div>`;
}
