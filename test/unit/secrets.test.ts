import { describe, expect, it } from "vitest";
import { ChartroomError, formatError } from "../../src/errors/index.js";
import { redact, rememberSecret, stripUserInfo } from "../../src/errors/secrets.js";

describe("redaction", () => {
  it("strips user info from URLs", () => {
    expect(stripUserInfo("GET https://bob:pa55@charts.example.test/index.yaml failed")).toBe("GET https://***@charts.example.test/index.yaml failed");
  });

  it("masks every remembered credential wherever it appears", () => {
    rememberSecret("s3cr3t-token-value");
    expect(redact("Authorization: Bearer s3cr3t-token-value (s3cr3t-token-value)")).toBe("Authorization: Bearer *** (***)");
  });

  it("masks the longest secret first, secrets with pattern characters, in one pass", () => {
    rememberSecret("abc-1");
    rememberSecret("abc-1$(x)+more");
    expect(redact("a abc-1$(x)+more b abc-1 c")).toBe("a *** b *** c");
    for (let i = 0; i < 2000; i++) rememberSecret(`many-secrets-${i}`);
    expect(redact("many-secrets-1999 many-secrets-7 ".repeat(3))).toBe("*** *** ".repeat(3));
  });

  it("masks credentials in errors, their details and hints", () => {
    rememberSecret("pa55word-xyz");
    const error = new ChartroomError("HTTP_AUTH", "denied for pa55word-xyz", { details: ["pa55word-xyz"], hint: "not pa55word-xyz" });
    expect(formatError(error)).not.toContain("pa55word-xyz");
  });

  it("recognises errors from another copy of the package by their marker", () => {
    const foreign = Object.assign(new Error("x"), { [Symbol.for("chartroom.error")]: true });
    expect(ChartroomError.isInstance(foreign)).toBe(true);
    expect(ChartroomError.isInstance(new Error("x"))).toBe(false);
  });
});
