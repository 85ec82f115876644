/**
 * A fast reader for the block-style YAML that `helm repo index` and most
 * repository tools write. It picks out only the fields chartroom keeps and
 * returns undefined the moment a line is not in that plain shape (flow
 * collections, anchors, tags, escapes, tabs, multi-line quoted values,
 * duplicate keys…), so the caller falls back to the full YAML parser. Where
 * it answers, it answers exactly what the full parser would.
 */
export type RawEntry = Record<string, string | string[] | null>;

const WANTED = new Set(["version", "appVersion", "digest", "created", "deprecated", "urls"]);
const KEY_LINE = /^([A-Za-z0-9_./-]+):(?: (.*))?$/;
const UNSAFE_START = /^[[{&*!|>%@`]/;

export function scanIndex(text: string): Map<string, RawEntry[]> | undefined {
  if (text.includes("\t") || text.includes("\r")) return undefined;
  const lines = text.split("\n");
  // Keys the scan skips may still repeat: the full parser reports where.
  if (hasDuplicateKey(lines)) return undefined;
  const start = findEntries(lines);
  if (start === undefined) return undefined;
  const charts = new Map<string, RawEntry[]>();
  let i = start + 1;
  let nameIndent = -1;
  while (i < lines.length) {
    const line = lines[i] as string;
    const indent = indentOf(line);
    if (indent < 0) {
      i++;
      continue;
    }
    if (indent === 0) break;
    if (nameIndent === -1) nameIndent = indent;
    if (indent !== nameIndent) return undefined;
    const name = /^([^\s:#'"[\]{},&*!|>%@`-][^:\s]*):$/.exec(line.slice(indent))?.[1];
    if (name === undefined || charts.has(name)) return undefined;
    const items = scanItems(lines, i + 1, nameIndent);
    if (items === undefined) return undefined;
    charts.set(name, items.entries);
    i = items.next;
  }
  return plainLines(lines, 0, start) && plainLines(lines, i, lines.length) ? charts : undefined;
}

function findEntries(lines: string[]): number | undefined {
  let found: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === "entries:") {
      // Stryker disable next-line ConditionalExpression: hasDuplicateKey has refused a second entries: before this runs.
      if (found !== undefined) return undefined;
      found = i;
    } else if (line.startsWith("entries:") || line.startsWith("---") || line.startsWith("%")) {
      return undefined;
    }
  }
  return found;
}

/**
 * Lines the scan does not keep (apiVersion and generated around the entries,
 * the nested values of fields it skips) must still be ones the full parse
 * reads: `key: value`, `key:` and `- ` items with plain one-line values, empty
 * maps and lists, block scalars (whose lines are not read), quoted values that
 * close, and plain values going on below that do not turn into keys.
 */
function plainLines(lines: string[], from: number, to: number): boolean {
  // The column of the last key (or item) whose value is done: nothing may go on deeper.
  let doneKey = -1;
  const blocks = new Blocks();
  for (let i = from; i < to; i++) {
    const line = lines[i] as string;
    const indent = indentOf(line);
    if (indent < 0) continue;
    if (doneKey >= 0 && indent > doneKey) return false;
    doneKey = -1;
    let column = indent;
    let content = line.slice(indent);
    // Stryker disable next-line ConditionalExpression: a lone dash continues below before item is read.
    const item = content.startsWith("- ") || content === "-";
    let dash = column;
    while (content.startsWith("- ")) {
      if (!blocks.place(column, true)) return false;
      dash = column;
      const rest = content.slice(2);
      column += 2 + rest.length - rest.trimStart().length;
      content = rest.trimStart();
    }
    if (content === "-") {
      if (!blocks.place(column, true)) return false;
      continue;
    }
    const match = KEY_LINE.exec(content);
    // Words on their own line are a list item's value or nothing the full parse reads.
    if (match === null && !item) return false;
    if (match !== null && !blocks.place(column, false, match[2] === undefined || match[2].trim() === "")) return false;
    const value = (match === null ? content : match[2])?.trim();
    if (value === undefined || value === "") continue;
    if (value === "{}" || value === "[]") {
      doneKey = match === null ? dash : column;
      continue;
    }
    if (/^[|>][-+0-9]*$/.test(value)) {
      i = skipDeeper(lines, i + 1, column) - 1;
      continue;
    }
    if (opensQuote(value)) {
      const end = skipDeeper(lines, i + 1, column);
      if (end === i + 1 || !closesQuote(lines[end - 1] as string, value[0] as string)) return false;
      i = end - 1;
      continue;
    }
    if (!plainEnough(value)) return false;
    // An item's value goes on at any column right of its dash, a key's right of the key.
    const owner = match === null ? dash : column;
    if (value[0] === '"' || value[0] === "'") {
      doneKey = owner;
      continue;
    }
    const end = skipContinuation(lines, i + 1, owner);
    if (end === undefined) return false;
    i = end - 1;
  }
  return true;
}

/**
 * The maps and lists open at each column, so that a list item where a map's
 * key belongs (or a key among list items) is refused, as the full parse
 * refuses it; a list may sit at the column of the key it belongs to.
 */
class Blocks {
  // Stryker disable next-line ArrayDeclaration: a stray first element has no column, so it acts as the empty stack.
  private readonly open: { column: number; item: boolean; listUnderKey: boolean }[] = [];
  // Stryker disable next-line UnaryOperator: read only once something is open, after a place has set it.
  private emptyKey = -1;

  // Stryker disable next-line BooleanLiteral: items never pass emptyValue and keys always do.
  place(column: number, item: boolean, emptyValue = false): boolean {
    while ((this.open.at(-1)?.column ?? -1) > column) this.open.pop();
    const top = this.open.at(-1);
    const emptyKey = this.emptyKey;
    this.emptyKey = !item && emptyValue ? column : -1;
    if (top === undefined || top.column !== column) {
      this.open.push({ column, item, listUnderKey: false });
      return true;
    }
    if (top.item === item) {
      if (!item) top.listUnderKey = false;
      return true;
    }
    // A list at the column of the key above it with no value: that key's value.
    if (item && !top.item && (emptyKey === column || top.listUnderKey)) {
      top.listUnderKey = true;
      return true;
    }
    return false;
  }
}

/** −1 for blank and comment-only lines. */
function indentOf(line: string): number {
  let n = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end charCodeAt is NaN, which stops the loop alike.
  while (n < line.length && line.charCodeAt(n) === 32) n++;
  if (n === line.length || line.charCodeAt(n) === 35) return -1;
  return n;
}

function scanItems(lines: string[], from: number, nameIndent: number): { entries: RawEntry[]; next: number } | undefined {
  const entries: RawEntry[] = [];
  let i = from;
  let itemIndent = -1;
  while (i < lines.length) {
    const line = lines[i] as string;
    const indent = indentOf(line);
    if (indent < 0) {
      i++;
      continue;
    }
    if (indent <= nameIndent && !(indent === nameIndent && line.startsWith("- ", indent))) break;
    if (itemIndent === -1) itemIndent = indent;
    if (indent !== itemIndent || !line.startsWith("- ", indent)) return undefined;
    const item = scanFields(lines, i, itemIndent + 2);
    if (item === undefined) return undefined;
    entries.push(item.entry);
    i = item.next;
  }
  if (itemIndent === -1) return undefined;
  return { entries, next: i };
}

/** The fields of one list item; the first sits on the `- ` line itself. */
function scanFields(lines: string[], from: number, fieldIndent: number): { entry: RawEntry; next: number } | undefined {
  const entry: RawEntry = {};
  const seen = new Set<string>();
  let i = from;
  let first = true;
  while (i < lines.length) {
    const line = lines[i] as string;
    const indent = first ? fieldIndent : indentOf(line);
    if (indent < 0) {
      i++;
      continue;
    }
    if (indent < fieldIndent) break;
    if (indent > fieldIndent) {
      // Inside a nested value of a field we do not keep.
      i++;
      continue;
    }
    first = false;
    const match = KEY_LINE.exec(line.slice(fieldIndent));
    if (match === null) return undefined;
    const key = match[1] as string;
    // Stryker disable next-line ConditionalExpression: hasDuplicateKey has refused a repeated field before this runs.
    if (seen.has(key)) return undefined;
    seen.add(key);
    const value = match[2]?.trimStart();
    i++;
    if (!WANTED.has(key)) {
      if (value === undefined || value === "") {
        const end = skipNested(lines, i, fieldIndent);
        if (!plainLines(lines, i, end)) return undefined;
        i = end;
      } else if (opensQuote(value)) {
        // A quoted value we do not keep may continue on deeper lines (the
        // full parser refuses shallower ones); it must close on the last.
        const end = skipDeeper(lines, i, fieldIndent);
        if (end === i || !closesQuote(lines[end - 1] as string, value[0] as string)) return undefined;
        i = end;
      } else if (!plainEnough(value)) return undefined;
      else if (!/^[|>]/.test(value)) {
        const end = skipContinuation(lines, i, fieldIndent);
        if (end === undefined) return undefined;
        i = end;
      }
      continue;
    }
    if (key === "urls") {
      const list = value === undefined || value === "" ? scanList(lines, i, fieldIndent) : value === "[]" ? { items: [], next: i } : undefined;
      if (list === undefined) return undefined;
      entry.urls = list.items;
      i = list.next;
      continue;
    }
    const scalar = value === undefined || value === "" ? null : unquote(value);
    if (scalar === undefined) return undefined;
    // A kept value that goes on below (or a list under an empty one) is the full parse's to read.
    if (nextIsNested(lines, i, fieldIndent)) return undefined;
    entry[key] = scalar;
  }
  return { entry, next: i };
}

/** A block list of scalars, written either at the key's indent or deeper. */
function scanList(lines: string[], from: number, keyIndent: number): { items: string[]; next: number } | undefined {
  const items: string[] = [];
  let i = from;
  let listIndent = -1;
  while (i < lines.length) {
    const line = lines[i] as string;
    const indent = indentOf(line);
    if (indent < 0) {
      i++;
      continue;
    }
    if (indent < keyIndent || !line.startsWith("- ", indent)) break;
    if (listIndent === -1) listIndent = indent;
    if (indent !== listIndent) return undefined;
    const value = unquote(line.slice(indent + 2));
    if (value === undefined || value === null) return undefined;
    items.push(value);
    i++;
  }
  return { items, next: i };
}

/** Past a nested value: deeper lines, and a list written at the key's own indent. */
function skipNested(lines: string[], from: number, indent: number): number {
  let i = from;
  let inList = false;
  while (i < lines.length) {
    const line = lines[i] as string;
    const next = indentOf(line);
    if (next < 0 || next > indent) {
      i++;
      continue;
    }
    if (next === indent && line.startsWith("- ", next) && (inList || i === firstContent(lines, from))) {
      inList = true;
      i++;
      continue;
    }
    break;
  }
  return i;
}

function firstContent(lines: string[], from: number): number {
  let i = from;
  while (i < lines.length && indentOf(lines[i] as string) < 0) i++;
  return i;
}

function nextIsNested(lines: string[], from: number, indent: number): boolean {
  for (let i = from; i < lines.length; i++) {
    const next = indentOf(lines[i] as string);
    if (next >= 0) return next > indent || (next === indent && (lines[i] as string).startsWith("- ", next));
  }
  return false;
}

/**
 * A value of a field we skip must still not open something that spans lines
 * unseen, nor be one the full parse refuses (`: ` inside, a closing quote with
 * text after it): the scan answers only where the full parse would.
 */
function plainEnough(value: string): boolean {
  if (/^[|>][-+0-9]*$/.test(value) || value.startsWith("#")) return true;
  const quote = value[0];
  if (quote === '"' || quote === "'") {
    const tail = value.slice(value.lastIndexOf(quote) + 1).trim();
    return tail === "" || tail.startsWith("#");
  }
  const hash = value.indexOf(" #");
  return !notPlain(hash === -1 ? value : value.slice(0, hash).trimEnd());
}

/** A one-line plain scalar the full parse refuses, or reads as more than text. */
function notPlain(text: string): boolean {
  const c = text.charCodeAt(0);
  // Most values start with a letter, a digit or a slash, which open nothing (checked first: indexes are large).
  // Stryker disable next-line all: a shortcut; a mutant that skips it is equivalent (the patterns below match
  // nothing that starts so), and one that takes it for a bracket is caught, but Stryker cannot disable by side.
  const ordinary = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 47;
  if (!ordinary && (UNSAFE_START.test(text) || /^[\]},]|^[-?:](?: |$)/.test(text))) return true;
  return text.includes(": ") || text.endsWith(":");
}

/**
 * Past the lines that go on a plain value we skip (go-yaml wraps long
 * descriptions so), or undefined when one would not read as its continuation:
 * a key or a comment in it the full parse refuses, and a comment line ends the
 * value, so nothing deeper may follow it.
 */
function skipContinuation(lines: string[], from: number, indent: number): number | undefined {
  let comment = false;
  let i = from;
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    const trimmed = line.trim();
    if (trimmed === "") continue;
    const at = indentOf(line);
    if (at === -1) {
      comment = true;
      continue;
    }
    if (at <= indent) break;
    if (comment || trimmed.includes(": ") || trimmed.endsWith(":") || trimmed.includes(" #")) return undefined;
  }
  return i;
}

/** A quoted scalar that does not close on its own line. */
function opensQuote(value: string): boolean {
  const quote = value[0];
  if (quote !== '"' && quote !== "'") return false;
  return !closesQuote(value.slice(1), quote);
}

function closesQuote(text: string, quote: string): boolean {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith(quote)) return false;
  if (quote === "'") return true;
  let slashes = 0;
  for (let k = trimmed.length - 2; k >= 0 && trimmed[k] === "\\"; k--) slashes++;
  return slashes % 2 === 0;
}

function skipDeeper(lines: string[], from: number, indent: number): number {
  let i = from;
  let end = from;
  while (i < lines.length) {
    const next = indentOf(lines[i] as string);
    if (next >= 0 && next <= indent) break;
    i++;
    if (next >= 0) end = i;
  }
  return end;
}

/** The string a failsafe YAML parser gives for a one-line scalar, or undefined when unsure. */
function unquote(value: string): string | null | undefined {
  if (value.startsWith('"')) {
    if (value.length < 2 || !value.endsWith('"') || value.includes("\\")) return undefined;
    const inner = value.slice(1, -1);
    return inner.includes('"') ? undefined : inner;
  }
  if (value.startsWith("'")) {
    if (value.length < 2 || !value.endsWith("'")) return undefined;
    const inner = value.slice(1, -1);
    if (inner.replace(/''/g, "").includes("'")) return undefined;
    return inner.replace(/''/g, "'");
  }
  // `#…` is a comment (the value is null), `~` and `null` the full parse's to read.
  if (notPlain(value) || value.startsWith("#") || value.includes(" #") || value === "~" || value === "null") return undefined;
  return value.trimEnd();
}

const ANY_KEY = /^([^\s'"#?][^:]*?):(?: (.*))?$/;

/**
 * Whether any map of the block-style document repeats a key, at any depth,
 * in one pass: maps are tracked by indent (a list item `- ` opens a new one),
 * block scalars and multi-line quoted values are stepped over.
 */
export function hasDuplicateKey(lines: readonly string[]): boolean {
  const frames: { indent: number; keys: Set<string> }[] = [];
  let skipDeeperThan = -1;
  for (const line of lines) {
    const indent = indentOf(line);
    if (indent < 0) continue;
    if (skipDeeperThan >= 0) {
      if (indent > skipDeeperThan) continue;
      skipDeeperThan = -1;
    }
    let at = indent;
    let text = line.slice(indent);
    while (text.startsWith("- ")) {
      const rest = text.slice(2);
      const spaces = rest.length - rest.trimStart().length;
      at += 2 + spaces;
      text = rest.trimStart();
      // A new list item: the maps of the previous item at this depth and deeper are done.
      while (frames.length > 0 && (frames.at(-1)?.indent ?? -1) >= at) frames.pop();
    }
    while (frames.length > 0 && (frames.at(-1)?.indent ?? -1) > at) frames.pop();
    const match = ANY_KEY.exec(text);
    if (match === null) continue;
    let frame = frames.at(-1);
    if (frame === undefined || frame.indent !== at) {
      frame = { indent: at, keys: new Set() };
      frames.push(frame);
    }
    const key = match[1] as string;
    if (frame.keys.has(key)) return true;
    frame.keys.add(key);
    const value = match[2]?.trim() ?? "";
    if (/^[|>][-+0-9]*$/.test(value) || opensQuote(value)) skipDeeperThan = at;
  }
  return false;
}
