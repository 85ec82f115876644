/** The formats a report can be asked for. */
export type Format = "text" | "json" | "markdown" | "html" | "yaml";
export const FORMATS: readonly Format[] = ["text", "json", "markdown", "html", "yaml"];

/**
 * Which report prints in which format, without loading a renderer (the CLI
 * shows this in --help). report/registry.ts holds the renderers; a test keeps
 * the two in step.
 */
export const FORMATS_OF = {
  lock: ["text", "json", "markdown"],
  verify: ["text", "json", "markdown"],
  outdated: ["text", "json", "markdown"],
  plan: ["text", "json", "markdown", "html"],
  render: ["text", "json", "markdown"],
  diff: ["text", "json", "markdown", "html"],
  check: ["text", "json", "markdown", "yaml"],
  upgrade: ["text", "json", "markdown", "html"],
  explain: ["text", "json", "markdown"],
  types: ["text", "json", "markdown"],
  images: ["text", "json", "markdown"],
} as const satisfies Record<string, readonly Format[]>;

/** The kinds of report, one per workflow. */
export type ReportKind = keyof typeof FORMATS_OF;

export function formatsOf(kind: ReportKind): Format[] {
  return [...FORMATS_OF[kind]];
}
