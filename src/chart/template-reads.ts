// Which values a chart's templates read, found statically: `.Values.a.b`,
// `$.Values.a`, `index .Values "a" "b"`. A key the templates read is known to
// the chart even when values.yaml mentions it only in a comment (and the
// schema not at all). Reads are prefixes: a template that reads `extraEnv`
// (with `toYaml`, `range`, `with`) takes anything below it. A template that
// hands `.Values` on whole is marked "*": any key may be read.

const IDENT = "[A-Za-z_][A-Za-z0-9_]*";
const DOTTED = new RegExp(`\\$?\\.Values((?:\\.${IDENT})+)`, "g");
const INDEXED = new RegExp(`index\\s+\\(?\\s*\\$?\\.Values((?:\\.${IDENT})*)\\s*\\)?((?:\\s+"[^"\\\\]*")+)`, "g");
// `.Values` not followed by a field: passed on whole (`toYaml .Values`, `include "x" .Values`, `$v := .Values`).
const WHOLE = /\$?\.Values(?![.\w])/g;

export const WHOLE_VALUES = "*";

/** Dotted values paths the given template texts read, sorted, `*` when the values are handed on whole. */
export function templateReads(texts: readonly string[]): string[] {
  const reads = new Set<string>();
  for (const text of texts) {
    for (const action of text.match(/\{\{[\s\S]*?\}\}/g) ?? []) {
      // Each pattern below reads `.Values`: most actions (include, if, toYaml of a local) never name it.
      if (!action.includes(".Values")) continue;
      for (const match of action.matchAll(INDEXED)) {
        const keys = [...(match[2] ?? "").matchAll(/"([^"\\]*)"/g)].map((key) => key[1] as string);
        reads.add([...(match[1] ?? "").split(".").filter(Boolean), ...keys].join("."));
      }
      for (const match of action.matchAll(DOTTED)) reads.add((match[1] ?? "").slice(1));
      const bare = action.replace(INDEXED, "").replace(DOTTED, "");
      if (WHOLE.test(bare)) reads.add(WHOLE_VALUES);
      WHOLE.lastIndex = 0;
    }
  }
  reads.delete("");
  return [...reads].sort();
}

/** A subchart's reads as the parent's values see them: under the subchart's key. */
export function underKey(key: string, reads: readonly string[]): string[] {
  return reads.map((read) => (read === WHOLE_VALUES ? key : `${key}.${read}`));
}
