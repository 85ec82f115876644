import { ChartroomError } from "../errors/index.js";

// Changing one chart's version range in the config's source, as a bot's
// upgrade needs (`chartroom upgrade <chart> --to <v>` outside the range):
// the one string literal at charts.<key>.version is replaced and not a byte
// more. A config that builds its charts some other way (a variable, a
// spread, a computed key) is not guessed at: the error says what to write.

interface Literal {
  start: number;
  end: number;
  quote: string;
  value: string;
}

/** The source with charts.<key>.version's string replaced by `range`. */
export function rewriteRange(source: string, file: string, key: string, from: string, range: string): string {
  // The literal must say what the loaded config says: a range built from parts is not one to edit.
  const found = versionLiterals(source, key).filter((literal) => literal.value.trim() === from);
  if (found.length !== 1) {
    throw new ChartroomError("RANGE_NOT_MOVED", `cannot find one place where charts.${key}.version is written as "${from}" in ${file}`, {
      place: { file, key: `charts.${key}.version` },
      hint: `set charts.${key}.version to "${range}" by hand (it is ${found.length === 0 ? "not one string literal there" : "written more than once"}), then run \`chartroom lock ${key}\``,
    });
  }
  const [literal] = found as [Literal];
  const quoted = literal.quote === "`" ? `\`${range.replace(/[`\\$]/g, "\\$&")}\`` : JSON.stringify(range).replace(/^"|"$/g, literal.quote);
  return `${source.slice(0, literal.start)}${quoted}${source.slice(literal.end)}`;
}

/** Every string literal written as `version: "…"` directly inside `<key>: { … }` directly inside `charts: { … }`. */
export function versionLiterals(source: string, key: string): Literal[] {
  const scanner = new Scanner(source);
  const found: Literal[] = [];
  // One frame per open bracket: the property key that opened it (for braces).
  const frames: (string | undefined)[] = [];
  let pendingKey: string | undefined;
  let lastKey: string | undefined;
  let afterColon = false;
  for (let token = scanner.next(); token !== undefined; token = scanner.next()) {
    if (token.kind === "punct") {
      if (token.text === ":") {
        afterColon = lastKey !== undefined;
        pendingKey = lastKey;
        lastKey = undefined;
        continue;
      }
      if (token.text === "{" || token.text === "[" || token.text === "(") frames.push(token.text === "{" && afterColon ? pendingKey : undefined);
      else if (token.text === "}" || token.text === "]" || token.text === ")") frames.pop();
      afterColon = false;
      lastKey = undefined;
      continue;
    }
    if (token.kind === "string" && afterColon && pendingKey === "version" && frames.at(-1) === key && frames.at(-2) === "charts") {
      if (token.literal !== undefined) found.push(token.literal);
    }
    // A property key is a name or a string followed by a colon; the next token says which.
    lastKey = token.kind === "name" || (token.kind === "string" && token.literal !== undefined) ? (token.literal?.value ?? token.text) : undefined;
    afterColon = false;
  }
  return found;
}

type Token = { kind: "name" | "punct" | "other"; text: string; literal?: undefined } | { kind: "string"; text: string; literal: Literal | undefined };

/** Just enough of a TypeScript lexer: comments, strings and template literals are skipped whole. */
class Scanner {
  private at = 0;

  constructor(private readonly source: string) {}

  next(): Token | undefined {
    this.skipSpaceAndComments();
    const start = this.at;
    const char = this.source[this.at];
    if (char === undefined) return undefined;
    if (char === '"' || char === "'") return this.quoted(char);
    if (char === "`") return this.template();
    if (/[A-Za-z_$]/.test(char)) {
      while (/[A-Za-z0-9_$]/.test(this.source[this.at] ?? "")) this.at++;
      return { kind: "name", text: this.source.slice(start, this.at) };
    }
    this.at++;
    return "{}[]():,".includes(char) ? { kind: "punct", text: char } : { kind: "other", text: char };
  }

  private skipSpaceAndComments(): void {
    for (;;) {
      while (/\s/.test(this.source[this.at] ?? "")) this.at++;
      if (this.source.startsWith("//", this.at)) {
        const end = this.source.indexOf("\n", this.at);
        this.at = end === -1 ? this.source.length : end;
      } else if (this.source.startsWith("/*", this.at)) {
        const end = this.source.indexOf("*/", this.at + 2);
        this.at = end === -1 ? this.source.length : end + 2;
      } else return;
    }
  }

  private quoted(quote: string): Token {
    const start = this.at++;
    let value = "";
    for (;;) {
      const char = this.source[this.at++];
      if (char === undefined || char === "\n") return { kind: "string", text: "", literal: undefined };
      if (char === quote) break;
      if (char === "\\") {
        const escaped = this.source[this.at++] ?? "";
        // A range has no escapes worth reading; one that needs them is not rewritten (value unknown).
        value += ({ n: "\n", t: "\t", '"': '"', "'": "'", "\\": "\\" } as Record<string, string>)[escaped] ?? `\u0000${escaped}`;
      } else value += char;
    }
    return { kind: "string", text: value, literal: { start, end: this.at, quote, value } };
  }

  /** A template literal; one with `${…}` is no plain string (its parts are scanned past). */
  private template(): Token {
    const start = this.at++;
    let plain = true;
    let value = "";
    for (;;) {
      const char = this.source[this.at++];
      if (char === undefined) return { kind: "string", text: "", literal: undefined };
      if (char === "`") break;
      if (char === "\\") value += this.source[this.at++] ?? "";
      else if (char === "$" && this.source[this.at] === "{") {
        plain = false;
        this.at++;
        this.skipExpression();
      } else value += char;
    }
    return { kind: "string", text: value, literal: plain ? { start, end: this.at, quote: "`", value } : undefined };
  }

  /** Past the `}` that closes a template's `${`, strings and nested templates included. */
  private skipExpression(): void {
    let depth = 1;
    while (depth > 0) {
      const token = this.next();
      if (token === undefined) return;
      if (token.text === "{" && token.kind === "punct") depth++;
      if (token.text === "}" && token.kind === "punct") depth--;
    }
  }
}
