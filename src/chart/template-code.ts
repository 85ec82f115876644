/**
 * The code of a Go template: the text of its actions (`{{ … }}`), without
 * the text around them and without comments. Only an action calls a function,
 * so a word such as "now" in NOTES.txt ("the exporter is now running"), a YAML
 * comment or a file name ("_helpers.tpl") says nothing about what a render
 * calls. Pure.
 *
 * Read to be safe, not exact: a string literal's content is kept (`tpl` may
 * render it), an action's end is found outside string literals (`"}}"` in
 * one does not end it), and an action with no end runs to the end of the text.
 * Text in YAML whose quotes are escaped (a values file's
 * `"{{ printf \"%s\" now }}"`) may then read as longer than the action: more
 * code, never less.
 */
export function templateCode(text: string): string {
  const actions: string[] = [];
  let at = text.indexOf("{{");
  while (at !== -1) {
    const start = bodyStart(text, at + 2);
    if (text.startsWith("/*", start)) {
      // A comment ends at */ and then its action's }}.
      const close = text.indexOf("*/", start + 2);
      const end = close === -1 ? -1 : text.indexOf("}}", close + 2);
      at = end === -1 ? -1 : text.indexOf("{{", end + 2);
      continue;
    }
    const end = actionEnd(text, start);
    actions.push(text.slice(start, end));
    at = text.indexOf("{{", end + 2);
  }
  return actions.join("\n");
}

/** Where an action's body starts: after a left trim marker (`{{- `), which must be followed by a space. */
function bodyStart(text: string, from: number): number {
  return text[from] === "-" && /\s/.test(text[from + 1] ?? "") ? from + 2 : from;
}

/** The index of the `}}` that ends the action whose body starts at `from`, or the text's length. */
function actionEnd(text: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const char = text[i];
    if (quote !== undefined) {
      // In an interpreted string or a character, a backslash escapes what follows; a raw string has no escapes.
      if (char === "\\" && quote !== "`") i++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "`" || char === "'") quote = char;
    else if (char === "}" && text[i + 1] === "}") return i;
  }
  return text.length;
}
