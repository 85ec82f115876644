/** Columns padded to the widest cell; the last column is not padded. */
export function textTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) => Math.max(visibleLength(header), ...rows.map((row) => visibleLength(row[i] ?? ""))));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + " ".repeat((widths[i] ?? 0) - visibleLength(cell))))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

export function markdownTable(headers: string[], rows: string[][]): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  return [`| ${headers.map(cell).join(" | ")} |`, `| ${headers.map(() => "---").join(" | ")} |`, ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`)].join(
    "\n",
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the colour codes this strips.
const ANSI = /\u001b\[[0-9;]*m/g;

function visibleLength(text: string): number {
  return text.replace(ANSI, "").length;
}

export function shortDigest(digest: string): string {
  return digest.replace(/^sha256:/, "").slice(0, 12);
}
