import { FAILSAFE_SCHEMA, load } from "js-yaml";
import * as semver from "../../util/semver.js";
import * as z from "../../util/zod.js";
import { ChartroomError } from "../../errors/index.js";
import { isRecord } from "../../util/json.js";
import { normaliseDigest } from "../../util/hash.js";
import { scanIndex } from "./scan.js";
import type { ChartVersion } from "../../model/charts.js";

/** A parsed Helm repository index: chart name → versions, newest first. */
export type RepoIndex = Record<string, ChartVersion[]>;

/**
 * Parse index.yaml. Every scalar is read as a string (the failsafe schema),
 * so a version like `1.10` is never turned into the number 1.1 and the
 * parse does no timestamp work on thousands of `created` fields.
 */
export function parseIndex(text: string, where: string): RepoIndex {
  const scanned = scanIndex(text);
  // Stryker disable next-line ConditionalExpression,BlockStatement: a fast path to what the full parse gives (the index-scan tests hold the two equal).
  if (scanned !== undefined) {
    const index: RepoIndex = {};
    for (const [name, list] of scanned) index[name] = sortNewestFirst(list.flatMap((entry) => readEntry(name, entry)));
    return index;
  }
  return parseIndexFully(text, where);
}

/** The full YAML parse: any valid document, with line and column on errors. */
export function parseIndexFully(text: string, where: string): RepoIndex {
  let document: unknown;
  try {
    document = load(text, { schema: FAILSAFE_SCHEMA, filename: where });
  } catch (error) {
    const mark = (error as { mark?: { line: number; column: number } }).mark;
    throw new ChartroomError("INDEX_INVALID", `index.yaml is not valid YAML: ${(error as Error).message.split("\n")[0]}`, {
      place: { url: where, line: mark ? mark.line + 1 : undefined, column: mark ? mark.column + 1 : undefined },
      hint: "the repository serves a broken index; check its URL or ask its owner to regenerate it (helm repo index)",
    });
  }
  if (!isRecord(document) || !isRecord(document.entries)) {
    throw new ChartroomError("INDEX_INVALID", "index.yaml has no `entries` map", {
      place: { url: where },
      hint: "is this URL a Helm chart repository? It should serve index.yaml with apiVersion and entries",
    });
  }
  const index: RepoIndex = {};
  for (const [name, list] of Object.entries(document.entries)) {
    if (!Array.isArray(list)) continue;
    index[name] = sortNewestFirst(list.flatMap((entry) => readEntry(name, entry)));
  }
  return index;
}

/**
 * One entry of index.yaml, as the failsafe parse gives it (every scalar a
 * string). Entries that do not fit (no version) are left out, as Helm does.
 */
const entrySchema = z.looseObject({
  version: z.string(),
  // `urls:` with nothing under it is null: Helm keeps the version, with no URL.
  urls: z.optional(z.nullable(z.array(z.unknown()))),
  appVersion: z.optional(z.string()),
  digest: z.optional(z.string()),
  created: z.optional(z.string()),
  deprecated: z.optional(z.string()),
});

function readEntry(name: string, raw: unknown): ChartVersion[] {
  const parsed = entrySchema.safeParse(raw);
  if (!parsed.success) return [];
  const entry = parsed.data;
  const version: ChartVersion = { name, version: entry.version, urls: (entry.urls ?? []).filter((url): url is string => typeof url === "string") };
  if (entry.appVersion !== undefined && entry.appVersion !== "") version.appVersion = entry.appVersion;
  if (entry.digest !== undefined && entry.digest !== "") version.digest = normaliseDigest(entry.digest);
  if (entry.created !== undefined && entry.created !== "") version.created = entry.created;
  if (entry.deprecated === "true") version.deprecated = true;
  return [version];
}

/** Valid semver first, newest first; anything else after, in index order. */
export function sortNewestFirst(versions: ChartVersion[]): ChartVersion[] {
  // Parse each version once: comparing strings with semver.rcompare would
  // re-parse both sides on every comparison.
  const parsed = versions.map((v) => ({ v, semver: semver.parse(v.version) }));
  const valid = parsed.filter((p): p is { v: ChartVersion; semver: semver.SemVer } => p.semver !== null);
  valid.sort((a, b) => b.semver.compare(a.semver) || b.semver.compareBuild(a.semver));
  return [...valid.map((p) => p.v), ...parsed.filter((p) => p.semver === null).map((p) => p.v)];
}
