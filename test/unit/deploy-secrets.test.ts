import { describe, expect, it } from "vitest";
import { holdsSecret, needlesOf } from "../../src/deploy/pulumi/secrets.js";

const TOKEN = 'Tok"en&Value/42-xyz';
const PEM = "-----BEGIN KEY-----\nQUJDREVGR0hJSktMTU5PUFFSU1RVVldY\nWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2\n-----END KEY-----";

// The forms a template can give a value, as Helm's functions write them.
const PROBES: [string, string][] = [
  ["as it is", `token=${TOKEN}`],
  ["b64enc", Buffer.from(TOKEN).toString("base64")],
  ["inside toJson", JSON.stringify({ auth: { token: TOKEN } })],
  ["urlquery", `https://api.example.test/?t=${encodeURIComponent(TOKEN)}`],
  ["indented (one line of a multi-line secret)", `key: |\n    ${PEM.split("\n").join("\n    ")}\n`],
  ["b64enc of user:secret", Buffer.from(`admin:${TOKEN}`).toString("base64")],
  ["upper", TOKEN.toUpperCase()],
  ["lower", TOKEN.toLowerCase()],
  ["b64enc of a JSON document holding it", Buffer.from(JSON.stringify({ password: TOKEN })).toString("base64")],
  ["toJson as Go writes it (& as \\u0026)", JSON.stringify({ password: TOKEN }).replace(/&/g, "\\u0026")],
  ["b64enc of Go's toJson", Buffer.from(JSON.stringify({ password: TOKEN }).replace(/&/g, "\\u0026")).toString("base64")],
];

describe("a secret given in code, found in every form a chart can give it", () => {
  const needles = needlesOf([TOKEN, PEM]);

  it.each(PROBES)("finds it %s", (_, text) => {
    expect(holdsSecret(text, needles)).toBe(true);
  });

  it.each([
    ["another value", "token=something-else-entirely"],
    ["a base64 of something else", Buffer.from("nothing to see here").toString("base64")],
    ["a name", "webapp-frontend"],
  ])("leaves %s alone", (_, text) => {
    expect(holdsSecret(text, needles)).toBe(false);
  });
});
