import type { LineDiff } from "../diff/model.js";

// One long value's change as unified hunks (diff/lines.ts), in the shape
// `diff -u` and GitHub's ```diff blocks read: an @@ line per hunk, then each
// line with its sign.

/** What the hunks are of, for the line above them: `12 lines of JSON, +2 -1`. */
export function hunksTitle(lines: LineDiff): string {
  const form = lines.form === "json" ? "the JSON in it, pretty-printed" : lines.form === "list" ? "one element a line" : "line by line";
  return `${form}: +${lines.added} -${lines.removed}`;
}

/** `@@ -3,7 +3,8 @@` then the lines as they are (` `, `-`, `+` first). */
export function hunkLines(lines: LineDiff): string[] {
  return lines.hunks.flatMap((hunk) => [`@@ -${hunk.before.start},${hunk.before.lines} +${hunk.after.start},${hunk.after.lines} @@`, ...hunk.lines]);
}
