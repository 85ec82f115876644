import { ChartroomError } from "../errors/index.js";
import type { SetFlag, ValuesLayer } from "../model/values.js";
import { isRecord } from "../util/json.js";
import { mergeLayers, type Values } from "./coalesce.js";

// `--set`, `--set-string` and `--set-file` read as Helm reads them (its
// strvals parser): `a.b=1,c[0]=x`, `\` escaping the next character, `{x,y}`
// lists, list indices that grow the list with nulls, each flag parsed into
// the values below it (so `a[1]=x` changes one item of a list a values file
// gave). Only the words of the errors are chartroom's: a value never appears
// in one, since a --set value may be a password.

export type SetOption = SetFlag["option"];

/** The text of a `--set-file` path (the caller reads it; this module touches no file). */
export type ReadSetFile = (path: string) => string;

/** Helm's limits (strvals MaxIndex, MaxNestedNameLevel). */
const MAX_INDEX = 65_536;
const MAX_DEPTH = 30;
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/** The order Helm applies them in, whatever the order on the command line. */
export const SET_ORDER: readonly SetOption[] = ["set", "set-string", "set-file"];

/** Why a parse stopped: the end of the text (not an error, as in Helm), or a mistake. */
class End {}
const END = new End();

/**
 * Parse one flag into `into` (changed in place), as `helm template --set`
 * does over the values files below it. Throws USAGE naming the flag and the
 * key, never the value.
 */
export function applySetFlag(into: Values, flag: SetFlag, read?: ReadSetFile): void {
  const reader =
    flag.option === "set-file"
      ? (text: string) => {
          if (read === undefined)
            throw new ChartroomError("INVALID_ARGUMENT", "a --set-file flag was applied without a way to read its files", {
              hint: "pass the flag's files (SetFlag.files)",
            });
          return read(text);
        }
      : (text: string) => typedValue(text, flag.option === "set-string");
  const parser = new Parser([...flag.arg], (text) => reader(text), flag);
  for (;;) {
    const result = parser.key(into, 0);
    if (result === END) return;
  }
}

/**
 * A `--set-file` flag with each path replaced by `rename(path)`, escaped as
 * Helm reads it; `paths` lists the paths it names, in order.
 */
export function renameSetFiles(arg: string, rename: (path: string) => string): { arg: string; paths: string[] } {
  const spans: { start: number; end: number; path: string }[] = [];
  const parser = new Parser(
    [...arg],
    (text, span) => {
      spans.push({ ...span, path: text });
      return "";
    },
    { option: "set-file", arg },
  );
  while (parser.key({}, 0) !== END);
  const chars = [...arg];
  for (const span of [...spans].reverse()) chars.splice(span.start, span.end - span.start, ...escaped(rename(span.path)));
  return { arg: chars.join(""), paths: spans.map((span) => span.path) };
}

/** What one flag sets by itself, over nothing. */
export function flagValues(flag: SetFlag): Values {
  const values: Values = {};
  applySetFlag(values, flag, fileReader(flag));
  return values;
}

/**
 * The user's values as helm ends up with them: the values files merged in
 * order, then every flag applied over them in Helm's order (`--set`, then
 * `--set-string`, then `--set-file`, each in the order given), whatever the
 * order of the layers.
 */
export function valuesWithFlags(layers: readonly ValuesLayer[], parsed: (layer: ValuesLayer) => Values): Values {
  const files = layers.filter((layer) => layer.flag === undefined);
  const merged = structuredClone(mergeLayers(files.map(parsed)));
  for (const flag of orderedFlags(layers)) applySetFlag(merged, flag, fileReader(flag));
  return merged;
}

/** The flags among the layers in the order Helm applies them. */
export function orderedFlags(layers: readonly ValuesLayer[]): SetFlag[] {
  const flags = layers.flatMap((layer) => (layer.flag === undefined ? [] : [layer.flag]));
  return SET_ORDER.flatMap((option) => flags.filter((flag) => flag.option === option));
}

function fileReader(flag: SetFlag): ReadSetFile | undefined {
  if (flag.option !== "set-file") return undefined;
  return (path) => {
    const text = flag.files?.[path];
    if (text === undefined)
      throw new ChartroomError("INVALID_ARGUMENT", `--set-file names ${path}, whose text the layer does not carry`, {
        hint: "build --set-file layers with their files' texts",
      });
    return text;
  };
}

/** A path as a --set value: `\` before every character Helm would stop at. */
function escaped(text: string): string[] {
  return [...text].flatMap((char) => (",{}[]=.\\".includes(char) ? ["\\", char] : [char]));
}

/** As Helm types a `--set` value: true/false/null (any case), integers that fit int64 without a leading 0, else the text. */
export function typedValue(text: string, asString: boolean): unknown {
  if (asString) return text;
  // Go's EqualFold: case folding, where the long s (ſ) is an s.
  const lower = text.toLowerCase().replaceAll("ſ", "s");
  if (lower === "true") return true;
  if (lower === "false") return false;
  if (lower === "null") return null;
  if (text === "0") return 0;
  if (text.length > 0 && text[0] !== "0" && /^[+-]?[0-9]+$/.test(text)) {
    const big = BigInt(text);
    if (big >= INT64.min && big <= INT64.max) return Number(big);
  }
  return text;
}

/** A value's text (escapes read) and where its raw characters are. */
type Reader = (text: string, span: { start: number; end: number }) => unknown;
type Step = End | undefined;

class Parser {
  private at = 0;

  constructor(
    private readonly chars: string[],
    private readonly reader: Reader,
    private readonly flag: SetFlag,
  ) {}

  /** One `key…=value` at `data`; END when the text is used up. */
  key(data: Values, depth: number): Step {
    const { text: key, last } = this.until("=[,.");
    if (last === undefined) {
      if (key === "") return END;
      throw this.fail("a key has no value", "write key=value");
    }
    if (last === "[") {
      const index = this.index();
      const current = Object.hasOwn(data, key) ? data[key] : [];
      if (!Array.isArray(current)) throw this.fail("a key with an index is not a list in the values below it", "set its items another way, or drop the index");
      const result = this.listItem(current, index, depth);
      setKey(data, key, result.list);
      return result.step;
    }
    if (last === "=") {
      const list = this.valueList();
      if (list === END) {
        setKey(data, key, "");
        return END;
      }
      if (list !== undefined) {
        setKey(data, key, list);
        return undefined;
      }
      setKey(data, key, this.value());
      return undefined;
    }
    if (last === ",") throw this.fail("a key has no value before a comma", "write key=value; a comma inside a value is written \\,");
    // last === "."
    if (depth + 1 > MAX_DEPTH) throw this.fail(`a key nests deeper than Helm allows (${MAX_DEPTH} levels)`, "shorten the key");
    const current = Object.hasOwn(data, key) ? data[key] : {};
    if (!isRecord(current))
      throw this.fail(
        "a key with a dot after it is not a map in the values below it",
        "set the whole value instead: a dot is read as a nested key (escape it as \\.)",
      );
    const inner = current as Values;
    const step = this.key(inner, depth + 1);
    if (step === undefined && Object.keys(inner).length === 0) throw this.fail("a key with a dot after it gets no key", "write key.inner=value");
    if (Object.keys(inner).length > 0) setKey(data, key, inner);
    return step;
  }

  /** `…]`: the index of a list item (Helm 3 refuses an index the text ends in, Helm 4 ignores it: refused here). */
  private index(): number {
    const { text, last } = this.until("]");
    if (last === undefined) throw this.fail("a list index is not closed with ]", "write key[0]=value");
    if (!/^[+-]?[0-9]+$/.test(text)) throw this.fail(`a list index is not a number`, "write key[0]=value");
    return Number(text);
  }

  /** What follows `key[i]`: `=value`, `[j]…` or `.key…`; the list with the item set. */
  private listItem(list: unknown[], index: number, depth: number): { list: unknown[]; step: Step } {
    if (index < 0) throw this.fail("a list index is negative", "indices start at 0");
    const { text, last } = this.until("[.=");
    if (text !== "") throw this.fail("something follows a list index", "write key[0]=value, key[0].inner=value or key[0][1]=value");
    if (last === undefined) return { list, step: END };
    if (last === "=") {
      const values = this.valueList();
      if (values === END) return { list: this.setIndex(list, index, ""), step: undefined };
      if (values !== undefined) return { list: this.setIndex(list, index, values), step: undefined };
      return { list: this.setIndex(list, index, this.value()), step: undefined };
    }
    if (last === "[") {
      const next = this.index();
      const existing = index < list.length ? list[index] : undefined;
      if (existing !== undefined && existing !== null && !Array.isArray(existing))
        throw this.fail("a list item is not a list in the values below this flag", "drop the second index");
      const inner = this.listItem(Array.isArray(existing) ? existing : [], next, depth);
      // As Helm: the text ending inside the inner item leaves this list as it was.
      if (inner.step === END) return { list, step: END };
      return { list: this.setIndex(list, index, inner.list), step: inner.step };
    }
    // last === ".": a map in the list (Helm replaces an item that is not one).
    let inner: Values = {};
    if (index < list.length) {
      const existing = list[index];
      if (isRecord(existing)) inner = existing as Values;
      else list[index] = inner;
    }
    const step = this.key(inner, depth);
    if (step === END) return { list, step };
    return { list: this.setIndex(list, index, inner), step };
  }

  private setIndex(list: unknown[], index: number, value: unknown): unknown[] {
    if (index > MAX_INDEX) throw this.fail(`a list index is above Helm's limit of ${MAX_INDEX}`, "use a smaller index");
    while (list.length <= index) list.push(null);
    list[index] = value;
    return list;
  }

  /** `{a,b}`: a list of values; undefined when the value is not one; END at the end of the text. */
  private valueList(): unknown[] | End | undefined {
    const first = this.chars[this.at];
    if (first === undefined) return END;
    if (first !== "{") return undefined;
    this.at++;
    const list: unknown[] = [];
    for (;;) {
      const start = this.at;
      const { text, last } = this.until(",}");
      if (last === undefined) throw this.fail("a list is not closed with }", "write key={a,b}");
      list.push(this.reader(text, { start, end: this.at - 1 }));
      if (last === "}") {
        if (this.chars[this.at] === ",") this.at++;
        return list;
      }
    }
  }

  /** A plain value: up to the next comma. */
  private value(): unknown {
    const start = this.at;
    const { text } = this.until(",");
    return this.reader(text, { start, end: this.at - 1 });
  }

  /** Characters up to one of `stops` (consumed), `\` taking the next one as it is; `last` undefined at the end. */
  private until(stops: string): { text: string; last: string | undefined } {
    let text = "";
    for (;;) {
      const char = this.chars[this.at++];
      if (char === undefined) return { text, last: undefined };
      if (stops.includes(char)) return { text, last: char };
      if (char === "\\") {
        const next = this.chars[this.at++];
        if (next === undefined) return { text, last: undefined };
        text += next;
      } else text += char;
    }
  }

  /** Never the text itself: after an unescaped comma, a "key" may be part of a password. */
  private fail(message: string, hint: string): ChartroomError {
    return new ChartroomError("USAGE", `--${this.flag.option}: ${message} (character ${Math.min(this.at, this.chars.length)} of the flag)`, {
      hint: `${hint} (Helm's --set syntax: a.b=1,list[0]=x,items={x,y})`,
    });
  }
}

/** Helm never sets an empty key. */
function setKey(data: Values, key: string, value: unknown): void {
  if (key !== "") data[key] = value;
}
