import { stringify } from "yaml";

/**
 * kubectl and the API server read YAML 1.1 (a bare `yes`, `on` or `y` is a
 * boolean there): strings that look like one are quoted, so that the
 * manifest piped to `kubectl apply` holds the strings the chart rendered.
 */
const YAML_11 = { lineWidth: 0, version: "1.1" } as const;
import { displayName, type RenderedObject } from "../model/objects.js";
import { markdownTable, textTable } from "./tables.js";

/** `chartroom render`: one chart rendered for one stack with the platform's values (Secret values masked unless asked). */
export interface RenderReport {
  report: "render";
  format: 1;
  chart: string;
  version: string;
  stack: string | null;
  /** The helm that rendered it: its version and where it was found. */
  helm: string;
  objects: RenderedObject[];
}

/** The manifest as `helm template` prints it, Secret values masked. */
export function renderText(report: RenderReport): string {
  return report.objects.map((object) => `---\n# Source: ${object.source ?? "(unknown)"}\n${stringify(object.body, YAML_11).trimEnd()}`).join("\n");
}

const HEADERS = ["OBJECT", "API VERSION", "SOURCE", "HOOK"];

function rows(report: RenderReport): string[][] {
  return report.objects.map((object) => [displayName(object), object.apiVersion, object.source ?? "-", hookLabel(object)]);
}

/** One line per object (`chartroom render --summary`). */
export function renderSummary(report: RenderReport): string {
  return textTable(HEADERS, rows(report));
}

export function renderMarkdown(report: RenderReport): string {
  return `### ${report.chart} ${report.version}${report.stack === null ? "" : ` · stack ${report.stack}`}\n\n${markdownTable(HEADERS, rows(report))}`;
}

function hookLabel(object: RenderedObject): string {
  if (object.hook === undefined) return "-";
  return `${object.hook.events.join(",")}${object.hook.test ? " (test)" : ""} w=${object.hook.weight}`;
}
