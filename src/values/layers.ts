import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Node } from "yaml";
import { ChartroomError } from "../errors/index.js";
import type { ValuesLayer } from "../model/values.js";
import { isRecord } from "../util/json.js";
import type { Values } from "./coalesce.js";

export interface Position {
  file: string;
  line: number;
  column: number;
}

/** A values layer parsed, with where each key was written (path as JSON → position). */
export interface ParsedLayer extends ValuesLayer {
  values: Values;
  positions: Map<string, Position>;
}

export function pathKey(path: readonly (string | number)[]): string {
  return JSON.stringify(path);
}

/**
 * A chart's values files for a stack, lowest precedence first:
 * `values/<chart>/values.yaml`, then `values/<chart>/<stack>.yaml`. A file
 * holding several YAML documents gives one layer per document, in order.
 */
export async function readValuesLayers(configDir: string, chart: string, stack: string | undefined): Promise<ParsedLayer[]> {
  const names = [`values/${chart}/values.yaml`, ...(stack === undefined ? [] : [`values/${chart}/${stack}.yaml`])];
  const layers: ParsedLayer[] = [];
  for (const name of names) {
    const text = await readFile(join(configDir, name), "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (text !== undefined) layers.push(...parseValuesFile(name, text));
  }
  return layers;
}

export function parseValuesFile(name: string, text: string): ParsedLayer[] {
  const counter = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter: counter });
  const list = Array.isArray(documents) ? documents : [documents];
  const layers: ParsedLayer[] = [];
  for (const document of list) {
    const error = document.errors[0];
    if (error !== undefined) {
      const at = counter.linePos(error.pos[0]);
      throw new ChartroomError("CONFIG_INVALID", `${name} is not valid YAML: ${error.message.split("\n")[0]}`, {
        place: { file: name, line: at.line, column: at.col },
        hint: "fix the YAML syntax in the values file",
      });
    }
    const values = document.toJS() as unknown;
    if (values === null || values === undefined) continue;
    if (!isRecord(values)) {
      throw new ChartroomError("CONFIG_INVALID", `${name} must hold a map of values`, { place: { file: name }, hint: "values files are YAML maps: key: value" });
    }
    const positions = new Map<string, Position>();
    collect(document.contents, [], name, counter, positions);
    // Each document is its own layer; the text passed to helm is that document alone.
    const start = document.range[0];
    const end = document.range[2];
    layers.push({ name: list.length > 1 ? `${name}#${layers.length + 1}` : name, text: text.slice(start, end), values, positions });
  }
  return layers;
}

function collect(node: Node | null, path: (string | number)[], file: string, counter: LineCounter, out: Map<string, Position>): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const range = (pair.key as { range?: [number, number, number] } | null)?.range;
      const at = range === undefined ? { line: 0, col: 0 } : counter.linePos(range[0]);
      out.set(pathKey([...path, key]), { file, line: at.line, column: at.col });
      collect(pair.value as Node | null, [...path, key], file, counter, out);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => collect(item as Node | null, [...path, index], file, counter, out));
  }
}

/** Where the highest-precedence layer that sets `path` (or its nearest ancestor) wrote it. */
export function positionOf(layers: readonly ParsedLayer[], path: readonly (string | number)[]): Position | undefined {
  for (let length = path.length; length > 0; length--) {
    const key = pathKey(path.slice(0, length));
    for (let i = layers.length - 1; i >= 0; i--) {
      const hit = layers[i]?.positions.get(key);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}
