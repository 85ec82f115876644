import { redact } from "./util/secrets.js";

/** Stable codes: scripts and tests match on these, never on message text. */
export type ErrorCode =
  | "CONFIG_NOT_FOUND"
  | "CONFIG_LOAD_FAILED"
  | "CONFIG_INVALID"
  | "UNKNOWN_CHART"
  | "INDEX_INVALID"
  | "VERSION_NOT_FOUND"
  | "DIGEST_MISMATCH"
  | "ARCHIVE_INVALID"
  | "ARCHIVE_UNSAFE"
  | "ARCHIVE_TOO_LARGE"
  | "HTTP_AUTH"
  | "HTTP_NOT_FOUND"
  | "HTTP_FAILED"
  | "HTTP_TIMEOUT"
  | "HTTP_TLS"
  | "LOCK_INVALID"
  | "LOCK_TOO_NEW"
  | "LOCK_MISSING"
  | "LOCK_STALE"
  | "HELM_NOT_FOUND"
  | "HELM_TOO_OLD"
  | "HELM_FAILED"
  | "ENGINE_DROPS_HOOKS"
  | "VALUES_INVALID"
  | "PROVIDER_MISSING"
  | "USAGE";

/** Where a problem is: any subset of these, printed in a fixed order. */
export interface Place {
  file?: string;
  line?: number;
  column?: number;
  key?: string;
  chart?: string;
  url?: string;
  object?: string;
}

export interface ErrorOptions {
  hint?: string;
  place?: Place;
  /** Further lines, one problem each, when one error gathers several. */
  details?: string[];
  cause?: unknown;
}

// A registered symbol survives two copies of the package in one process,
// where `instanceof` would not.
const MARK = Symbol.for("chartroom.error");

export class ChartroomError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;
  readonly place: Place;
  readonly details: string[];

  constructor(code: ErrorCode, message: string, options: ErrorOptions = {}) {
    super(redact(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ChartroomError";
    this.code = code;
    this.hint = options.hint === undefined ? undefined : redact(options.hint);
    this.place = options.place ?? {};
    this.details = (options.details ?? []).map(redact);
    Object.defineProperty(this, MARK, { value: true });
  }

  static isInstance(value: unknown): value is ChartroomError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
  }
}

export function formatPlace(place: Place): string {
  const parts: string[] = [];
  // A file, or else the URL, carries the line and column.
  const located = place.file ?? place.url;
  if (located !== undefined) {
    let where = located;
    if (place.line !== undefined) where += `:${place.line}`;
    if (place.line !== undefined && place.column !== undefined) where += `:${place.column}`;
    parts.push(where);
  }
  if (place.key !== undefined) parts.push(`at ${place.key}`);
  if (place.chart !== undefined) parts.push(`chart ${place.chart}`);
  if (place.object !== undefined) parts.push(`object ${place.object}`);
  if (place.file !== undefined && place.url !== undefined) parts.push(place.url);
  return parts.join(", ");
}

/** The full text shown to a person: code, place, message, details, hint. */
export function formatError(error: ChartroomError): string {
  const where = formatPlace(error.place);
  const lines = [`error ${error.code}: ${error.message}`];
  if (where !== "") lines.push(`  where: ${where}`);
  for (const detail of error.details) lines.push(`  - ${detail}`);
  if (error.hint !== undefined) lines.push(`  hint: ${error.hint}`);
  return redact(lines.join("\n"));
}
