import { diffWordsWithSpace } from "diff";
import { stringify } from "yaml";
import type { ChartReport, DiffReport, LineDiff, ObjectReport, ReportedChange } from "../diff/model.js";
import { countActions, describeCounts, describeSchemaChanges, isBookkeepingOnly, isReal } from "../diff/report.js";
import { ENGINES } from "../engine/records.js";
import type { EngineName } from "../model/engine.js";
import type { Finding } from "../model/findings.js";
import { otherChart, stepNote, summaryLine } from "./diff-text.js";
import { formatValue } from "./format-value.js";
import { esc, page } from "./html-page.js";
import { describeImageChange } from "./images.js";
import { liveLines } from "./live-text.js";
import type { UpgradeReport } from "./upgrade.js";

// The review page: a table of contents per chart and stack with counts, an
// anchor per chart and object, each object a <details> (open or shut without
// any script), each change as red and green lines with the words that
// changed marked, noise folded apart, what the engine does said once, and
// filters that the script shows (without it, the contents and the anchors
// are the way around). Its size is bounded by object, not by value: see
// SHOWN_LINES.

/** Lines shown of one value (a side of a change, a hunk's lines) and of a new or deleted object: the JSON report has the rest. */
export const SHOWN_LINES = { value: 200, object: 300 } as const;
// Past this many objects in the whole report, objects start folded: the page is a list to pick from.
const OPEN_UP_TO = 40;

export function diffHtml(report: DiffReport): string {
  return page("chartroom diff", `<p class="summary">${esc(summaryLine(report))}</p>`, diffBody(report), SCRIPT);
}

export function upgradeHtml(report: UpgradeReport): string {
  const headline =
    report.moves.length === 0
      ? "every chart is on the highest version its range allows"
      : `${report.written ? "upgraded" : "would upgrade"}: ${report.moves.map((m) => `${m.chart} ${m.from} → ${m.to}`).join(", ")}`;
  const notes = report.notes.length === 0 ? "" : `<ul class="notes">${report.notes.map((note) => `<li>${esc(note)}</li>`).join("")}</ul>`;
  return page("chartroom upgrade", `<p class="summary">${esc(headline)}</p>${notes}`, diffBody(report.diff), SCRIPT);
}

const CLASSES = ["add", "delete", "update", "replace", "rename", "noise"] as const;
type Class = (typeof CLASSES)[number];
const CLASS_LABEL: Record<Class, string> = { add: "added", delete: "deleted", update: "updated", replace: "replaced", rename: "renamed", noise: "noise only" };

function objectClass(object: ObjectReport): Class {
  return isReal(object) ? object.action : "noise";
}

/** An id fit for an anchor, and the same for the same chart, stack and object on every run. */
function anchor(...parts: string[]): string {
  return parts.map((part) => part.replace(/[^A-Za-z0-9_.-]+/g, "-")).join("--");
}

function diffBody(report: DiffReport): string {
  const open = report.charts.reduce((sum, chart) => sum + chart.objects.length, 0) <= OPEN_UP_TO;
  return `${contents(report.charts)}${filters(report.charts)}<main id="report">${report.charts.map((chart) => chartSection(chart, open)).join("\n") || "<p>No charts compared.</p>"}</main>`;
}

function contents(charts: ChartReport[]): string {
  if (charts.length === 0) return "";
  const items = charts.map((chart) => {
    const findings = chart.findings.added.length + chart.findings.resolved.length;
    const extra = [
      ...(chart.contract.some((change) => change.kind !== "default") ? ["values contract"] : []),
      ...(findings > 0 ? [`${findings} policy finding(s)`] : []),
      ...(chart.live !== undefined ? ["live review"] : []),
    ];
    const summary = `${versions(chart)}: ${describeCounts(countActions(chart))}${extra.length === 0 ? "" : `; ${extra.join(", ")}`}`;
    const link = `<a href="#${anchor("chart", chart.chart, chart.stack)}">${esc(`${chart.chart} · ${chart.stack}`)}</a>`;
    return `<li>${link} <span class="muted">${esc(summary)}</span></li>`;
  });
  return `<nav class="toc" aria-label="Contents"><h2>Contents</h2><ol>${items.join("")}</ol></nav>`;
}

/** Shown by the script: without it a form that does nothing would only mislead. */
function filters(charts: ChartReport[]): string {
  const names = [...new Set(charts.map((chart) => chart.chart))];
  const stacks = [...new Set(charts.map((chart) => chart.stack))];
  const options = (values: string[], all: string) => `<option value="">${all}</option>${values.map((value) => `<option>${esc(value)}</option>`).join("")}`;
  return `<form id="filters" aria-label="Filters" hidden><fieldset><legend>Change class</legend>${CLASSES.map((name) => `<label><input type="checkbox" name="class" value="${name}" checked> ${CLASS_LABEL[name]}</label>`).join(" ")}</fieldset>
<label for="filter-chart">Chart</label> <select id="filter-chart" name="chart">${options(names, "all charts")}</select>
<label for="filter-stack">Stack</label> <select id="filter-stack" name="stack">${options(stacks, "all stacks")}</select>
<button type="button" id="expand">Open every object</button> <button type="button" id="collapse">Close every object</button></form>`;
}

function versions(chart: ChartReport): string {
  return chart.from?.version === chart.to?.version ? (chart.to?.version ?? "") : `${chart.from?.version ?? "(absent)"} → ${chart.to?.version ?? "(removed)"}`;
}

function chartSection(chart: ChartReport, open: boolean): string {
  const id = anchor("chart", chart.chart, chart.stack);
  const heading = `${chart.chart} · stack ${chart.stack} · ${ENGINES[chart.engine].display} · ${versions(chart)}`;
  const real = chart.objects.filter(isReal);
  const noise = chart.objects.filter((object) => !isReal(object));
  const objects =
    chart.objects.length === 0
      ? `<p class="empty">No object changes.</p>`
      : `${real.map((object) => objectDetails(object, chart, open)).join("\n")}${
          noise.length === 0
            ? ""
            : `<details class="folded"><summary>${noise.length} object(s) with only bookkeeping or every-render changes</summary>${noise.map((object) => objectDetails(object, chart, false)).join("\n")}</details>`
        }`;
  const parts = [
    `<p class="counts">${esc(describeCounts(countActions(chart)))}</p>`,
    images(chart),
    contract(chart),
    findings(chart),
    live(chart),
    objects,
    notes(chart),
  ];
  return `<section class="chart" id="${id}" data-chart="${esc(chart.chart)}" data-stack="${esc(chart.stack)}" aria-labelledby="${id}-h"><h2 id="${id}-h">${esc(heading)}<a class="anchor" href="#${id}" aria-label="Link to ${esc(`${chart.chart} · ${chart.stack}`)}">#</a></h2>${parts.join("")}</section>`;
}

function images(chart: ChartReport): string {
  if (chart.images.length === 0) return "";
  return `<section class="images" aria-label="Images of ${esc(`${chart.chart} · ${chart.stack}`)}"><h3>Images</h3><ul>${chart.images.map((change) => `<li class="${change.change}"><code>${esc(describeImageChange(change))}</code></li>`).join("")}</ul></section>`;
}

function contract(chart: ChartReport): string {
  if (chart.contract.length === 0) return "";
  const items = chart.contract.map(
    (change) =>
      `<li class="${change.kind}"><code>${esc(change.path)}</code>: ${esc(change.detail)}${change.hint === undefined ? "" : ` <em>${esc(change.hint)}</em>`}</li>`,
  );
  return `<section class="contract" aria-label="Values contract of ${esc(`${chart.chart} · ${chart.stack}`)}"><h3>Values contract</h3><ul>${items.join("")}</ul></section>`;
}

function findings(chart: ChartReport): string {
  const { added, resolved } = chart.findings;
  if (added.length + resolved.length === 0) return "";
  const item = (found: Finding, sign: string) => {
    const hint = found.hint === undefined ? "" : ` <em>${esc(found.hint)}</em>`;
    const where = `${esc(otherChart(found, chart))}${esc(found.object ?? "")} <code>${esc(found.path ?? "")}</code>`;
    return `<li class="${found.severity}">${sign} <strong>${esc(found.severity)}</strong> <code>${esc(found.rule)}</code> ${where}: ${esc(found.message)}${hint}</li>`;
  };
  return `<section class="findings" aria-label="Policy findings of ${esc(`${chart.chart} · ${chart.stack}`)}"><h3>Policy findings</h3><ul>${added.map((found) => item(found, "added:")).join("")}${resolved.map((found) => item(found, "resolved:")).join("")}</ul></section>`;
}

function live(chart: ChartReport): string {
  if (chart.live === undefined) return "";
  return `<section class="live" aria-label="Live review of ${esc(`${chart.chart} · ${chart.stack}`)}"><h3>Live review</h3><pre>${esc(liveLines(chart.live, (text) => text).join("\n"))}</pre></section>`;
}

function notes(chart: ChartReport): string {
  const lines = [...chart.notes];
  if (chart.bookkeeping.objects > 0)
    lines.push(`${chart.bookkeeping.objects} object(s) with bookkeeping changes hidden (${chart.bookkeeping.fields.join(", ")})`);
  if (chart.unstable.paths.length > 0) lines.push(`changes on every render: ${chart.unstable.paths.join(", ")}`);
  if (chart.unstable.consequence !== undefined) lines.push(chart.unstable.consequence);
  for (const item of chart.apart) lines.push(`not deployed by ${ENGINES[chart.engine].display}: ${item.display}: ${item.reason}`);
  return lines.length === 0 ? "" : `<ul class="notes">${lines.map((line) => `<li>${esc(line)}</li>`).join("")}</ul>`;
}

function objectDetails(object: ObjectReport, chart: ChartReport, open: boolean): string {
  const kind = objectClass(object);
  const label = kind === "noise" ? (isBookkeepingOnly(object) ? "bookkeeping only" : "changes on every render only") : CLASS_LABEL[kind];
  const id = anchor("object", chart.chart, chart.stack, object.id);
  const renamed = object.renamedFrom === undefined ? "" : ` <span class="source">from ${esc(object.renamedFrom.display)}</span>`;
  const source = object.source === undefined ? "" : `<span class="source">${esc(object.source)}</span>`;
  const summary = `<summary><span class="badge ${kind}">${esc(label)}</span> ${esc(object.display)}${renamed}${source}</summary>`;
  const schema = (object.schemaChanges ?? []).map((item) => `<p class="schema">${esc(describeSchemaChanges(item))}</p>`).join("");
  const kept = (object.unchangedSecrets ?? [])
    .map((item) => `<p class="muted"><code>${esc(item.path)}</code>: secret unchanged (${item.bytes} bytes)</p>`)
    .join("");
  const link = `<p class="muted"><a class="anchor" href="#${id}">link to this object</a></p>`;
  return `<details class="object ${kind}" id="${id}" data-class="${kind}"${open ? " open" : ""}>${summary}${engineSentence(object, chart.engine)}${object.changes.map(changeBlock).join("")}${schema}${kept}${body(object)}${link}</details>`;
}

/** What the engine does with the object, said once: the class above never contradicts it. */
function engineSentence(object: ObjectReport, engine: EngineName): string {
  const display = ENGINES[engine].display;
  if (object.replacement !== undefined) {
    const fields = esc(object.replacement.fields.join(", "));
    return `<div class="replacement" role="note"><strong>Replaced for ${fields}.</strong> ${esc(object.replacement.consequences[engine])}<br><small>${esc(object.replacement.consequences[ENGINES[engine].other])}</small></div>`;
  }
  if (object.moved !== undefined) {
    const where = object.action === "add" ? `here from chart ${object.moved.from}` : `to chart ${object.moved.to}`;
    return `<div class="replacement" role="note"><strong>Moved ${esc(where)}.</strong> ${esc(object.moved.consequence)}</div>`;
  }
  const note = stepNote(object, engine);
  if (note !== undefined) return `<p class="engine warn" role="note">${esc(note)}</p>`;
  const sentence =
    object.action === "add"
      ? `${display} creates it.`
      : object.action === "delete"
        ? `${display} deletes it.`
        : object.action === "rename"
          ? `${display} creates it under its new name and deletes the old one.`
          : object.step === "replace"
            ? `${display} replaces it (its changes happen on every render, so at every run).`
            : `${display} updates it in place.`;
  return `<p class="engine">${esc(sentence)}</p>`;
}

function changeBlock(change: ReportedChange): string {
  const tags = change.tags.map((tag) => (tag === "unstable" ? "changes on every render" : tag === "replaces" ? "replaces the object" : tag));
  const head = `<code class="path">${esc(change.path)}</code>${tags.length === 0 ? "" : `<span class="tags">${esc(tags.join(", "))}</span>`}`;
  if (change.secret !== undefined) {
    const bytes = (value: unknown) => (value as { bytes?: number } | undefined)?.bytes ?? 0;
    const sizes =
      change.secret === "changed" ? `${bytes(change.before)} → ${bytes(change.after)}` : `${bytes(change.secret === "added" ? change.after : change.before)}`;
    return `<div class="change secret">${head}: secret ${esc(change.secret)}, hidden, ${sizes} bytes</div>`;
  }
  if (change.op === "reorder") return `<div class="change">${head}: order ${esc(JSON.stringify(change.before))} → ${esc(JSON.stringify(change.after))}</div>`;
  const lines = change.lines === undefined ? pairLines(change) : hunkLines(change.lines);
  const title =
    change.lines === undefined
      ? ""
      : ` <span class="tags">${esc(`${change.lines.form === "json" ? "the JSON in it" : change.lines.form === "list" ? "one element a line" : "line by line"}: +${change.lines.added} -${change.lines.removed}`)}</span>`;
  return `<div class="change">${head}${title}<pre class="diff">${lines.join("")}</pre></div>`;
}

type Line = { sign: " " | "-" | "+" | "@"; text: string };

/** A before/after pair as red and green lines. */
function pairLines(change: ReportedChange): string[] {
  const before = change.op === "add" ? [] : capped(formatValue(change.before), moreText);
  const after = change.op === "remove" ? [] : capped(formatValue(change.after), moreText);
  return marked([...before.map((text): Line => ({ sign: "-", text })), ...after.map((text): Line => ({ sign: "+", text }))]);
}

function hunkLines(lines: LineDiff): string[] {
  const out: Line[] = [];
  for (const hunk of lines.hunks) {
    out.push({ sign: "@", text: `@@ -${hunk.before.start},${hunk.before.lines} +${hunk.after.start},${hunk.after.lines} @@` });
    for (const line of hunk.lines) out.push({ sign: (line[0] ?? " ") as Line["sign"], text: line.slice(1) });
  }
  return marked(capped(out, (count): Line => ({ sign: "@", text: moreText(count) })));
}

function moreText(count: number): string {
  return `… ${count} more line(s): --format json has them all`;
}

/** At most SHOWN_LINES.value items, then one saying how many more. */
function capped<T>(items: T[], more: (count: number) => T): T[] {
  return items.length <= SHOWN_LINES.value ? items : [...items.slice(0, SHOWN_LINES.value), more(items.length - SHOWN_LINES.value)];
}

/**
 * Lines as spans, a removed run and the added run after it compared word by
 * word, line for line, so that one changed word in a long line shows as that
 * word.
 */
function marked(lines: Line[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const line = lines[i] as Line;
    if (line.sign !== "-") {
      out.push(span(line, esc(line.text)));
      i++;
      continue;
    }
    const removed: Line[] = [];
    while (lines[i]?.sign === "-") removed.push(lines[i++] as Line);
    const added: Line[] = [];
    while (lines[i]?.sign === "+") added.push(lines[i++] as Line);
    const pairs = Math.min(removed.length, added.length);
    const words = Array.from({ length: pairs }, (_, k) => wordMarks((removed[k] as Line).text, (added[k] as Line).text));
    out.push(...removed.map((item, k) => span(item, words[k]?.before ?? esc(item.text))));
    out.push(...added.map((item, k) => span(item, words[k]?.after ?? esc(item.text))));
  }
  return out;
}

function span(line: Line, html: string): string {
  const kind = line.sign === "-" ? "del" : line.sign === "+" ? "add" : line.sign === "@" ? "hunk" : "ctx";
  const sign = line.sign === "@" ? "" : `${line.sign} `;
  return `<span class="${kind}">${sign}${html}</span>`;
}

// Long lines are marked only when short enough to compare cheaply.
const WORD_DIFF_LIMIT = 2000;

function wordMarks(before: string, after: string): { before: string; after: string } | undefined {
  if (before.length > WORD_DIFF_LIMIT || after.length > WORD_DIFF_LIMIT) return undefined;
  let was = "";
  let now = "";
  for (const part of diffWordsWithSpace(before, after)) {
    if (part.added) now += `<ins>${esc(part.value)}</ins>`;
    else if (part.removed) was += `<del>${esc(part.value)}</del>`;
    else {
      was += esc(part.value);
      now += esc(part.value);
    }
  }
  return { before: was, after: now };
}

function body(object: ObjectReport): string {
  if (object.body === undefined) return "";
  const lines = stringify(object.body, { lineWidth: 0 }).trimEnd().split("\n");
  const sign = object.action === "add" ? "+" : "-";
  const shown = lines.slice(0, SHOWN_LINES.object).map((text) => span({ sign, text }, esc(text)));
  const more = lines.length > SHOWN_LINES.object ? `<p class="cut">${moreText(lines.length - SHOWN_LINES.object)}</p>` : "";
  return `<details><summary>${object.action === "add" ? "the new object" : "the deleted object"}</summary><pre class="diff">${shown.join("")}</pre>${more}</details>`;
}

const SCRIPT = `
(function(){
  var form=document.getElementById("filters");if(!form)return;
  form.hidden=false;
  function apply(){
    var classes=[].slice.call(form.querySelectorAll("input[name=class]:checked")).map(function(i){return i.value});
    var chart=form.elements.chart.value,stack=form.elements.stack.value;
    [].forEach.call(document.querySelectorAll("section.chart"),function(s){
      s.hidden=!((!chart||s.dataset.chart===chart)&&(!stack||s.dataset.stack===stack));
      [].forEach.call(s.querySelectorAll("details.object"),function(d){d.hidden=classes.indexOf(d.dataset.class)<0});
    });
  }
  function every(open){[].forEach.call(document.querySelectorAll("details.object,details.folded"),function(d){d.open=open})}
  form.addEventListener("change",apply);
  document.getElementById("expand").addEventListener("click",function(){every(true)});
  document.getElementById("collapse").addEventListener("click",function(){every(false)});
  apply();
  if(location.hash){var target=document.getElementById(location.hash.slice(1));if(target&&target.tagName==="DETAILS"){target.open=true;target.scrollIntoView()}}
})();
`;
