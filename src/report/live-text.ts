// The live section of a diff, for a person: what the API server said of the
// new side, the objects a deploy would stop on first.
import { LIVE_FAILURES, type LiveObjectReport, type LiveSection } from "../diff/model.js";
import type { Paint } from "./paint.js";
import { byText } from "../util/order.js";

const ORDER = ["blocked", "conflict", "immutable", "unknown-kind", "forbidden", "error", "drift", "delete", "adopt", "create", "update", "same"];

export function liveLines(live: LiveSection, paint: Paint): string[] {
  const counts = Object.entries(live.counts)
    .sort(([a], [b]) => ORDER.indexOf(a) - ORDER.indexOf(b))
    .map(([outcome, count]) => `${count} ${outcome}`)
    .join(", ");
  const lines = [paint(`  live: ${live.server} (context ${live.context})${counts === "" ? "" : `: ${counts}`}`, "bold")];
  if (live.release?.revision !== undefined) {
    const from = live.release.comparedWith === undefined ? "" : `, compared with revision ${live.release.comparedWith}`;
    lines.push(
      `    release ${live.release.namespace}/${live.release.name}: revision ${live.release.revision} ${live.release.status} (${live.release.chart})${from}`,
    );
  }
  for (const hook of live.hooks ?? []) {
    const policies = hook.deletePolicies.length === 0 ? "" : `, deleted ${hook.deletePolicies.join(", ")}`;
    lines.push(`    hook ${hook.display}: ${hook.events.join(", ")}, weight ${hook.weight}${policies}`);
  }
  const objects = [...live.objects].sort((a, b) => ORDER.indexOf(a.outcome) - ORDER.indexOf(b.outcome) || byText(a.id, b.id));
  for (const object of objects) lines.push(...objectLines(object, paint));
  // Every awaited object is in the JSON; text names those whose wait proves little or would fail.
  const awaits = live.awaits ?? [];
  if (awaits.length > 0) lines.push(paint(`    waits for ${awaits.length} object(s) before going on (--format json says on what)`, "dim"));
  for (const awaited of awaits.filter((item) => item.note !== undefined || item.failing !== undefined)) {
    lines.push(`    · waits for ${awaited.display}: ${awaited.on}`);
    if (awaited.note !== undefined) lines.push(paint(`        note: ${awaited.note}`, "yellow"));
    for (const stuck of awaited.failing ?? []) lines.push(paint(`        ✗ stuck now, the wait would time out: ${stuck}`, "red"));
  }
  if (live.missingRights !== undefined) {
    lines.push(paint(`    ✗ the identity may not do all the deploy does (${live.missingRights.length} verb(s)):`, "red"));
    for (const message of live.missingRights) lines.push(`        ${message}`);
    lines.push(paint("        fix: grant them: chartroom check --stack <name> --cluster --format yaml prints the Role", "yellow"));
  }
  for (const note of live.notes) lines.push(`    note: ${note}`);
  return lines;
}

function objectLines(object: LiveObjectReport, paint: Paint): string[] {
  const failing = LIVE_FAILURES.includes(object.outcome);
  const head = paint(`    ${failing ? "✗" : "·"} ${object.display}: ${object.outcome}`, failing ? "red" : "dim");
  const lines = [head];
  for (const conflict of object.conflicts ?? []) {
    const via = conflict.subresource === undefined ? "" : ` (subresource ${conflict.subresource})`;
    lines.push(`        ${conflict.field} is owned by "${conflict.manager}"${via}`, paint(`          fix: ${conflict.fix}`, "yellow"));
  }
  if (object.fields !== undefined && object.fields.length > 0) lines.push(`        fields: ${object.fields.join(", ")}`);
  if (object.drift !== undefined) lines.push(paint(`        drift (changed in the cluster, the apply puts back): ${object.drift.join(", ")}`, "yellow"));
  if (object.owners !== undefined) lines.push(`        owned by: ${object.owners.length === 0 ? "no field manager" : object.owners.join(", ")}`);
  if (object.message !== undefined) lines.push(`        server: ${object.message}`);
  if (object.fix !== undefined) lines.push(paint(`        ${failing ? "fix" : "note"}: ${object.fix}`, failing ? "yellow" : "dim"));
  return lines;
}
