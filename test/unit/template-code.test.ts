import { describe, expect, it } from "vitest";
import { templateCode } from "../../src/chart/template-code.js";

// What a Go template calls is in its actions: the prose around them and its
// comments call nothing, and a chart is not rendered twice for them.
describe("the code of a template", () => {
  it("is the text of its actions, without the text around them", () => {
    expect(templateCode("The exporter is now running.\n{{ .Release.Name }} is ready now\n")).toBe(" .Release.Name ");
    expect(templateCode('# see _helpers.tpl\nname: {{ include "x.name" . }}\n')).toBe(' include "x.name" . ');
    expect(templateCode("kind: ConfigMap\ndata: {}\n")).toBe("");
    expect(templateCode("a: {{ .A }}\nb: {{ .B }}")).toBe(" .A \n .B ");
  });

  it("leaves comments out, with or without trim markers, over several lines", () => {
    expect(templateCode("{{/* rotate it now */}}x: {{ .X }}")).toBe(" .X ");
    expect(templateCode("{{- /* for now:\n randAlphaNum is not called */ -}}\nx: 1")).toBe("");
    // A comment's own "}}" does not end it: its */ does.
    expect(templateCode("{{/* }} now */}}{{ now }}")).toBe(" now ");
  });

  it("keeps an action's trim markers, which call nothing", () => {
    expect(templateCode("{{- now -}}")).toBe("- now -");
    expect(templateCode("{{-3}}")).toBe("-3");
  });

  it("ends each comment at its own */}}, not at a later one", () => {
    expect(templateCode("{{/* a */}} {{ now }} {{/* b */}}")).toBe(" now ");
    expect(templateCode("{{- /* a */ -}}{{ ago .T }}{{- /* b */ -}}")).toBe(" ago .T ");
    expect(templateCode("{{/*x*/}}{{.A}}")).toBe(".A");
  });

  it("keeps what string literals hold, and ends an action only outside them", () => {
    expect(templateCode('{{ tpl "{{ randAlphaNum 5 }}" . }}')).toBe(' tpl "{{ randAlphaNum 5 }}" . ');
    expect(templateCode('{{ printf "}}" (randAlphaNum 3) }} now')).toBe(' printf "}}" (randAlphaNum 3) ');
    expect(templateCode("{{ printf `}} \\` (now) }}")).toBe(" printf `}} \\` (now) ");
    expect(templateCode('{{ printf "\\"}}" now }} later')).toBe(' printf "\\"}}" now ');
    expect(templateCode("{{ eq '}' '\\'' | ago }}x")).toBe(" eq '}' '\\'' | ago ");
    expect(templateCode("{{ } now }} later")).toBe(" } now ");
    expect(templateCode("{{ 'a' }}{{ `b` }}{{ \"c\" }}")).toBe(" 'a' \n `b` \n \"c\" ");
  });

  it("reads an action, a literal or a comment with no end as running on: more code, never less", () => {
    expect(templateCode("x: {{ now")).toBe(" now");
    expect(templateCode('{{ "abc }} now')).toBe(' "abc }} now');
    expect(templateCode("{{ `abc }} now")).toBe(" `abc }} now");
    expect(templateCode("{{ 'a }} now")).toBe(" 'a }} now");
    expect(templateCode("{{/* never closed now")).toBe("/* never closed now");
    expect(templateCode('a: "{{ printf \\"%s\\" (now) }}"\nb: {{ .B }}')).toContain("(now)");
    expect(templateCode('a: "{{ printf \\"}}\\" (randAlphaNum 3) }}"')).toContain("randAlphaNum");
  });
});
