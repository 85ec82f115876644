import { stringify } from "yaml";
import type { ChartReport, ObjectReport, ReportedChange } from "../diff/model.js";
import { describeSchemaChanges, isBookkeepingOnly, isReal } from "../diff/report.js";
import { ENGINES } from "../engine/records.js";
import type { EngineName } from "../model/engine.js";
import { chartTail, otherChart, stepNote } from "./diff-text.js";
import { formatValue } from "./format-value.js";
import { hunksTitle } from "./hunks.js";
import { plain } from "./paint.js";

// A chart's changes for a ```diff block (the pull-request comment): every
// line starts with its sign, `+` added, `-` removed, `@@` a hunk of a long
// value, a space otherwise, so GitHub colours them; what the line is about
// follows, indented.

const MARK: Record<ObjectReport["action"], string> = { add: "+", delete: "-", update: "~", replace: "!", rename: ">" };

/** The block's lines for one chart: its objects, then what the text report says after them. */
export function diffBlockLines(chart: ChartReport): string[] {
  const lines = chart.objects.length === 0 ? ["  no object changes"] : chart.objects.flatMap((object) => objectLines(object, chart.engine));
  const findings = [
    ...chart.findings.added.map((found) => `+ policy ${found.severity} ${found.rule}: ${otherChart(found, chart)}${where(found)}: ${found.message}`),
    ...chart.findings.resolved.map((found) => `- policy ${found.severity} ${found.rule}: ${otherChart(found, chart)}${where(found)}: ${found.message}`),
  ];
  return [...lines, ...chartTail(chart, plain, findings)];
}

function where(found: { object?: string; path?: string }): string {
  return `${found.object ?? ""}${found.path === undefined ? "" : ` ${found.path}`}`;
}

function objectLines(object: ObjectReport, engine: EngineName): string[] {
  const label =
    object.action === "replace"
      ? " REPLACE"
      : object.action === "rename"
        ? ` (renamed from ${object.renamedFrom?.display}: created anew, the old one deleted)`
        : "";
  const hook = object.hook ? ` [hook ${object.hook.events.join(",")}${object.hook.test ? ", test" : ""}]` : "";
  const noise = isReal(object) ? "" : isBookkeepingOnly(object) ? "  (bookkeeping only)" : "  (changes on every render only)";
  const source = object.source === undefined ? "" : `  ${object.source}`;
  const lines = [`${MARK[object.action]} ${object.display}${label}${hook}${source}${noise}`];
  for (const change of object.changes) lines.push(...changeLines(change));
  for (const summary of object.schemaChanges ?? []) lines.push(`    ${describeSchemaChanges(summary)}`);
  for (const kept of object.unchangedSecrets ?? []) lines.push(`    ${kept.path}: secret unchanged (${kept.bytes} bytes)`);
  if (object.body !== undefined) {
    const sign = object.action === "add" ? "+" : "-";
    for (const line of stringify(object.body, { lineWidth: 0 }).trimEnd().split("\n")) lines.push(`${sign}     ${line}`);
  }
  if (object.replacement !== undefined) {
    lines.push(`!   replaced for: ${object.replacement.fields.join(", ")}`);
    lines.push(`    → ${object.replacement.consequences[engine]} (${object.replacement.consequences[ENGINES[engine].other]})`);
  }
  if (object.moved !== undefined)
    lines.push(`    moved ${object.action === "add" ? `here from chart ${object.moved.from}` : `to chart ${object.moved.to}`}: ${object.moved.consequence}`);
  const step = stepNote(object, engine);
  if (step !== undefined) lines.push(`    → ${step}`);
  return lines;
}

function changeLines(change: ReportedChange): string[] {
  const tags = [
    ...(change.tags.includes("unstable") ? ["changes on every render"] : []),
    ...(change.tags.includes("immutable") ? ["immutable"] : []),
    ...(change.tags.includes("bookkeeping") ? ["bookkeeping"] : []),
  ];
  const suffix = tags.length > 0 ? `  [${tags.join(", ")}]` : "";
  if (change.secret !== undefined) {
    const bytes = (value: unknown) => (value as { bytes?: number } | undefined)?.bytes ?? 0;
    const what =
      change.secret === "changed"
        ? `changed (${bytes(change.before)} → ${bytes(change.after)} bytes)`
        : change.secret === "added"
          ? `added (${bytes(change.after)} bytes)`
          : `removed (${bytes(change.before)} bytes)`;
    return [`    ${change.path}: secret ${what}${suffix}`];
  }
  if (change.op === "reorder") return [`    ${change.path}: order ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}${suffix}`];
  if (change.lines !== undefined) {
    const [first, ...rest] = change.lines.hunks;
    const header = (hunk: typeof first) =>
      hunk === undefined ? [] : [`@@ -${hunk.before.start},${hunk.before.lines} +${hunk.after.start},${hunk.after.lines} @@ ${change.path}`, ...hunk.lines];
    return [`    ${change.path}: ${hunksTitle(change.lines)}${suffix}`, ...header(first), ...rest.flatMap(header)];
  }
  const side = (sign: "+" | "-", value: unknown) => {
    const [only, ...more] = formatValue(value);
    return more.length === 0 && only !== undefined
      ? [`${sign}   ${change.path}: ${only}`]
      : [`${sign}   ${change.path}:`, ...[only, ...more].map((line) => `${sign}     ${line}`)];
  };
  const [first = "", ...rest] = [...(change.op === "add" ? [] : side("-", change.before)), ...(change.op === "remove" ? [] : side("+", change.after))];
  return [`${first}${suffix}`, ...rest];
}
