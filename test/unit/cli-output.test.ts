import { describe, expect, it } from "vitest";
import type { CliContext, Command, ParsedArgs } from "../../src/cli/command.js";
import { colourOf, exitCodeFor, formatOf } from "../../src/cli/output.js";
import { logProgress } from "../../src/cli/progress.js";
import { ChartroomError } from "../../src/errors/index.js";
import type { Format } from "../../src/report/formats.js";

const FORMATS: Format[] = ["text", "json", "markdown"];

function refusal(run: () => unknown): ChartroomError {
  try {
    run();
  } catch (error) {
    if (ChartroomError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

function context(colour: boolean, env: NodeJS.ProcessEnv = {}): CliContext {
  return { cwd: "/", env, colour, progress: () => {} };
}

describe("-o/--output and --format", () => {
  it.each([
    [{}, "text"],
    [{ output: "json" }, "json"],
    [{ format: "markdown" }, "markdown"],
    [{ output: "json", format: "json" }, "json"],
  ])("%j prints as %s", (values, format) => {
    expect(formatOf(values, FORMATS, "diff")).toBe(format);
  });

  it("refuses two formats, a format the command lacks, and says a path is for --output-file now", () => {
    expect(refusal(() => formatOf({ output: "json", format: "text" }, FORMATS, "diff")).message).toBe("-o/--output json and --format text name two formats");
    const unknown = refusal(() => formatOf({ output: "html" }, FORMATS, "outdated"));
    expect([unknown.code, unknown.message, unknown.hint]).toStrictEqual(["USAGE", "outdated does not print as html", "-o text | json | markdown"]);
    for (const path of ["review.md", "out/report", "report.html"]) {
      expect(refusal(() => formatOf({ output: path }, FORMATS, "diff")).hint).toBe(
        `-o/--output names the format now, as helm's and kubectl's do; to write to a file: --output-file ${path}`,
      );
    }
    expect(refusal(() => formatOf({ format: "x.md" }, FORMATS, "diff")).hint).toBe("-o text | json | markdown");
  });
});

describe("--color", () => {
  it.each([
    // [flags, terminal, environment, colour]
    [{}, true, {}, true],
    [{}, false, {}, false],
    [{ color: "auto" }, true, {}, true],
    [{ color: "always" }, false, {}, true],
    [{ color: "always" }, false, { NO_COLOR: "1" }, true],
    [{ color: "never" }, true, {}, false],
    [{ color: "never" }, true, { FORCE_COLOR: "1" }, false],
    [{ "no-color": true }, true, {}, false],
    [{}, false, { FORCE_COLOR: "1" }, true],
    [{}, false, { FORCE_COLOR: "true" }, true],
    [{}, true, { FORCE_COLOR: "0" }, false],
    [{}, false, { FORCE_COLOR: "0" }, false],
    [{}, false, { FORCE_COLOR: "false" }, false],
    [{}, false, { FORCE_COLOR: "" }, true],
    [{}, true, { NO_COLOR: "1" }, false],
    [{}, true, { NO_COLOR: "" }, true],
    [{}, false, { FORCE_COLOR: "1", NO_COLOR: "1" }, true],
  ] as [ParsedArgs["values"], boolean, NodeJS.ProcessEnv, boolean][])("%j on a terminal: %s, env %j → %s", (values, terminal, env, colour) => {
    expect(colourOf(values, "text", context(terminal, env))).toBe(colour);
  });

  it("never colours a format other than text, or text written to a file", () => {
    expect(colourOf({ color: "always" }, "json", context(true))).toBe(false);
    expect(colourOf({ color: "always", "output-file": "x.txt" }, "text", context(true))).toBe(false);
  });

  it("refuses a word it does not know", () => {
    const error = refusal(() => colourOf({ color: "yes" }, "text", context(true)));
    expect([error.code, error.message]).toStrictEqual(["USAGE", '--color takes auto, always or never, not "yes"']);
  });
});

describe("exit codes", () => {
  const command = (code: 0 | 1 | 2, failed?: boolean) =>
    ({ exitCode: () => code, ...(failed === undefined ? {} : { failed: () => failed }) }) as unknown as Command;
  const args = (detailed: boolean): ParsedArgs => ({ values: detailed ? { "detailed-exitcode": true } : {}, positionals: [], format: "text" });

  it.each([
    [0, undefined, false, 0],
    [0, undefined, true, 0],
    [1, undefined, false, 1],
    [2, undefined, false, 0],
    [2, undefined, true, 2],
    [2, false, false, 0],
    [2, true, false, 2],
    [0, true, false, 0],
  ] as [0 | 1 | 2, boolean | undefined, boolean, number][])("the command says %i (fails: %s), --detailed-exitcode %s → %i", (code, failed, detailed, exit) => {
    expect(exitCodeFor(command(code, failed), {} as never, args(detailed))).toBe(exit);
  });
});

describe("progress in a log", () => {
  it("prints nothing for a quick run, then a line at most every interval, with the time since the start", () => {
    const lines: string[] = [];
    const realNow = Date.now;
    let now = 1_000_000;
    Date.now = () => now;
    try {
      const progress = logProgress(now, 30_000, (text) => {
        lines.push(text);
        return true;
      });
      progress("rendering 1/9");
      now += 29_999;
      progress("rendering 2/9");
      now += 1;
      progress("rendering 3/9");
      now += 10_000;
      progress("rendering 4/9");
      now += 20_000;
      progress("rendering 5/9");
    } finally {
      Date.now = realNow;
    }
    expect(lines).toStrictEqual(["chartroom: rendering 3/9 (30 s)\n", "chartroom: rendering 5/9 (60 s)\n"]);
  });
});
