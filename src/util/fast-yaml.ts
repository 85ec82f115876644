import { kubernetesScalar } from "./kube-yaml.js";

/**
 * A fast reader for the block-style YAML that chart templates produce: block
 * maps and sequences, plain and quoted one-line scalars, one-line flow
 * collections, literal block scalars (`|`, `|-`), plain and quoted scalars
 * over several lines. It returns undefined the moment a document uses
 * anything else (anchors, tags, folded scalars, odd numbers, duplicate keys,
 * tabs…),
 * and the caller parses that document with js-yaml. Where it answers, it
 * answers what js-yaml with KUBERNETES_SCHEMA would (scalars as Kubernetes
 * reads them): the property test pins that.
 */
class Unsupported extends Error {}

function unsupported(): never {
  throw new Unsupported();
}

/**
 * Blocks already read, for reuse when the same text comes again (the other
 * side of a diff): reading it is skipped, and the diff sees the very same
 * object on both sides and stops there. Bucketed by a cheap key, confirmed
 * by comparing the whole text.
 */
export type SharedBlocks = Map<string, { text: string; value: unknown }[]>;

/**
 * Blocks shorter than this are cheaper to read again than to look up (the
 * lookup slices and compares text at every nesting level): measured on
 * operator CRDs, 64 lines is where reuse starts to pay.
 */
const MIN_SHARED_LINES = 64;

/** What js-yaml refuses in a stream (and Kubernetes' reader as well): a character YAML cannot print, a lone surrogate. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
const NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;

/** Where the first character YAML cannot print is (what go-yaml, and so Helm, refuses as a control character), or −1. */
export function unprintableAt(text: string): number {
  return text.search(NON_PRINTABLE);
}

/**
 * Every character the reader refuses or looks at closer (tab, carriage return, a
 * byte order mark, which js-yaml drops and this reader would read into the first
 * key, the unprintable ones, any surrogate), in one class: one pass over the common text,
 * half the time of NON_PRINTABLE's alternation over an operator chart's CRDs.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for.
const SUSPECT = /[\x00-\x09\x0B-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFEFF\uFFFE\uFFFF]/;

// What a plain scalar of YAML 1.2's core schema reads as other than a string
// (the yaml package's own tests: null, bool, int, float), `~` and the empty one included.
const CORE_NOT_STRING =
  /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)?$/;

/**
 * Whether what the fast reader gave is what the yaml package reads in YAML
 * 1.2's core schema (Chart.yaml's reading): only strings, in maps and lists,
 * none of which a plain scalar of YAML 1.2 would read as anything else. Where
 * the two could differ (YAML 1.1's `yes`, an octal `0o17`, a quoted "1.0"
 * that cannot be told from a plain one here) it says no, and the caller reads
 * the text with the yaml package.
 */
export function coreStringsOnly(value: unknown): boolean {
  if (typeof value === "string") return !CORE_NOT_STRING.test(value);
  if (Array.isArray(value)) return value.every(coreStringsOnly);
  if (typeof value !== "object" || value === null) return false;
  // Keys need no look: the reader refuses a plain key that any YAML reads as other than a string.
  return Object.values(value).every(coreStringsOnly);
}

export function parseBlockYaml(text: string, shared?: SharedBlocks, minSharedLines = MIN_SHARED_LINES): unknown {
  // Stryker disable all: the same document read before (the other side's CRDs) is taken whole, without
  // splitting its lines again; it gives what reading it gives (fast-yaml-edges: "shared blocks").
  const seen = shared?.get(text)?.find((entry) => entry.text === text);
  if (seen !== undefined) return seen.value;
  // Stryker restore all
  // Stryker disable next-line ConditionalExpression: SUSPECT only spares the closer look (true is the same answer, slower).
  if (SUSPECT.test(text) && (text.includes("\t") || text.includes("\r") || text.includes("\uFEFF") || NON_PRINTABLE.test(text))) return undefined;
  try {
    const lines = text.split("\n");
    const value = new Reader(text, lines, shared, minSharedLines).document();
    // Stryker disable next-line all: what is kept only decides what is read again (see above).
    if (shared !== undefined && lines.length >= minSharedLines) shared.set(text, [{ text, value }]);
    return value;
    // Stryker disable BlockStatement,ConditionalExpression: the reader throws nothing but Unsupported (a bug would show as a throw in the property tests).
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  // Stryker restore BlockStatement,ConditionalExpression
}

function indentOf(line: string): number {
  let n = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end charCodeAt is NaN, which ends the loop as well.
  while (n < line.length && line.charCodeAt(n) === 32) n++;
  return n;
}

/** The indent of a line, or −1 when it is blank or only a comment. */
function contentIndent(line: string): number {
  let n = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end charCodeAt is NaN, which ends the loop as well.
  while (n < line.length && line.charCodeAt(n) === 32) n++;
  return n === line.length || line.charCodeAt(n) === 35 ? -1 : n;
}

class Reader {
  private i = 0;
  /** Indent of each line; −1 for blank and comment-only lines (computed once). */
  private readonly indents: Int32Array;

  /** Offset of each line in the document text (and one past the end). */
  private readonly offsets: Int32Array;

  constructor(
    private readonly text: string,
    private readonly lines: string[],
    private readonly shared: SharedBlocks | undefined,
    private readonly minSharedLines: number,
  ) {
    this.indents = new Int32Array(lines.length);
    this.offsets = new Int32Array(lines.length + 1);
    for (let k = 0; k < lines.length; k++) {
      this.indents[k] = contentIndent(lines[k] as string);
      this.offsets[k + 1] = (this.offsets[k] as number) + (lines[k] as string).length + 1;
    }
  }

  // Stryker disable all: blockEnd and reuse only decide what is shared between documents: a block is reused only
  // where its whole text is equal and was read to its end, so a wrong key or bound costs speed, never a value
  // (fast-yaml-edges: "shared blocks").
  /** The line after a block nested under `indent`: the next content line at or left of it. */
  private blockEnd(indent: number): number {
    let j = this.i + 1;
    while (j < this.lines.length && (this.indents[j] === -1 || (this.indents[j] as number) > indent)) j++;
    return j;
  }

  /** Read lines [i, end) with `read`, or take what the same text gave before. */
  private reuse(end: number, read: () => unknown): unknown {
    const start = this.i;
    if (this.shared === undefined || end - start < this.minSharedLines) return read();
    let last = end - 1;
    while (last > start && this.indents[last] === -1) last--;
    const key = `${end - start}\u0000${this.lines[start]}\u0000${this.lines[last]}`;
    const text = this.text.slice(this.offsets[start], Math.min(this.offsets[end] as number, this.text.length));
    const bucket = this.shared.get(key);
    for (const entry of bucket ?? []) {
      if (entry.text === text) {
        this.i = end;
        return entry.value;
      }
    }
    const value = read();
    if (this.i === end) {
      if (bucket === undefined) this.shared.set(key, [{ text, value }]);
      else bucket.push({ text, value });
    }
    return value;
  }
  // Stryker restore all

  document(): unknown {
    this.skipBlank();
    if (this.i >= this.lines.length) return unsupported();
    const first = this.lines[this.i] as string;
    // Stryker disable next-line all: a marker or directive line is no key either: the mapping refuses it next.
    if (first.startsWith("---") || first.startsWith("...") || first.startsWith("%")) unsupported();
    const value = this.reuse(this.lines.length, () => this.block(this.indents[this.i] as number));
    this.skipBlank();
    if (this.i < this.lines.length) unsupported();
    return value;
  }

  private skipBlank(): void {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end the indent is undefined, which ends the loop as well.
    while (this.i < this.lines.length && this.indents[this.i] === -1) this.i++;
  }

  private block(indent: number): unknown {
    const content = (this.lines[this.i] as string).slice(indent);
    return content === "-" || content.startsWith("- ") ? this.sequence(indent) : this.mapping(indent);
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skipBlank();
      if (this.i >= this.lines.length) break;
      const line = this.lines[this.i] as string;
      const at = this.indents[this.i] as number;
      if (at < indent) break;
      if (at > indent) unsupported();
      const entry = splitKey(indent === 0 ? line : line.slice(indent));
      if (entry === undefined) unsupported();
      if (Object.hasOwn(out, entry.key) || entry.key === "__proto__" || entry.key === "<<") unsupported();
      out[entry.key] = this.value(entry.rest, indent);
    }
    return out;
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      this.skipBlank();
      if (this.i >= this.lines.length) break;
      const line = this.lines[this.i] as string;
      const at = this.indents[this.i] as number;
      if (at < indent) break;
      if (at > indent) unsupported();
      const content = line.slice(indent);
      if (content !== "-" && !content.startsWith("- ")) break;
      const rest = content.slice(1);
      const inner = rest.trimStart();
      if (inner === "" || inner.startsWith("#")) {
        out.push(this.value(undefined, indent, true));
        continue;
      }
      if (inner === "-" || inner.startsWith("- ")) unsupported();
      if (splitKey(inner) !== undefined) {
        // `- key: value` opens a mapping whose keys sit where `key` starts.
        const keyIndent = indent + 1 + (rest.length - inner.length);
        this.lines[this.i] = " ".repeat(keyIndent) + inner;
        this.indents[this.i] = keyIndent;
        out.push(this.mapping(keyIndent));
        continue;
      }
      out.push(this.value(inner, indent));
    }
    return out;
  }

  /**
   * The value after `key:` (or `- `, an item), on the current line or the lines below. A list
   * at the key's own indent is the key's value; after an empty item it is the next item.
   */
  private value(rest: string | undefined, indent: number, item = false): unknown {
    // Stryker disable next-line ConditionalExpression: a shortcut to the value the lines below give (fast-yaml-edges: "a JSON document…").
    const json = rest === undefined ? undefined : jsonString(rest);
    // Stryker disable next-line ConditionalExpression,BlockStatement: the same shortcut.
    if (json !== undefined) {
      this.i++;
      this.noContinuation(indent);
      return json;
    }
    if (rest !== undefined && (rest[0] === '"' || rest[0] === "'") && !closesOnLine(rest)) {
      // `rest` comes trimmed: spaces before the first break are looked for on the line itself.
      if ((this.lines[this.i] as string).endsWith(" ")) unsupported();
      this.i++;
      const value = this.quotedLines(rest, indent);
      this.noContinuation(indent);
      return value;
    }
    const text = rest === undefined ? "" : stripComment(rest);
    this.i++;
    if (text === "") {
      this.skipBlank();
      if (this.i >= this.lines.length) return null;
      const line = this.lines[this.i] as string;
      const at = this.indents[this.i] as number;
      // `annotations:` then `{}` on the line below, as `toYaml … | nindent` writes an empty map.
      if (at > indent && (line[at] === "{" || line[at] === "[")) return this.value(line.slice(at), indent);
      if (at > indent) return this.reuse(this.blockEnd(indent), () => this.block(at));
      if (!item && at === indent && (line.slice(at) === "-" || line.startsWith("- ", at))) return this.sequence(indent);
      return null;
    }
    if (text.startsWith("|")) return this.literal(text, indent);
    let value: unknown;
    if (text.startsWith("[") || text.startsWith("{")) {
      const flow = new Flow(text);
      value = flow.node();
      flow.end();
    } else if (text[0] !== '"' && text[0] !== "'" && this.continues(indent)) {
      return this.multiline(text, indent);
    } else {
      value = scalar(text);
    }
    this.noContinuation(indent);
    return value;
  }

  /** Whether the next content line is deeper than `indent` (a plain scalar going on). */
  private continues(indent: number): boolean {
    let j = this.i;
    while (j < this.lines.length && this.indents[j] === -1) j++;
    return j < this.lines.length && (this.indents[j] as number) > indent;
  }

  /**
   * A plain scalar over several lines: lines joined by spaces, each run of
   * blank lines kept as that many line breaks (YAML's line folding).
   */
  private multiline(first: string, indent: number): string {
    if (scalar(first) !== first) unsupported();
    let out = first;
    let breaks = 0;
    while (this.i < this.lines.length) {
      const line = this.lines[this.i] as string;
      const at = this.indents[this.i] as number;
      if (at === -1) {
        // Blank (a comment line here is refused below, as js-yaml would end the scalar).
        if (line.trim() !== "") unsupported();
        breaks++;
        this.i++;
        continue;
      }
      if (at <= indent) break;
      const trimmed = line.charCodeAt(line.length - 1) === 32 ? line.slice(at).trimEnd() : line.slice(at);
      // A line going on a plain scalar may start with any character YAML uses as an indicator
      // (`Pod`, 'AzureChina', - x, [x]…): only a comment line ends it, and `: ` below is refused.
      if (trimmed.includes(": ") || trimmed.includes(" #") || trimmed.charCodeAt(trimmed.length - 1) === 58) unsupported();
      out += breaks === 0 ? ` ${trimmed}` : "\n".repeat(breaks) + trimmed;
      breaks = 0;
      this.i++;
    }
    // Blank lines after the scalar are not part of it.
    return out;
  }

  /**
   * A quoted scalar over several lines, as operator CRDs write long
   * descriptions: each line break folds to a space, a run of blank lines to
   * that many line breaks, the continuation lines' leading spaces go, and in
   * double quotes a backslash at the end of a line joins without a space.
   */
  private quotedLines(first: string, indent: number): string {
    const quote = first[0] as string;
    const raw: string[] = [first.slice(1)];
    for (;;) {
      if (this.i >= this.lines.length) unsupported();
      const line = this.lines[this.i] as string;
      this.i++;
      if (line.trim() === "") {
        raw.push("");
        continue;
      }
      if (indentOf(line) <= indent) unsupported();
      const close = closingIn(line, quote);
      if (close === -1) {
        raw.push(line);
        continue;
      }
      const tail = line.slice(close + 1).trim();
      if (tail !== "" && !tail.startsWith("#")) unsupported();
      raw.push(line.slice(0, close));
      break;
    }
    let out = "";
    let breaks = 0;
    let joined = false;
    for (let k = 0; k < raw.length; k++) {
      const last = k === raw.length - 1;
      let segment = k === 0 ? (raw[k] as string) : (raw[k] as string).replace(/^ +/, "");
      if (!last && k > 0 && segment === "") {
        breaks++;
        continue;
      }
      let escapedBreak = false;
      if (!last) {
        const slashes = (/\\+$/.exec(segment)?.[0].length ?? 0) % 2 === 1;
        if (quote === '"' && slashes) {
          segment = segment.slice(0, -1);
          escapedBreak = true;
        } else if (segment.endsWith(" ")) {
          // Spaces before a line break: YAML drops them, js-yaml (the fallback) keeps them; neither is guessed.
          unsupported();
        }
      }
      if (k > 0 && !joined) out += breaks === 0 ? " " : "\n".repeat(breaks);
      breaks = 0;
      out += quote === '"' ? doubleQuoted(segment) : singleQuoted(segment);
      joined = escapedBreak;
    }
    return out;
  }

  /** A scalar that goes on below its own line is beyond this reader. */
  private noContinuation(indent: number): void {
    let j = this.i;
    while (j < this.lines.length && this.indents[j] === -1) j++;
    if (j < this.lines.length && (this.indents[j] as number) > indent) unsupported();
  }

  private literal(header: string, indent: number): string {
    if (header !== "|" && header !== "|-") unsupported();
    const start = this.i;
    let first = start;
    while (first < this.lines.length && (this.lines[first] as string).trim() === "") first++;
    if (first >= this.lines.length) unsupported();
    const content = indentOf(this.lines[first] as string);
    if (content <= indent) unsupported();
    const kept: string[] = [];
    let j = start;
    for (; j < this.lines.length; j++) {
      const line = this.lines[j] as string;
      if (line.trim() === "") {
        if (line.length > content) unsupported();
        kept.push("");
        continue;
      }
      const at = indentOf(line);
      if (at < content) {
        if (at > indent) unsupported();
        break;
      }
      kept.push(line.slice(content));
    }
    // Trailing blank lines belong to the scalar's line breaks, which clip and strip drop.
    let end = kept.length;
    while (end > 0 && kept[end - 1] === "") end--;
    this.i = j;
    const body = kept.slice(0, end).join("\n");
    return header === "|-" ? body : `${body}\n`;
  }
}

/** `key: rest` → the key and the rest; undefined when the line is not a mapping entry. */
function splitKey(content: string): { key: string; rest: string | undefined } | undefined {
  let key: string;
  let after: number;
  const quote = content[0];
  if (quote === '"' || quote === "'") {
    const close = content.indexOf(quote, 1);
    if (close === -1) return undefined;
    const raw = content.slice(1, close);
    if (quote === '"' && raw.includes("\\")) unsupported();
    if (quote === "'" && content[close + 1] === "'") unsupported();
    key = raw;
    after = close + 1;
    while (content[after] === " ") after++;
    if (content[after] !== ":") return undefined;
  } else {
    let colon = -1;
    for (let k = 0; k < content.length; k++) {
      if (content[k] === ":" && (k + 1 === content.length || content[k + 1] === " ")) {
        colon = k;
        break;
      }
      if (content[k] === "#" && k > 0 && content[k - 1] === " ") return undefined;
    }
    if (colon === -1) return undefined;
    key = content.slice(0, colon).trimEnd();
    if (key === "" || /^[-?:,[\]{}#&*!|>'"%@`]/.test(key)) return undefined;
    if (scalar(key) !== key) unsupported();
    after = colon;
  }
  const rest = content.slice(after + 1);
  if (rest !== "" && !rest.startsWith(" ")) unsupported();
  const trimmed = rest.trim();
  return { key, rest: trimmed === "" ? undefined : trimmed };
}

/**
 * A one-line double-quoted scalar that is a JSON string as well (JSON's
 * escapes only, no control character), read by JSON.parse: the value the
 * escapes below give, read natively. A dashboard rendered into a ConfigMap
 * is one such line of thousands of `\"`, which a cold process otherwise
 * walks escape by escape.
 */
// Stryker disable BlockStatement,ConditionalExpression,EqualityOperator,LogicalOperator,MethodExpression: without the shortcut the escapes below give the same value; a plain scalar
// JSON reads otherwise (`-0`) shows in fast-yaml-edges.
function jsonString(text: string): string | undefined {
  if (text[0] !== '"' || !text.endsWith('"')) return undefined;
  try {
    return JSON.parse(text) as string;
  } catch {
    return undefined;
  }
}
// Stryker restore BlockStatement,ConditionalExpression,EqualityOperator,LogicalOperator,MethodExpression

/** Whether a quoted scalar opening `text` closes on the same line. */
function closesOnLine(text: string): boolean {
  return closingIn(text, text[0] as string, 1) !== -1;
}

/**
 * Where the first unescaped `quote` is in `text` from `from` on, or −1: a
 * double quote after an odd run of backslashes is escaped, a single quote
 * doubled is one. Found by indexOf: a rendered dashboard is one line of
 * thousands of escaped quotes, which a loop over every character read slowly
 * in a cold process. Callers start just past the opening quote, or at a
 * line's start: no backslash before `from` is counted.
 */
function closingIn(text: string, quote: string, from = 0): number {
  let k = from;
  for (;;) {
    const at = text.indexOf(quote, k);
    if (at === -1) return -1;
    if (quote === "'") {
      if (text[at + 1] !== "'") return at;
      k = at + 2;
      continue;
    }
    let b = at;
    while (text[b - 1] === "\\") b--;
    if ((at - b) % 2 === 0) return at;
    k = at + 1;
  }
}

function singleQuoted(raw: string): string {
  if (raw.replace(/''/g, "").includes("'")) unsupported();
  return raw.replace(/''/g, "'");
}

/** Drop a trailing ` # comment` outside quotes. */
function stripComment(text: string): string {
  if (text.startsWith("#")) return "";
  if (text.startsWith('"') || text.startsWith("'")) {
    const end = closingQuote(text, 0);
    const tail = text.slice(end + 1).trim();
    if (tail !== "" && !tail.startsWith("#")) unsupported();
    return text.slice(0, end + 1);
  }
  const hash = text.indexOf(" #");
  return (hash === -1 ? text : text.slice(0, hash)).trimEnd();
}

function closingQuote(text: string, start: number): number {
  const at = closingIn(text, text[start] as string, start + 1);
  // Stryker disable next-line ConditionalExpression: each caller refuses a −1 as well (nothing closes at the text's start).
  return at === -1 ? unsupported() : at;
}

const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\x85",
  _: "\xa0",
  L: "\u2028",
  P: "\u2029",
};

/** A double-quoted scalar's body with its escapes read: the text between backslashes is copied whole. */
function doubleQuoted(raw: string): string {
  let at = raw.indexOf("\\");
  let out = "";
  let from = 0;
  while (at !== -1) {
    out += raw.slice(from, at);
    const next = raw[at + 1] as string;
    const width = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
    if (width > 0) {
      const hex = raw.slice(at + 2, at + 2 + width);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) unsupported();
      out += String.fromCodePoint(parseInt(hex, 16));
    } else if (Object.hasOwn(ESCAPES, next)) {
      out += ESCAPES[next];
    } else {
      unsupported();
    }
    from = at + 2 + width;
    at = raw.indexOf("\\", from);
  }
  return out + raw.slice(from);
}

/** A one-line scalar as Kubernetes reads it (YAML 1.1: see kube-yaml.ts). */
function scalar(text: string): unknown {
  const c = text.charCodeAt(0);
  if (c === 34 || c === 39) {
    const end = closingQuote(text, 0);
    if (end !== text.length - 1) unsupported();
    const inner = text.slice(1, -1);
    return c === 34 ? doubleQuoted(inner) : inner.replace(/''/g, "'");
  }
  if (text.includes(": ") || text.includes(" #") || text.charCodeAt(text.length - 1) === 58) unsupported();
  // Most values start with a letter: only YAML 1.1's words (true, yes, on, n, null…) are not text.
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) return kubernetesScalar(text);
  if (/^[[\]{},&*!|>%@`?]/.test(text) || text.startsWith("- ") || text === "-") unsupported();
  return kubernetesScalar(text);
}

/** A one-line flow collection: `[a, "b", {c: 1}]`, `{ name: x, port: 80 }`. */
class Flow {
  private k = 0;

  constructor(private readonly text: string) {}

  node(): unknown {
    this.space();
    const char = this.text[this.k];
    if (char === "[") return this.list();
    if (char === "{") return this.map();
    return this.scalar(false);
  }

  end(): void {
    this.space();
    if (this.k !== this.text.length) unsupported();
  }

  private space(): void {
    while (this.text[this.k] === " ") this.k++;
  }

  private list(): unknown[] {
    const out: unknown[] = [];
    this.k++;
    this.space();
    if (this.text[this.k] === "]") {
      this.k++;
      return out;
    }
    for (;;) {
      out.push(this.node());
      this.space();
      const char = this.text[this.k++];
      if (char === "]") return out;
      if (char !== ",") unsupported();
      this.space();
      if (this.text[this.k] === "]") unsupported();
    }
  }

  private map(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.k++;
    this.space();
    if (this.text[this.k] === "}") {
      this.k++;
      return out;
    }
    for (;;) {
      this.space();
      const key = this.scalar(true);
      if (typeof key !== "string" || Object.hasOwn(out, key) || key === "__proto__") unsupported();
      if (this.text[this.k] !== ":" || (this.text[this.k + 1] !== " " && this.text[this.k + 1] !== undefined)) unsupported();
      this.k++;
      out[key] = this.node();
      this.space();
      const char = this.text[this.k++];
      if (char === "}") return out;
      if (char !== ",") unsupported();
      this.space();
      if (this.text[this.k] === "}") unsupported();
    }
  }

  private scalar(isKey: boolean): unknown {
    const char = this.text[this.k];
    if (char === '"' || char === "'") {
      const end = closingQuote(this.text, this.k);
      const value = scalar(this.text.slice(this.k, end + 1));
      this.k = end + 1;
      this.space();
      return value;
    }
    const start = this.k;
    while (this.k < this.text.length) {
      const c = this.text[this.k];
      if (c === "," || c === "]" || c === "}" || c === "[" || c === "{") break;
      if (c === ":" && (this.text[this.k + 1] === " " || this.text[this.k + 1] === undefined || this.text[this.k + 1] === ",")) break;
      if (c === "#" && this.text[this.k - 1] === " ") unsupported();
      this.k++;
    }
    const raw = this.text.slice(start, this.k).trim();
    if (raw === "") unsupported();
    const value = scalar(raw);
    if (isKey && value !== raw) unsupported();
    return value;
  }
}
