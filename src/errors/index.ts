import { CATALOGUE, type ErrorCode } from "./catalogue.js";
import { redact } from "./secrets.js";

export { CATALOGUE, exitCodeOf, type ErrorCode } from "./catalogue.js";

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

/** Every error chartroom reports: a stable `code` (see CATALOGUE), the place, details and a hint naming the next step. Credentials never appear in it. */
export class ChartroomError extends Error {
  readonly code: ErrorCode;
  readonly hint: string;
  readonly place: Place;
  readonly details: string[];

  constructor(code: ErrorCode, message: string, options: ErrorOptions = {}) {
    super(redact(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ChartroomError";
    this.code = code;
    // The catalogue's hint when the thrower has nothing more precise.
    this.hint = redact(options.hint ?? CATALOGUE[code].hint);
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

const INTERNAL = Symbol.for("chartroom.internal-error");

/**
 * A bug: something chartroom assumed did not hold. Never a user's mistake
 * (those are ChartroomErrors with their own codes); printed with its stack.
 */
export class InternalError extends ChartroomError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("INTERNAL", message, options);
    this.name = "InternalError";
    Object.defineProperty(this, INTERNAL, { value: true });
  }

  static isInternal(value: unknown): value is InternalError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[INTERNAL] === true;
  }
}
