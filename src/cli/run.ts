import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ChartroomError, exitCodeOf, formatError, InternalError } from "../errors/index.js";
import { redact, redactDeep, stripUserInfo } from "../errors/secrets.js";
import { FORMATS, formatsOf, type Format } from "../report/formats.js";
import { painter } from "../report/paint.js";
import { didYouMean } from "../util/nearest.js";
import { COMMON_OPTIONS, commonHelp, type CliContext, type Command, type ParsedArgs } from "./command.js";
import { COMMANDS, topHelp, VERSION } from "./top.js";

export interface RunResult {
  /** For stdout. */
  output: string;
  /** For stderr: errors and notes. */
  errors: string;
  exitCode: 0 | 1 | 2;
}

/** argv → one workflow → its report, rendered. Never throws, never prints. */
export async function runCli(argv: string[], context: CliContext): Promise<RunResult> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || name === "help") return { output: topHelp(), errors: "", exitCode: 0 };
  if (name === undefined)
    return usageError(
      new ChartroomError("USAGE", "name a command", { hint: `commands: ${Object.keys(COMMANDS).join(", ")} (chartroom --help says what each does)` }),
    );
  if (name === "--version" || name === "-v") return { output: VERSION, errors: "", exitCode: 0 };
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined)
    return usageError(
      new ChartroomError("USAGE", `unknown command "${name}"${didYouMean(name, Object.keys(COMMANDS))}`, {
        hint: `commands: ${Object.keys(COMMANDS).join(", ")} (chartroom --help says what each does)`,
      }),
    );
  const command = await entry.load();
  const formats = FORMATS.filter((format) => command.reports.every((kind) => formatsOf(kind).includes(format)));
  try {
    const parsed = parseArgs({ args: rest, options: { ...COMMON_OPTIONS, ...command.options }, allowPositionals: true, strict: true });
    if (parsed.values.help === true) return { output: commandHelp(command, formats), errors: "", exitCode: 0 };
    const format = (parsed.values.format ?? "text") as Format;
    if (!formats.includes(format))
      throw new ChartroomError("USAGE", `${command.name} does not print as ${String(format)}`, { hint: `--format ${formats.join(" | ")}` });
    const args: ParsedArgs = { values: parsed.values, positionals: parsed.positionals, format };
    // Loaded only now: `--help` and usage errors need none of it.
    const [{ openProject }, { formatReport }, { writeFileAtomic, useFileLimitOf }] = await Promise.all([
      import("../project/project.js"),
      import("../report/registry.js"),
      import("../util/fs.js"),
    ]);
    useFileLimitOf(context.env);
    const project = await openProject({
      dir: context.cwd,
      configFile: parsed.values.config as string | undefined,
      env: context.env,
      onProgress: context.progress,
    });
    const report = await command.run(project, args, context);
    // Colour only for text on a terminal, and never when asked not to.
    const colour = context.colour && parsed.values["no-color"] !== true && format === "text" && parsed.values.output === undefined;
    // --show-secrets asks for the values: only credentials in URLs are still cut. Otherwise every
    // string of the report is scrubbed before any format escapes it, and the text once more after.
    const reveal = parsed.values["show-secrets"] === true;
    const formatted = formatReport(reveal ? report : redactDeep(report), format, {
      paint: painter(colour),
      cwd: context.cwd,
      summary: parsed.values.summary === true,
    });
    const text = reveal ? stripUserInfo(formatted) : redact(formatted);
    const exitCode = command.exitCode(report, args);
    const output = parsed.values.output as string | undefined;
    if (output === undefined) return { output: text, errors: "", exitCode };
    const path = resolve(context.cwd, output);
    await writeFileAtomic(path, text.endsWith("\n") ? text : `${text}\n`);
    return { output: `wrote ${relative(context.cwd, path) || path}`, errors: "", exitCode };
  } catch (error) {
    return failure(error, command, formats);
  }
}

function failure(error: unknown, command: Command, formats: readonly Format[]): RunResult {
  if (InternalError.isInternal(error)) return { output: "", errors: redact(`${formatError(error)}\n${error.stack ?? ""}`), exitCode: 1 };
  if (ChartroomError.isInstance(error)) {
    return error.code === "USAGE" ? usageError(error, command) : { output: "", errors: formatError(error), exitCode: exitCodeOf(error.code) };
  }
  const parseError = argsError(error, command, formats);
  if (parseError !== undefined) return usageError(parseError, command);
  // Anything else is a bug: say so, with its stack, credentials scrubbed.
  const internal = new InternalError((error as Error)?.message ?? String(error), { cause: error });
  return { output: "", errors: redact(`${formatError(internal)}\n${(error as Error)?.stack ?? ""}`), exitCode: 1 };
}

/** A usage error: the code, the message, a short hint and the command's usage line, not its whole help. */
function usageError(error: ChartroomError, command?: Command): RunResult {
  const usage = command === undefined ? "usage: chartroom <command> [options]" : `usage: ${command.usage}`;
  return { output: "", errors: `${formatError(error)}\n${usage}`, exitCode: 1 };
}

/** node:util parseArgs' errors, in chartroom's words. */
function argsError(error: unknown, command: Command, formats: readonly Format[]): ChartroomError | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === undefined || !code.startsWith("ERR_PARSE_ARGS")) return undefined;
  const message = (error as Error).message;
  const help = `chartroom ${command.name} --help lists its options`;
  const option = /'(-[^']*)'/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined) {
    const known = Object.keys({ ...COMMON_OPTIONS, ...command.options }).map((name) => `--${name}`);
    return new ChartroomError("USAGE", `${command.name} has no option ${option}${didYouMean(option, known)}`, { hint: help });
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    return new ChartroomError("USAGE", message.replace(/\.$/, "").replace(/^Option /, "option "), {
      hint: option === "--format" || option === "-o" ? `--format ${formats.join(" | ")}` : help,
    });
  }
  return new ChartroomError("USAGE", message.split("\n")[0]?.replace(/\.$/, "") ?? message, { hint: help });
}

function commandHelp(command: Command, formats: readonly Format[]): string {
  return [`usage: ${command.usage}`, "", command.summary, "", ...command.help, "", "common options:", ...commonHelp(formats)].join("\n");
}
