import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node } from "yaml";
import { ChartroomError } from "../errors/index.js";
import { rememberSecret } from "../errors/secrets.js";
import type { ValuesLayer } from "../model/values.js";
import { parseBlockYaml, unprintableAt } from "../util/fast-yaml.js";
import { HELM_YAML } from "../util/helm-yaml.js";
import { isRecord } from "../util/json.js";
import type { Values } from "./coalesce.js";
import { secretStrings } from "./secret-keys.js";
import { flagValues, orderedFlags, valuesWithFlags } from "./set-flags.js";

export interface Position {
  /** A file, or a command-line option (`--set`) with line and column 0. */
  file: string;
  line: number;
  column: number;
}

/** A values layer parsed; where each key was written is worked out when a finding asks (path as JSON → position). */
export interface ParsedLayer extends ValuesLayer {
  values: Values;
  positions: () => Map<string, Position>;
}

export function pathKey(path: readonly (string | number)[]): string {
  return JSON.stringify(path);
}

/**
 * The one naming rule of values files: a chart's files for a stack, lowest
 * precedence first, `values/<chart>/values.yaml` then `values/<chart>/<stack>.yaml`.
 * A file holding several YAML documents gives one layer per document, in order.
 */
export function valuesFileNames(chart: string, stack: string | undefined): string[] {
  return [`values/${chart}/values.yaml`, ...(stack === undefined ? [] : [`values/${chart}/${stack}.yaml`])];
}

/** Which chart and stack a file under values/ is for, by the same rule; undefined for a file nothing reads. */
export function valuesFileOf(path: string): { chart: string; stack: string | undefined } | undefined {
  const match = /^values\/([^/]+)\/([^/]+)\.yaml$/.exec(path);
  if (match === null) return undefined;
  return { chart: match[1] ?? "", stack: match[2] === "values" ? undefined : match[2] };
}

/**
 * A values file's layers. Plain block YAML (nearly every values file) is
 * read by the fast reader, with the scalars Helm reads (YAML 1.1 through
 * go-yaml v2); anything else, and every error, by the full parser. Key
 * positions are found only when a finding needs one: a 10 MB file is read in
 * a tenth of a second, and most runs report nothing about it.
 */
export function parseValuesFile(name: string, text: string): ParsedLayer[] {
  const fast = text.length > 0 && !text.includes("\n---") && !text.startsWith("---") ? parseBlockYaml(text) : undefined;
  if (isRecord(fast)) {
    rememberSecretLooking(fast);
    let positions: Map<string, Position> | undefined;
    return [{ name, text, values: fast, positions: () => (positions ??= parsePositions(name, text)) }];
  }
  return parseFully(name, text);
}

/** Where every key of a one-document file is, by the full parser (only when a finding needs it). */
function parsePositions(name: string, text: string): Map<string, Position> {
  return parseFully(name, text)[0]?.positions() ?? new Map();
}

function parseFully(name: string, text: string): ParsedLayer[] {
  refuseUnprintable(name, text);
  const counter = new LineCounter();
  // Duplicate keys are found below in one pass: the parser's own check is quadratic in a map's size.
  // As Helm reads values files: YAML 1.1 (see HELM_YAML).
  const documents = parseAllDocuments(text, { ...HELM_YAML, lineCounter: counter, uniqueKeys: false });
  const list = Array.isArray(documents) ? documents : [documents];
  const layers: ParsedLayer[] = [];
  for (const document of list) {
    const error = document.errors[0];
    if (error !== undefined) {
      const at = counter.linePos(error.pos[0]);
      throw new ChartroomError("VALUES_FILE_INVALID", `${name} is not valid YAML: ${error.message.split("\n")[0]}`, {
        place: { file: name, line: at.line, column: at.col },
        hint: "fix the YAML syntax in the values file",
      });
    }
    const values = toValues(document, name);
    if (values === null || values === undefined) continue;
    if (!isRecord(values)) {
      throw new ChartroomError("VALUES_FILE_INVALID", `${name} must hold a map of values`, {
        place: { file: name },
        hint: "values files are YAML maps: key: value",
      });
    }
    rememberSecretLooking(values);
    const positions = new Map<string, Position>();
    collect(document.contents, [], name, counter, positions);
    // Each document is its own layer; the text passed to helm is that document alone.
    const start = document.range[0];
    const end = document.range[2];
    layers.push({ name: list.length > 1 ? `${name}#${layers.length + 1}` : name, text: text.slice(start, end), values, positions: () => positions });
  }
  return layers;
}

/**
 * A control character anywhere in the file, which Helm 3 and 4 refuse ("yaml:
 * control characters are not allowed") and the full parser here would take.
 * The character itself is not shown: it may be part of a secret.
 */
function refuseUnprintable(name: string, text: string): void {
  const at = unprintableAt(text);
  if (at === -1) return;
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  const line = text.slice(0, lineStart).split("\n").length;
  throw new ChartroomError("VALUES_FILE_INVALID", `${name} is not valid YAML: it holds a control character, which Helm refuses`, {
    place: { file: name, line, column: at - lineStart + 1 },
    hint: 'remove it, or write it as an escape inside double quotes ("\\u0007")',
  });
}

/** The document as plain values; an alias bomb is refused, not expanded. */
function toValues(document: Document, name: string): unknown {
  try {
    return document.toJS({ maxAliasCount: 1000 }) as unknown;
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new ChartroomError("INPUT_TOO_LARGE", `${name} expands too far through YAML aliases (more than 1,000 alias uses, or aliases of aliases)`, {
        place: { file: name },
        hint: "write the values out, or use fewer aliases (a file like this is how YAML alias bombs work)",
      });
    }
    throw error;
  }
}

function collect(node: Node | null, path: (string | number)[], file: string, counter: LineCounter, out: Map<string, Position>): void {
  if (isMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const range = (pair.key as { range?: [number, number, number] } | null)?.range;
      const at = range === undefined ? { line: 0, col: 0 } : counter.linePos(range[0]);
      if (seen.has(key)) {
        throw new ChartroomError("VALUES_FILE_INVALID", `${file} is not valid YAML: the key "${key}" appears twice in the same map`, {
          place: { file, line: at.line, column: at.col },
          hint: "keep one of them (Helm refuses duplicate keys)",
        });
      }
      seen.add(key);
      out.set(pathKey([...path, key]), { file, line: at.line, column: at.col });
      collect(pair.value as Node | null, [...path, key], file, counter, out);
    }
  } else if (isSeq(node)) {
    for (const [index, item] of node.items.entries()) collect(item as Node | null, [...path, index], file, counter, out);
  }
}

/** Where the highest-precedence layer that sets `path` (or its nearest ancestor) wrote it. */
export function positionOf(layers: readonly ParsedLayer[], path: readonly (string | number)[]): Position | undefined {
  for (let length = path.length; length > 0; length--) {
    const key = pathKey(path.slice(0, length));
    for (let i = layers.length - 1; i >= 0; i--) {
      const hit = layers[i]?.positions().get(key);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

/**
 * Strings under keys that look secret are scrubbed from everything chartroom
 * prints from now on (Helm's own messages included), as credentials are.
 */
export function rememberSecretLooking(value: unknown): void {
  for (const text of secretStrings(value)) rememberSecret(text);
}

/**
 * Values files and `--set` flags as Helm ends up with them: the files, then
 * one layer holding the user's values after every flag (parsed into the
 * files' values, in Helm's order), whose positions name the flag for the
 * keys a flag sets and leave every other key to its file.
 */
export function withFlags(files: readonly ParsedLayer[], flags: readonly ValuesLayer[]): ParsedLayer[] {
  if (flags.length === 0) return [...files];
  const values = valuesWithFlags([...files, ...flags], (layer) => layer.values ?? {});
  const positions = new Map<string, Position>();
  for (const flag of orderedFlags(flags)) {
    const walk = (value: unknown, path: (string | number)[]): void => {
      if (path.length > 0) positions.set(pathKey(path), { file: `--${flag.option}`, line: 0, column: 0 });
      if (Array.isArray(value)) for (const [index, item] of value.entries()) walk(item, [...path, index]);
      else if (isRecord(value)) for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
    };
    walk(flagValues(flag), []);
  }
  const name = [...new Set(orderedFlags(flags).map((flag) => `--${flag.option}`))].join(", ");
  return [...files, { name, text: JSON.stringify(values), values, positions: () => positions }];
}

/** Values given beside the platform's files (`-f`, `--set`…): the files parsed into layers, the flags as they are. */
export function splitExtra(extra: readonly ValuesLayer[]): { files: ParsedLayer[]; flags: ValuesLayer[] } {
  return {
    files: extra.filter((layer) => layer.flag === undefined).flatMap((layer) => parseValuesFile(layer.name, layer.text)),
    flags: extra.filter((layer) => layer.flag !== undefined),
  };
}
