import { ChartroomError } from "../errors/index.js";
import type { Format } from "../report/formats.js";
import type { AnyReport } from "../report/registry.js";
import type { CliContext, Command, ParsedArgs } from "./command.js";

// Where a report goes and how it looks, as Helm and kubectl users expect:
// `-o/--output <format>` (`--format` is the same), `--output-file <file>`,
// `--color auto|always|never` with NO_COLOR and FORCE_COLOR; and when the
// exit code says "changes": with `--detailed-exitcode`, as helmfile and
// terraform do.

type Values = ParsedArgs["values"];

/** The format asked for: `-o/--output`, or `--format`, or text. */
export function formatOf(values: Values, formats: readonly Format[], command: string): Format {
  const [output, format] = [values.output, values.format].map((value) => (typeof value === "string" ? value : undefined));
  if (output !== undefined && format !== undefined && output !== format)
    throw new ChartroomError("USAGE", `-o/--output ${output} and --format ${format} name two formats`, { hint: "give one: -o json" });
  const asked = output ?? format ?? "text";
  if (formats.includes(asked as Format)) return asked as Format;
  // Before helm's convention, --output named a file: say so rather than refuse a path as a format.
  const hint =
    output !== undefined && /[./\\]/.test(output)
      ? `-o/--output names the format now, as helm's and kubectl's do; to write to a file: --output-file ${output}`
      : `-o ${formats.join(" | ")}`;
  throw new ChartroomError("USAGE", `${command} does not print as ${asked}`, { hint });
}

/** Colour for text on a terminal, unless asked otherwise: --color, --no-color, then FORCE_COLOR and NO_COLOR (https://no-color.org). */
export function colourOf(values: Values, format: Format, context: CliContext): boolean {
  const asked = typeof values.color === "string" ? values.color : undefined;
  if (asked !== undefined && !["auto", "always", "never"].includes(asked))
    throw new ChartroomError("USAGE", `--color takes auto, always or never, not "${asked}"`, { hint: "--color always forces colour in a CI log" });
  if (format !== "text" || values["output-file"] !== undefined) return false;
  if (asked === "always") return true;
  if (asked === "never" || values["no-color"] === true) return false;
  // As Node reads them: FORCE_COLOR (set, even empty) turns colour on and 0 or false off, over NO_COLOR.
  const forced = context.env.FORCE_COLOR;
  if (forced !== undefined) return forced !== "0" && forced !== "false";
  if (context.env.NO_COLOR !== undefined && context.env.NO_COLOR !== "") return false;
  return context.colour;
}

/**
 * The exit code: 1 on failure; 2 for what the command calls changes or
 * findings only with --detailed-exitcode, and always for what would fail a
 * deploy or a gate (`check`'s errors, a live review's stops).
 */
export function exitCodeFor(command: Command, report: AnyReport, args: ParsedArgs): 0 | 1 | 2 {
  const code = command.exitCode(report, args);
  if (code !== 2) return code;
  return args.values["detailed-exitcode"] === true || command.failed?.(report) === true ? 2 : 0;
}
