export type Format = "text" | "json" | "markdown";
export const FORMATS: Format[] = ["text", "json", "markdown"];

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
  const escape = (cell: string) => cell.replace(/\|/g, "\\|").replace(/\n/g, " ");
  return [
    `| ${headers.map(escape).join(" | ")} |`,
    `| ${headers.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.map(escape).join(" | ")} |`),
  ].join("\n");
}

const ANSI = /\u001b\[[0-9;]*m/g;

function visibleLength(text: string): number {
  return text.replace(ANSI, "").length;
}

const CODES = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 } as const;
export type Colour = keyof typeof CODES;

/** Colour only when the stream is a terminal and NO_COLOR is unset. */
export function painter(enabled: boolean): (text: string, colour: Colour) => string {
  return (text, colour) => (enabled ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text);
}

export function shortDigest(digest: string): string {
  return digest.replace(/^sha256:/, "").slice(0, 12);
}
