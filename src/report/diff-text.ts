import { stringify } from "yaml";
import { formatValue } from "./format-value.js";
import { hunkLines, hunksTitle } from "./hunks.js";
import type { ChartReport, DiffReport, ObjectReport, ReportedChange } from "../diff/model.js";
import { ENGINES } from "../engine/records.js";
import type { EngineName } from "../model/engine.js";
import type { Finding } from "../model/findings.js";
import { describeSchemaChanges, isBookkeepingOnly, isReal } from "../diff/report.js";

import { liveLines } from "./live-text.js";
import { describeImageChange } from "./images.js";
import type { Paint } from "./paint.js";
export type { Paint };

const MARK: Record<ObjectReport["action"], string> = { add: "+", delete: "-", update: "~", replace: "!", rename: ">" };

/** The report for a person: one block per chart and stack, hunks per object. */
export function formatText(report: DiffReport, paint: Paint = (text) => text): string {
  const blocks = report.charts.map((chart) => chartBlock(chart, paint));
  return [...blocks, summaryLine(report)].join("\n\n");
}

export function chartHeading(chart: ChartReport): string {
  const from = chart.from?.version ?? "(absent)";
  const to = chart.to?.version ?? "(removed)";
  const versions = from === to ? `${to}` : `${from} → ${to}`;
  const helm = chart.helm === undefined ? "" : ` · helm ${chart.helm}`;
  const engineHelm = chart.engineHelm === undefined ? "" : ` · engine: ${chart.engineHelm}`;
  return `${chart.chart} · stack ${chart.stack} · ${ENGINES[chart.engine].display} · ${versions}${helm}${engineHelm}`;
}

export function chartBlock(chart: ChartReport, paint: Paint): string {
  const lines = [paint(chartHeading(chart), "bold")];
  if (chart.objects.length === 0) lines.push("  no object changes");
  for (const object of chart.objects) lines.push(...objectLines(object, chart.engine, paint));
  lines.push(...chartTail(chart, paint, findingLines(chart, paint)));
  return lines.join("\n");
}

/** What a chart's block says after its objects: images, the values contract, the findings given, notes, the live review, what is not diffed, noise. */
export function chartTail(chart: ChartReport, paint: Paint, findings: string[]): string[] {
  const lines: string[] = [];
  if (chart.images.length > 0) {
    lines.push(paint("  images:", "bold"));
    for (const change of chart.images)
      lines.push(paint(`    ${describeImageChange(change)}`, change.change === "removed" ? "red" : change.change === "added" ? "green" : "yellow"));
  }
  lines.push(...contractLines(chart, paint));
  lines.push(...findings);
  for (const note of chart.notes) lines.push(`  note: ${note}`);
  if (chart.live !== undefined) lines.push(...liveLines(chart.live, paint));
  if (chart.apart.length > 0) {
    lines.push(paint(`  not deployed by ${ENGINES[chart.engine].display} (not diffed):`, "dim"));
    for (const item of chart.apart)
      lines.push(
        paint(
          `    ${item.display}: ${item.reason}${item.change === "same" ? "" : ` (${item.change === "add" ? "new" : item.change === "delete" ? "gone" : "changed"} in this change)`}`,
          "dim",
        ),
      );
  }
  if (chart.bookkeeping.objects > 0) {
    lines.push(
      paint(
        `  ${chart.bookkeeping.objects} object(s) with bookkeeping changes hidden (${chart.bookkeeping.fields.join(", ")}); --show-bookkeeping shows them`,
        "dim",
      ),
    );
  }
  if (chart.unstable.paths.length > 0) {
    lines.push(paint(`  changes on every render (not counted): ${chart.unstable.paths.join(", ")}`, "dim"));
    if (chart.unstable.consequence !== undefined) lines.push(paint(`    ${chart.unstable.consequence}`, "yellow"));
    lines.push(paint("    hint: the chart generates these (randAlphaNum, genCA, now…); pin the value in values or an existing Secret", "dim"));
  }
  return lines;
}

function findingLines(chart: ChartReport, paint: Paint): string[] {
  const { added, resolved } = chart.findings;
  if (added.length === 0 && resolved.length === 0) return [];
  const line = (sign: string, found: Finding, colour: "red" | "yellow" | "green" | "dim") =>
    paint(
      `    ${sign} ${found.severity} ${found.rule}: ${otherChart(found, chart)}${found.object ?? ""}${found.path === undefined ? "" : ` ${found.path}`}: ${found.message}`,
      colour,
    );
  return [
    paint("  policy findings this change:", "bold"),
    ...added.map((found) => line("+", found, found.severity === "error" ? "red" : found.severity === "warning" ? "yellow" : "dim")),
    ...resolved.map((found) => line("-", found, "green")),
  ];
}

/** `chart uses: ` for a finding about another chart than the section's (one the change reaches without touching it). */
export function otherChart(found: Finding, chart: ChartReport): string {
  return found.chart === chart.chart ? "" : `chart ${found.chart}: `;
}

const CONTRACT_MARK = { ignored: "!", required: "+", type: "~", default: "·" } as const;
const SHOWN_DEFAULTS = 10;

function contractLines(chart: ChartReport, paint: Paint): string[] {
  if (chart.contract.length === 0) return [];
  const lines = [paint(`  values contract ${chart.from?.version ?? ""} → ${chart.to?.version ?? ""}:`, "bold")];
  const defaults = chart.contract.filter((change) => change.kind === "default");
  for (const change of [...chart.contract.filter((c) => c.kind !== "default"), ...defaults.slice(0, SHOWN_DEFAULTS)]) {
    const colour = change.kind === "default" ? "dim" : change.kind === "ignored" ? "red" : "yellow";
    lines.push(paint(`    ${CONTRACT_MARK[change.kind]} ${change.path}: ${change.detail}`, colour));
    if (change.hint !== undefined) lines.push(paint(`      hint: ${change.hint}`, "dim"));
  }
  if (defaults.length > SHOWN_DEFAULTS)
    lines.push(paint(`    · and ${defaults.length - SHOWN_DEFAULTS} more changed defaults (--format json lists them all)`, "dim"));
  return lines;
}

function objectLines(object: ObjectReport, engine: EngineName, paint: Paint): string[] {
  const colour = object.action === "add" ? "green" : object.action === "delete" ? "red" : object.action === "replace" ? "red" : "yellow";
  const label =
    object.action === "replace"
      ? " REPLACE"
      : object.action === "rename"
        ? ` (renamed from ${object.renamedFrom?.display}: created anew, the old one deleted)`
        : "";
  const hook = object.hook ? ` [hook ${object.hook.events.join(",")}${object.hook.test ? ", test" : ""}]` : "";
  const source = object.source ? paint(`  ${object.source}`, "dim") : "";
  const noise = isReal(object) ? "" : paint(isBookkeepingOnly(object) ? "  (bookkeeping only)" : "  (changes on every render only)", "dim");
  const lines = [`  ${paint(`${MARK[object.action]} ${object.display}${label}`, colour)}${hook}${source}${noise}`];
  for (const change of object.changes) lines.push(...changeLines(change, paint));
  for (const summary of object.schemaChanges ?? []) lines.push(paint(`      ${describeSchemaChanges(summary)}`, "yellow"));
  for (const kept of object.unchangedSecrets ?? []) lines.push(paint(`      ${kept.path}: secret unchanged (${kept.bytes} bytes)`, "dim"));
  if (object.body !== undefined) {
    const sign = object.action === "add" ? "+" : "-";
    for (const line of stringify(object.body, { lineWidth: 0 }).trimEnd().split("\n"))
      lines.push(paint(`      ${sign} ${line}`, object.action === "add" ? "green" : "red"));
  }
  if (object.replacement !== undefined) {
    lines.push(paint(`      replaced for: ${object.replacement.fields.join(", ")}`, "red"));
    lines.push(paint(`      → ${object.replacement.consequences[engine]}`, "red"));
    lines.push(paint(`        (${object.replacement.consequences[ENGINES[engine].other]})`, "dim"));
  }
  if (object.moved !== undefined) {
    lines.push(
      paint(
        `      moved ${object.action === "add" ? `here from chart ${object.moved.from}` : `to chart ${object.moved.to}`}: ${object.moved.consequence}`,
        "red",
      ),
    );
  }
  const step = stepNote(object, engine);
  if (step !== undefined) lines.push(paint(`      → ${step}`, "red"));
  return lines;
}

/** What the engine does that the object's action alone does not say (every-run replacements are listed with the chart's noise). */
export function stepNote(object: ObjectReport, engine: EngineName): string | undefined {
  if (object.action === "rename" || object.action === "add" || object.action === "delete") return undefined;
  const record = ENGINES[engine];
  if (object.step === "update" && record.apiVersionNote !== undefined && object.changes.some((change) => change.path === "apiVersion"))
    return record.apiVersionNote;
  if (object.step === "skipped")
    return "helm upgrade does not apply this: Helm installs crds/ once and never changes them (apply it yourself, or move the CRD to templates/)";
  if (object.step === "fails" && object.action !== "replace") return `${record.updater} fails: the API server refuses to change an immutable field`;
  return undefined;
}

function changeLines(change: ReportedChange, paint: Paint): string[] {
  const tags = [
    ...(change.tags.includes("unstable") ? ["changes on every render"] : []),
    ...(change.tags.includes("immutable") ? ["immutable"] : []),
    ...(change.tags.includes("bookkeeping") ? ["bookkeeping"] : []),
  ];
  const suffix = tags.length > 0 ? paint(`  [${tags.join(", ")}]`, "dim") : "";
  if (change.secret !== undefined) {
    const bytes = (value: unknown) => (value as { bytes?: number } | undefined)?.bytes ?? 0;
    const what =
      change.secret === "changed"
        ? `changed (${bytes(change.before)} → ${bytes(change.after)} bytes)`
        : change.secret === "added"
          ? `added (${bytes(change.after)} bytes)`
          : `removed (${bytes(change.before)} bytes)`;
    return [`      ${change.path}: ${paint(`secret ${what}`, "yellow")}${suffix}`];
  }
  if (change.op === "reorder") return [`      ${change.path}: order ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}${suffix}`];
  if (change.lines !== undefined) {
    const colour = (line: string) => (line.startsWith("+") ? "green" : line.startsWith("-") ? "red" : line.startsWith("@@") ? "cyan" : "dim");
    return [
      `      ${change.path}: ${paint(hunksTitle(change.lines), "yellow")}${suffix}`,
      ...hunkLines(change.lines).map((line) => paint(`        ${line}`, colour(line))),
    ];
  }
  const before = change.op === "add" ? [] : formatValue(change.before);
  const after = change.op === "remove" ? [] : formatValue(change.after);
  if (before.length <= 1 && after.length <= 1) {
    const text = change.op === "add" ? `+ ${after[0]}` : change.op === "remove" ? `- ${before[0]}` : `${before[0]} → ${after[0]}`;
    return [`      ${change.path}: ${paint(text, change.op === "remove" ? "red" : change.op === "add" ? "green" : "yellow")}${suffix}`];
  }
  return [
    `      ${change.path}:${suffix}`,
    ...before.map((line) => paint(`        - ${line}`, "red")),
    ...after.map((line) => paint(`        + ${line}`, "green")),
  ];
}

export function summaryLine(report: DiffReport): string {
  const s = report.summary;
  const parts = [`${s.add} added`, `${s.delete} deleted`, `${s.update} updated`, `${s.replace} replaced`, `${s.rename} renamed`];
  const noise = s.unstable > 0 ? `; ${s.unstable} changing on every render only (not counted)` : "";
  const contract = s.contract > 0 ? `; ${s.contract} values contract finding(s)` : "";
  const policy = s.findingsAdded + s.findingsResolved > 0 ? `; policy findings ${s.findingsAdded} added, ${s.findingsResolved} resolved` : "";
  const same = s.unchanged > 0 ? `; ${s.unchanged} more pair(s) unchanged (same archive, values and settings on both sides: not rendered)` : "";
  return `${s.charts} chart/stack pair(s): ${parts.join(", ")}${contract}${policy}${noise}${same}`;
}
