import { structuredPatch } from "diff";
import type { LineDiff } from "./model.js";

// A long value changed in one line of many reads best line by line, as a
// unified diff: a ConfigMap file, a dashboard kept as one line of JSON
// (pretty-printed first, so one changed panel is a few lines), a
// controller's flags (one element a line). Everything else stays a
// before/after pair.

/** Lines of context around each change, as `diff -U` and helm-diff's `--context` (default 3). */
export const DEFAULT_CONTEXT = 3;

// Short JSON stays on its line: pretty-printing `{"a":1}` helps nobody.
const JSON_WORTH_EXPANDING = 80;

// Two texts more different than this many lines are shown whole: the diff's cost grows with it.
const MAX_EDIT = 1000;

/** The line diff of a changed value, or undefined when a before/after pair says it better. */
export function lineDiff(before: unknown, after: unknown, context = DEFAULT_CONTEXT): LineDiff | undefined {
  if (typeof before === "string" && typeof after === "string") {
    if (before.includes("\n") || after.includes("\n")) return patch("text", before, after, context);
    const json = [expandedJson(before), expandedJson(after)];
    if (json[0] !== undefined && json[1] !== undefined && Math.max(before.length, after.length) > JSON_WORTH_EXPANDING)
      return patch("json", json[0], json[1], context);
    return undefined;
  }
  if (scalarList(before) && scalarList(after)) return patch("list", listLines(before), listLines(after), context);
  return undefined;
}

/** An object or array written as JSON, pretty-printed; undefined for anything else. */
function expandedJson(text: string): string | undefined {
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return undefined;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return undefined;
  }
}

type Scalar = string | number | boolean | null;

function scalarList(value: unknown): value is Scalar[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => item === null || ["string", "number", "boolean"].includes(typeof item));
}

// A string that reads as a number, a boolean or null is quoted, so that "1" and 1 are not the same line.
const LOOKS_TYPED = /^(true|false|null|-?\d+(\.\d+)?([eE][-+]?\d+)?)$/;

/** One element a line; a string that would not stay on one line, or would read as another type, is quoted. */
function listLines(items: Scalar[]): string {
  const bare = (item: string) => /^[^\n"]*$/.test(item) && item.trim() === item && item !== "" && !LOOKS_TYPED.test(item);
  return items.map((item) => (typeof item === "string" && bare(item) ? item : JSON.stringify(item))).join("\n");
}

/** The hunks, or undefined when they would say nothing (the lines read the same) or cost too much to find. */
function patch(form: LineDiff["form"], before: string, after: string, context: number): LineDiff | undefined {
  // Both ends closed with a newline: a last line without one is the same line, not a "\ No newline" marker.
  const close = (text: string) => (text.endsWith("\n") ? text : `${text}\n`);
  const found = structuredPatch("", "", close(before), close(after), "", "", { context: Math.max(0, context), maxEditLength: MAX_EDIT });
  if (found === undefined || found.hunks.length === 0) return undefined;
  const { hunks } = found;
  let added = 0;
  let removed = 0;
  const out = hunks.map((hunk) => {
    const lines = hunk.lines.filter((line) => !line.startsWith("\\"));
    for (const line of lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
    }
    return { before: { start: hunk.oldStart, lines: hunk.oldLines }, after: { start: hunk.newStart, lines: hunk.newLines }, lines };
  });
  return { form, added, removed, hunks: out };
}
