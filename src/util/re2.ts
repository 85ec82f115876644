import { RE2JS } from "re2js";

// Patterns that come from charts (values.schema.json) are run with RE2's
// semantics, as Helm runs them (Go's regexp): matching is linear in the input,
// so `^(a+)+$` cannot hang a run, and a pattern RE2 cannot compile
// (backreferences, lookaround) is refused as Helm refuses it.

/** A compiled pattern: `test` finds a match anywhere, as RegExp#test does. */
export interface LinearPattern {
  test(text: string): boolean;
  toString(): string;
}

const compiled = new Map<string, LinearPattern | string>();

/** The pattern compiled, or the reason RE2 refuses it. */
export function compilePattern(pattern: string): LinearPattern | { error: string } {
  let hit = compiled.get(pattern);
  if (hit === undefined) {
    try {
      const re = RE2JS.compile(pattern);
      hit = { test: (text: string) => re.test(text), toString: () => `/${pattern}/re2` };
    } catch (error) {
      hit = (error as Error).message;
    }
    compiled.set(pattern, hit);
  }
  return typeof hit === "string" ? { error: hit } : hit;
}

/** For ajv's `code.regExp`: every `pattern` and `patternProperties` key through RE2. */
export function re2Engine(pattern: string): LinearPattern {
  const found = compilePattern(pattern);
  // Patterns RE2 refuses are taken out before compiling (schema-guard.ts); one that slips through matches nothing.
  return "error" in found ? { test: () => false, toString: () => `/${pattern}/refused` } : found;
}
re2Engine.code = "re2js";

/** `pattern.test(text)` with RE2's semantics; false for a pattern RE2 refuses. */
export function testPattern(pattern: string, text: string): boolean {
  const found = compilePattern(pattern);
  return !("error" in found) && found.test(text);
}
