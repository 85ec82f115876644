import type { ImageChange } from "../diff/model.js";
import type { Paint } from "./paint.js";
import { markdownTable, textTable } from "./tables.js";

/** One image a chart runs in a stack, as the lock records it. */
export interface ImageRow {
  chart: string;
  stack: string;
  object: string;
  container: string;
  image: string;
  digest?: string;
  platforms?: number;
  /** Why the lock has no digest for it. */
  unresolved?: string;
  /** The chart deploys it pinned (pinImages), as `image@digest`. */
  pinned: boolean;
}

/** `chartroom images`: every container image of every chart and stack, with its locked digest. */
export interface ImagesReport {
  report: "images";
  format: 1;
  images: ImageRow[];
  /** Charts whose pin records no images yet (locked by an older chartroom): `chartroom lock` adds them. */
  notRecorded: string[];
}

const HEADERS = ["CHART", "STACK", "OBJECT", "CONTAINER", "IMAGE", "DIGEST", "PLATFORMS"];

function cells(report: ImagesReport, paint: Paint): string[][] {
  return report.images.map((row) => [
    row.chart,
    row.stack,
    row.object,
    row.container,
    row.image,
    row.digest === undefined ? paint(`(not locked: ${row.unresolved ?? "unknown"})`, "yellow") : `${row.digest.slice(0, 19)}…${row.pinned ? " pinned" : ""}`,
    row.platforms === undefined ? "-" : String(row.platforms),
  ]);
}

function footer(report: ImagesReport): string {
  const locked = report.images.filter((row) => row.digest !== undefined).length;
  const lines = [`${locked} of ${report.images.length} image uses locked by digest`];
  if (report.notRecorded.length > 0) lines.push(`no images recorded for ${report.notRecorded.join(", ")}: run \`chartroom lock\``);
  return lines.join("\n");
}

export function imagesText(report: ImagesReport, paint: Paint): string {
  if (report.images.length === 0) return footer(report);
  return `${textTable(HEADERS, cells(report, paint))}\n\n${footer(report)}`;
}

export function imagesMarkdown(report: ImagesReport): string {
  const rows = report.images.map((row) => [
    row.chart,
    row.stack,
    row.object,
    row.container,
    `\`${row.image}\``,
    row.digest === undefined ? `not locked: ${row.unresolved ?? "unknown"}` : `\`${row.digest}\`${row.pinned ? " (pinned)" : ""}`,
    row.platforms === undefined ? "-" : String(row.platforms),
  ]);
  return `${footer(report)}\n\n${markdownTable(
    HEADERS.map((header) => header.toLowerCase()),
    rows,
  )}`;
}

const CHANGE_MARK = { added: "+", removed: "-", changed: "~" } as const;

/** `~ Deployment.apps web/webapp containers[web]: repo:1.4.1 (sha256:ab12…) → repo:1.5.0 (not locked)`, for every diff format. */
export function describeImageChange(change: ImageChange): string {
  const side = (image: ImageChange["from"]) =>
    image === undefined
      ? "(none)"
      : `${image.image}${image.image.includes("@") ? "" : ` (${image.digest === undefined ? "not locked" : `${image.digest.slice(0, 19)}…`})`}`;
  const what = change.change === "added" ? side(change.to) : change.change === "removed" ? side(change.from) : `${side(change.from)} → ${side(change.to)}`;
  return `${CHANGE_MARK[change.change]} ${change.object} ${change.container}: ${what}`;
}
