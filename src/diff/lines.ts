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
  const around = Math.max(0, context);
  const [a, b] = [close(before), close(after)];
  const { head, tail, skipped } = commonEnds(a, b, around);
  const found = structuredPatch("", "", a.slice(head, a.length - tail), b.slice(head, b.length - tail), "", "", { context: around, maxEditLength: MAX_EDIT });
  if (found === undefined || found.hunks.length === 0) return undefined;
  const hunks = found.hunks.map((hunk) => ({ ...hunk, oldStart: hunk.oldStart + skipped, newStart: hunk.newStart + skipped }));
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

/**
 * The lines both texts share at their start and at their end, beyond the
 * `context` lines a hunk shows next to a change: jsdiff need not see them.
 * It takes every line of both texts through its tokenizer and its edit
 * graph: a dashboard of 700 lines with one changed panel cost a warm review
 * of the bench's app chart 1.5 ms; cutting them saved ≈10 M of its 400 M
 * instructions. Both texts end with a newline. `head` and `tail` are the characters
 * cut from each end of both (whole lines), `skipped` the lines cut from the start.
 */
export function commonEnds(a: string, b: string, context: number): { head: number; tail: number; skipped: number } {
  const shortest = Math.min(a.length, b.length);
  const same = sharedLength(shortest, (from, to) => a.slice(from, to) === b.slice(from, to));
  // The start of the first line that differs, then `context` lines back.
  const differs = same === 0 ? 0 : a.lastIndexOf("\n", same - 1) + 1;
  let head = differs;
  for (let i = 0; i < context; i++) head = head < 2 ? 0 : a.lastIndexOf("\n", head - 2) + 1;
  let skipped = 0;
  for (let at = a.indexOf("\n"); at !== -1 && at < head; at = a.indexOf("\n", at + 1)) skipped++;
  // The same from the end, never reaching into the lines both start with.
  const end = sharedLength(shortest - differs, (from, to) => a.slice(a.length - to, a.length - from) === b.slice(b.length - to, b.length - from));
  const lineStart = (text: string, at: number) => at === 0 || text.charCodeAt(at - 1) === 10;
  // Whole lines only: where the shared end does not start a line in both texts, from the next line on.
  const from = a.length - end;
  let tail = lineStart(a, from) && lineStart(b, b.length - end) ? end : a.length - a.indexOf("\n", from) - 1;
  for (let i = 0; i < context && tail > 0; i++) tail = a.length - a.indexOf("\n", a.length - tail) - 1;
  return { head, tail, skipped };
}

/**
 * How many characters two texts share (at their start, or counted from their
 * end), at most `limit`: halving the span each step, so that the characters
 * are compared by the engine, not one by one in a loop the interpreter runs
 * (15,000 of them took longer than jsdiff's whole diff). `equal(from, to)`
 * says whether characters [from, to) are the same in both.
 */
function sharedLength(limit: number, equal: (from: number, to: number) => boolean): number {
  let known = 0;
  let most = limit;
  while (known < most) {
    const middle = (known + most + 1) >> 1;
    if (equal(known, middle)) known = middle;
    else most = middle - 1;
  }
  return known;
}
