import { relative } from "node:path";
import type { Paint } from "./paint.js";
import { markdownTable, textTable } from "./tables.js";

/** What `lock` did to one chart's pin. */
export interface LockChange {
  chart: string;
  kind: "added" | "updated" | "downgraded" | "republished" | "removed" | "unchanged";
  from?: string;
  to?: string;
  /** For "republished": the digest pinned before and the one pinned now. */
  digests?: { from: string; to: string };
}

/** The container images of a lock: how many have a digest, which have none and why, which tags moved. */
export interface ImageSummary {
  /** Image uses recorded with a digest. */
  locked: number;
  unresolved: { chart: string; stack: string; image: string; why: string }[];
  /** Locked tags that could not be asked again (the registry did not answer): their digests stay, unchecked. */
  unchecked: { chart: string; stack: string; image: string; why: string }[];
  /** `lock --frozen`: charts whose pin records no images (locked by an older chartroom); `chartroom lock` adds them. */
  notRecorded?: string[];
  /** Tags that name another digest than the one locked (taken only with --accept-moved-images). */
  moved: { chart: string; stack: string; image: string; from: string; to: string }[];
}

/** `chartroom lock`: what changed in charts.lock.json. */
export interface LockReport {
  report: "lock";
  format: 1;
  /** Absolute path of charts.lock.json. */
  path: string;
  /** False when the lock already said exactly this. */
  written: boolean;
  changes: LockChange[];
  images: ImageSummary;
}

/** `chartroom lock --frozen`: every pin fits its declaration and its archive verified. */
export interface VerifyReport {
  report: "verify";
  format: 1;
  path: string;
  charts: { chart: string; version: string; digest: string }[];
  images: ImageSummary;
}

const COLOUR = { added: "green", updated: "yellow", downgraded: "red", republished: "red", removed: "red", unchanged: "dim" } as const;

function headline(report: LockReport, cwd: string): string {
  const where = relative(cwd, report.path) || report.path;
  return report.written ? `wrote ${where}` : `${where} is up to date`;
}

function rows(changes: LockChange[]): string[][] {
  return changes.map((change) => [
    change.chart,
    change.kind,
    change.from ?? "-",
    change.digests === undefined ? (change.to ?? "-") : `${change.to ?? "-"} (${change.digests.from.slice(7, 19)} → ${change.digests.to.slice(7, 19)})`,
  ]);
}

const HEADERS = ["CHART", "CHANGE", "FROM", "TO"];

export function lockText(report: LockReport, paint: Paint, cwd: string): string {
  const coloured = rows(report.changes).map(([chart = "", kind = "", from = "", to = ""]) => [
    chart,
    paint(kind, COLOUR[kind as LockChange["kind"]]),
    from,
    to,
  ]);
  return `${textTable(HEADERS, coloured)}\n\n${headline(report, cwd)}${imageLines(report.images)}`;
}

export function lockMarkdown(report: LockReport, cwd: string): string {
  return `${headline(report, cwd)}\n\n${markdownTable(HEADERS, rows(report.changes))}${imageLines(report.images)}`;
}

/**
 * One line for the images, then each unresolved registry once and each
 * moved tag: a gap is always said, never hidden in the lock.
 */
function imageLines(images: ImageSummary): string {
  const total = images.locked + images.unresolved.length;
  const older = images.notRecorded ?? [];
  if (total === 0 && older.length === 0) return "";
  const lines = total === 0 ? [] : [`images: ${images.locked} of ${total} locked by digest`];
  if (older.length > 0) lines.push(`images not recorded for ${older.join(", ")} (locked by an older chartroom): \`chartroom lock\` records them`);
  const reasons = new Map<string, Set<string>>();
  for (const gap of images.unresolved) reasons.set(gap.why, (reasons.get(gap.why) ?? new Set()).add(gap.image));
  for (const [why, names] of reasons) lines.push(`  not locked (${names.size} image${names.size === 1 ? "" : "s"}): ${why}`);
  if (reasons.size > 0) lines.push("  `chartroom images` lists each");
  for (const gap of images.unchecked) lines.push(`  not rechecked: ${gap.image} (${gap.chart}, ${gap.stack}): ${gap.why}`);
  for (const move of images.moved) lines.push(`  moved: ${move.image} (${move.chart}, ${move.stack}): ${move.from} → ${move.to}`);
  return `\n${lines.join("\n")}`;
}

const VERIFIED = "charts.lock.json matches the config; every pinned archive verified";

export function verifyText(report: VerifyReport): string {
  return `${textTable(
    ["CHART", "VERSION", "DIGEST"],
    report.charts.map((c) => [c.chart, c.version, c.digest]),
  )}\n\n${VERIFIED}${imageLines(report.images)}`;
}

export function verifyMarkdown(report: VerifyReport): string {
  return `${VERIFIED}\n\n${markdownTable(
    ["chart", "version", "digest"],
    report.charts.map((c) => [c.chart, c.version, `\`${c.digest}\``]),
  )}${imageLines(report.images)}`;
}
