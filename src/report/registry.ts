import type { DiffReport } from "../diff/model.js";
import { ChartroomError } from "../errors/index.js";
import type { CheckReport } from "./check.js";
import { FORMATS, formatsOf, type Format, type ReportKind } from "./formats.js";
import { checkMarkdown, checkText, checkYaml } from "./check.js";
import { typesMarkdown, typesText, type TypesReport } from "./codegen.js";
import { formatMarkdown } from "./diff-markdown.js";
import { formatText } from "./diff-text.js";
import { explainMarkdown, explainText, type ExplainReport } from "./explain.js";
import { imagesMarkdown, imagesText, type ImagesReport } from "./images.js";
import { diffHtml, planHtml, upgradeHtml } from "./html.js";
import { lockMarkdown, lockText, verifyMarkdown, verifyText, type LockReport, type VerifyReport } from "./lock.js";
import { outdatedMarkdown, outdatedText, type OutdatedReport } from "./outdated.js";
import { plain, type Paint } from "./paint.js";
import { planMarkdown, planText, type PlanReport } from "./plan.js";
import { renderMarkdown, renderSummary, renderText, type RenderReport } from "./render.js";
import { upgradeMarkdown, upgradeText, type UpgradeReport } from "./upgrade.js";

/** Every report a workflow returns. Each names itself and carries the version of its JSON form. */
export type AnyReport =
  | LockReport
  | VerifyReport
  | OutdatedReport
  | PlanReport
  | RenderReport
  | DiffReport
  | CheckReport
  | UpgradeReport
  | ExplainReport
  | TypesReport
  | ImagesReport;

export { FORMATS, formatsOf, type Format, type ReportKind } from "./formats.js";

/** How a report is printed. */
export interface FormatOptions {
  /** Colour for text on a terminal. @default no colour */
  paint?: Paint;
  /** Paths in text are shown relative to this folder. @default process.cwd() */
  cwd?: string;
  /** `render`: one line per object instead of the manifest. @default false */
  summary?: boolean;
}

type Renderer<R> = (report: R, options: Required<FormatOptions>) => string;
type Renderers<R> = Partial<Record<Exclude<Format, "json">, Renderer<R>>>;

/** The one place that knows which report prints in which format, and how. */
const RENDERERS: { [K in ReportKind]: Renderers<Extract<AnyReport, { report: K }>> } = {
  lock: { text: (r, o) => lockText(r, o.paint, o.cwd), markdown: (r, o) => lockMarkdown(r, o.cwd) },
  verify: { text: (r) => verifyText(r), markdown: (r) => verifyMarkdown(r) },
  outdated: { text: (r, o) => outdatedText(r, o.paint), markdown: (r) => outdatedMarkdown(r) },
  plan: { text: (r, o) => planText(r, o.paint), markdown: (r) => planMarkdown(r), html: (r) => planHtml(r) },
  render: { text: (r, o) => (o.summary ? renderSummary(r) : renderText(r)), markdown: (r) => renderMarkdown(r) },
  diff: { text: (r, o) => formatText(r, o.paint), markdown: (r) => formatMarkdown(r), html: (r) => diffHtml(r) },
  check: { text: (r, o) => checkText(r, o.paint), markdown: (r) => checkMarkdown(r), yaml: (r) => checkYaml(r) },
  upgrade: { text: (r, o) => upgradeText(r, o.paint), markdown: (r) => upgradeMarkdown(r), html: (r) => upgradeHtml(r) },
  explain: { text: (r) => explainText(r), markdown: (r) => explainMarkdown(r) },
  types: { text: (r, o) => typesText(r, o.cwd), markdown: (r, o) => typesMarkdown(r, o.cwd) },
  images: { text: (r, o) => imagesText(r, o.paint), markdown: (r) => imagesMarkdown(r) },
};

/** The formats that have a renderer (a test compares this with FORMATS_OF). */
export function renderedFormats(kind: ReportKind): Format[] {
  return FORMATS.filter((format) => format === "json" || RENDERERS[kind][format] !== undefined);
}

/**
 * A report as text, JSON, markdown or HTML. A format the report does not
 * support is a USAGE error naming the ones it does, never a fallback.
 */
export function formatReport(report: AnyReport, format: Format, options: FormatOptions = {}): string {
  if (format === "json") return JSON.stringify(report, null, 2);
  const renderer = (RENDERERS[report.report] as Renderers<AnyReport>)[format];
  if (renderer === undefined || !formatsOf(report.report).includes(format)) {
    throw new ChartroomError("USAGE", `${report.report} does not print as ${format}`, { hint: `-o ${formatsOf(report.report).join(" | ")}` });
  }
  return renderer(report, { paint: options.paint ?? plain, cwd: options.cwd ?? process.cwd(), summary: options.summary ?? false });
}
