/**
 * The code of a Go template: the text of its actions (`{{ … }}`), without
 * the text around them and without comments. Only an action calls a function,
 * so a word such as "now" in NOTES.txt ("the exporter is now running"), a YAML
 * comment or a file name ("_helpers.tpl") says nothing about what a render
 * calls. Pure.
 *
 * Read to be safe, not exact: a string literal's content is kept (`tpl` may
 * render it), an action's end is found outside string literals (`"}}"` in
 * one does not end it), and an action or a literal with no end runs to the
 * end of the text. Text in YAML whose quotes are escaped (a values file's
 * `"{{ printf \"%s\" now }}"`) may then read as longer than the action: more
 * code, never less.
 */
export function templateCode(text: string): string {
  const code = text.replace(COMMENT, "");
  const actions: string[] = [];
  let at = code.indexOf("{{");
  while (at !== -1) {
    const end = actionEnd(code, at + 2);
    actions.push(code.slice(at + 2, end));
    at = code.indexOf("{{", end);
  }
  return actions.join("\n");
}

// A comment is an action of its own, `{{/* … */}}`, trim markers allowed (`{{- /* … */ -}}`).
const COMMENT = /\{\{(-\s)?\/\*[\s\S]*?\*\/(\s-)?\}\}/g;

// A string literal (interpreted, with escapes; raw; a character), to its closing quote or the end of the text; `}}`; anything else.
const TOKEN = /"(\\[\s\S]|[^"\\])*"?|'(\\[\s\S]|[^'\\])*'?|`[^`]*`?|\}\}|[^"'`}]+|\}/y;

/** The index of the `}}` that ends the action whose body starts at `from`, or the text's length. */
function actionEnd(text: string, from: number): number {
  TOKEN.lastIndex = from;
  for (let token = TOKEN.exec(text); token !== null; token = TOKEN.exec(text)) if (token[0] === "}}") return token.index;
  return text.length;
}
