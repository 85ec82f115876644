import { parseAllDocuments } from "yaml";
import { isRecord } from "../util/json.js";

// The names of the CustomResourceDefinitions in a chart's crds/ file. An
// operator's CRD is hundreds of KB of schema around two short lines (`kind`,
// and `name` under `metadata`); parsing all of it with a YAML library took a
// fifth of a cold review of such a chart. Each document's top-level lines are
// read instead, and only a document written some other way (flow style,
// anchors, tags, a value over several lines) is parsed whole.

/** metadata.name of every CustomResourceDefinition in a crds/ file's text (YAML, or JSON). */
export function crdNamesIn(text: string): string[] {
  const names: string[] = [];
  for (const document of documents(text)) {
    const scanned = scan(document);
    const found = scanned === undefined ? parsed(document) : scanned;
    names.push(...found);
  }
  return names;
}

/** The file cut at its document markers (`---` and `...` lines); directives and what they govern are left to the full parse. */
function documents(text: string): string[] {
  // A line starting with %, as /^%/m finds it (after any line terminator), without a regex's pass over every line.
  if (text.startsWith("%") || ["\n%", "\r%", "\u2028%", "\u2029%"].some((start) => text.includes(start))) return [text];
  const out: string[] = [];
  let from = 0;
  // A marker line: three dashes or dots at the start of a line, then a space (a carriage return counts) or the line's end.
  const markers = /(?:^|\n)(?:---|\.\.\.)(?=\s|$)/g;
  for (let found = markers.exec(text); found !== null; found = markers.exec(text)) {
    const start = found[0].startsWith("\n") ? found.index + 1 : found.index;
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    // Up to the marker, its newline kept (a trailing newline changes no name).
    out.push(text.slice(from, start));
    from = opensDocument(text.slice(start, end)) ? start : end + 1;
    markers.lastIndex = end;
  }
  out.push(text.slice(from));
  return out.filter((document) => document.trim() !== "");
}

// Content after `--- ` on the marker's own line is the next document's: too unusual to scan.
function opensDocument(marker: string): boolean {
  const rest = marker.slice(3).trim();
  return marker.startsWith("---") && rest !== "" && !rest.startsWith("#");
}

function parsed(document: string): string[] {
  const names: string[] = [];
  for (const item of parseAllDocuments(document)) {
    const object = item.toJS() as unknown;
    if (isRecord(object) && object.kind === "CustomResourceDefinition" && isRecord(object.metadata) && typeof object.metadata.name === "string") {
      names.push(object.metadata.name);
    }
  }
  return names;
}

const KEY = /^([A-Za-z_][\w.-]*):(?:[ ]+(.*))?$/;

/**
 * The CRD name of one document from its top-level lines: [] when it is not a
 * CRD, undefined when the lines that matter are written in a way this reading
 * does not take (the caller then parses the document).
 */
function scan(document: string): string[] | undefined {
  let kind: string | undefined;
  let name: string | undefined;
  let inMetadata = false;
  let childIndent: number | undefined;
  if (/^\s*[[{"']/.test(document.replace(/^(\s*#.*\n)*/, ""))) return undefined;
  let end = -1;
  const tabs = document.includes("\t");
  for (let start = 0; start <= document.length; start = inMetadata ? end + 1 : nextLineRead(document, end, tabs)) {
    end = document.indexOf("\n", start);
    if (end === -1) end = document.length;
    const line = document.slice(start, end);
    const body = line.trimStart();
    if (body === "" || body.startsWith("#")) continue;
    const indent = line.length - body.length;
    if (line.slice(0, indent).includes("\t")) return undefined;
    if (indent === 0) {
      inMetadata = false;
      const key = KEY.exec(line.trimEnd());
      if (key === null) return undefined;
      const value = key[2] === undefined ? undefined : scalar(key[2]);
      if (key[1] === "kind") {
        if (value === undefined) return undefined;
        kind = value;
      } else if (key[1] === "metadata") {
        if (key[2] !== undefined && !key[2].startsWith("#")) return undefined;
        inMetadata = true;
        childIndent = undefined;
      }
      continue;
    }
    if (!inMetadata) continue;
    childIndent ??= indent;
    if (indent !== childIndent) continue;
    const key = KEY.exec(body.trimEnd());
    if (key === null) return undefined;
    if (key[1] === "name") {
      name = key[2] === undefined ? undefined : scalar(key[2]);
      if (name === undefined) return undefined;
    }
  }
  if (kind !== "CustomResourceDefinition") return [];
  return name === undefined ? undefined : [name];
}

// A line the reading below acts on outside metadata: one that starts at the
// margin, or whose indentation holds a tab. Every other line is indented by
// spaces, and is passed over: the bulk of a CRD (its spec, hundreds of KB)
// is skipped by one search, no line cut out. Without a tab in the text, the
// search need not look into each line's indentation (twice as fast).
const AT_MARGIN = /\n[^ \n]/g;
const AT_MARGIN_OR_TAB = /\n(?=[^ \n]|[^\S\n]*\t)/g;

/** Where the next line to read starts, after the line ending at `end` (past the text when there is none). */
function nextLineRead(text: string, end: number, tabs: boolean): number {
  const search = tabs ? AT_MARGIN_OR_TAB : AT_MARGIN;
  search.lastIndex = end;
  const found = search.exec(text);
  return found === null ? text.length + 1 : found.index + 1;
}

// Plain scalars YAML reads as null, a boolean or a number.
const NOT_A_STRING =
  /^(null|Null|NULL|~|true|True|TRUE|false|False|FALSE|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$/;

/** A one-line scalar as YAML reads it (plain, single- or double-quoted, a trailing comment dropped); undefined for anything else. */
function scalar(raw: string): string | undefined {
  const text = raw.trim();
  if (text.startsWith('"')) {
    const end = /^"((?:[^"\\]|\\["\\/])*)"\s*(#.*)?$/.exec(text);
    return end === null ? undefined : (end[1] as string).replace(/\\(["\\/])/g, "$1");
  }
  if (text.startsWith("'")) {
    const end = /^'((?:[^']|'')*)'\s*(#.*)?$/.exec(text);
    return end === null ? undefined : (end[1] as string).replace(/''/g, "'");
  }
  const plain = text.replace(/\s+#.*$/, "");
  // Indicators, and what would make it something other than a string of its own text.
  if (plain === "" || /^[-?:,[\]{}#&*!|>'"%@`]/.test(plain) || /:\s|\s#/.test(plain) || NOT_A_STRING.test(plain)) return undefined;
  return plain;
}
