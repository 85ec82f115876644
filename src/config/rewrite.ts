import { ChartroomError } from "../errors/index.js";

// Changing one chart's version range in the config's source, as a bot's
// upgrade needs (`chartroom upgrade <chart> --to <v>` outside the range):
// the one string literal at charts.<key>.version is replaced and not a byte
// more. A config that builds its charts some other way (a variable, a
// spread, a computed key, a string with escapes) is not guessed at: the
// error says what to write.

interface Literal {
  start: number;
  end: number;
  quote: string;
  value: string;
}

/** The source with charts.<key>.version's string (which says `from`) replaced by `range`. */
export function rewriteRange(source: string, file: string, key: string, from: string, range: string): string {
  // The literal must say what the loaded config says: a range built from parts is not one to edit.
  const found = versionLiterals(source, key).filter((literal) => literal.value.trim() === from);
  if (found.length !== 1 || /["'`\\$\n]/.test(range)) {
    const why = found.length === 0 ? "not one string literal there" : found.length > 1 ? "written more than once" : "a range chartroom does not write";
    throw new ChartroomError("RANGE_NOT_MOVED", `cannot find one place where charts.${key}.version is written as "${from}" in ${file}`, {
      place: { file, key: `charts.${key}.version` },
      hint: `set charts.${key}.version to "${range}" by hand (it is ${why}), then run \`chartroom lock ${key}\``,
    });
  }
  const [literal] = found as [Literal];
  return `${source.slice(0, literal.start)}${literal.quote}${range}${literal.quote}${source.slice(literal.end)}`;
}

/** Every plain string literal written as `version: "…"` directly inside `<key>: { … }` directly inside `charts: { … }`. */
export function versionLiterals(source: string, key: string): Literal[] {
  const scanner = new Scanner(source);
  const found: Literal[] = [];
  // One frame per open bracket: the property key that opened it (for a brace after `key:`).
  const frames: (string | undefined)[] = [];
  // The token before this one was `name:` or `"name":`: its name.
  let keyName: string | undefined;
  let lastKey: string | undefined;
  for (let token = scanner.next(); token !== undefined; token = scanner.next()) {
    const keyed = keyName;
    keyName = undefined;
    if (token.text === ":" && token.kind === "punct") {
      keyName = lastKey;
    } else if (token.kind === "punct") {
      if ("{[(".includes(token.text)) frames.push(token.text === "{" ? keyed : undefined);
      else if ("}])".includes(token.text)) frames.pop();
    } else if (token.kind === "string" && token.literal !== undefined && keyed === "version" && frames.at(-1) === key && frames.at(-2) === "charts") {
      found.push(token.literal);
    }
    // A property key is a name or a plain string followed by a colon; the next token says which.
    lastKey = token.kind === "name" ? token.text : token.kind === "string" ? token.literal?.value : undefined;
  }
  return found;
}

type Token = { kind: "name" | "punct" | "other"; text: string } | { kind: "string"; text: string; literal: Literal | undefined };

/** Just enough of a TypeScript lexer: comments, strings and template literals are skipped whole. */
class Scanner {
  private at = 0;

  constructor(private readonly source: string) {}

  next(): Token | undefined {
    this.skipSpaceAndComments();
    const start = this.at;
    const char = this.source[this.at];
    if (char === undefined) return undefined;
    if (char === '"' || char === "'" || char === "`") return this.quoted(char);
    if (/[A-Za-z_$]/.test(char)) {
      while (/[A-Za-z0-9_$]/.test(this.source[this.at] ?? "")) this.at++;
      return { kind: "name", text: this.source.slice(start, this.at) };
    }
    this.at++;
    return { kind: "{}[]():,".includes(char) ? "punct" : "other", text: char };
  }

  private skipSpaceAndComments(): void {
    for (;;) {
      while (/\s/.test(this.source[this.at] ?? "")) this.at++;
      const comment = this.source.slice(this.at, this.at + 2);
      if (comment !== "//" && comment !== "/*") return;
      const end = this.source.indexOf(comment === "//" ? "\n" : "*/", this.at + 2);
      this.at = end === -1 ? this.source.length : end + (comment === "//" ? 1 : 2);
    }
  }

  /**
   * A string or template literal, skipped whole; a plain one (no escape, no
   * `${…}`, closed on its line unless it is a template) is a literal.
   */
  private quoted(quote: string): Token {
    const start = this.at++;
    let plain = true;
    for (;;) {
      const char = this.source[this.at++];
      if (char === undefined || (char === "\n" && quote !== "`")) return { kind: "string", text: "", literal: undefined };
      if (char === quote) break;
      if (char === "\\") {
        plain = false;
        this.at++;
      } else if (quote === "`" && char === "$" && this.source[this.at] === "{") {
        plain = false;
        this.at++;
        this.skipExpression();
      }
    }
    const value = this.source.slice(start + 1, this.at - 1);
    return { kind: "string", text: value, literal: plain ? { start, end: this.at, quote, value } : undefined };
  }

  /** Past the `}` that closes a template's `${`, strings and nested templates included. */
  private skipExpression(): void {
    for (let depth = 1; depth > 0; ) {
      const token = this.next();
      if (token === undefined) return;
      if (token.kind === "punct" && token.text === "{") depth++;
      if (token.kind === "punct" && token.text === "}") depth--;
    }
  }
}
