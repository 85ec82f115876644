import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ChartroomError, exitCodeOf, formatError, InternalError } from "../errors/index.js";
import { redact, redactDeep, stripUserInfo } from "../errors/secrets.js";
import { FORMATS, formatsOf, type Format } from "../report/formats.js";
import { painter } from "../report/paint.js";
import { didYouMean } from "../util/nearest.js";
import { COMMON_OPTIONS, commonHelp, type CliContext, type Command, type ParsedArgs } from "./command.js";
import { colourOf, exitCodeFor, formatOf } from "./output.js";
import { COMMANDS, topHelp, VERSION } from "./top.js";
import { entryOf } from "../util/json.js";

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
  if (name === "completion") return completion(rest);
  if (name === "__complete") return { output: await namesToComplete(rest[0], context), errors: "", exitCode: 0 };
  const entry = entryOf(COMMANDS, name);
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
    const format = formatOf(parsed.values, formats, command.name);
    const colour = colourOf(parsed.values, format, context);
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
    // --show-secrets asks for the values: only credentials in URLs are still cut. Otherwise every
    // string of the report is scrubbed before any format escapes it, and the text once more after.
    const reveal = parsed.values["show-secrets"] === true;
    const formatted = formatReport(reveal ? report : redactDeep(report), format, {
      paint: painter(colour),
      cwd: context.cwd,
      summary: parsed.values.summary === true,
    });
    const text = reveal ? stripUserInfo(formatted) : redact(formatted);
    const exitCode = exitCodeFor(command, report, args);
    const output = parsed.values["output-file"] as string | undefined;
    if (output === undefined) return { output: text, errors: "", exitCode };
    const path = resolve(context.cwd, output);
    await writeFileAtomic(path, text.endsWith("\n") ? text : `${text}\n`);
    return { output: `wrote ${relative(context.cwd, path) || path}`, errors: "", exitCode };
  } catch (error) {
    return failure(error, command, formats);
  }
}

/** `chartroom completion bash|zsh|fish`: the script to source. */
async function completion(rest: string[]): Promise<RunResult> {
  const { completionScript, SHELLS } = await import("./completion.js");
  if (rest[0] === "--help" || rest[0] === "-h" || rest.length !== 1)
    return rest.length === 1
      ? {
          output: `usage: chartroom completion ${SHELLS.join(" | ")}\n\nPrints a shell completion script: source <(chartroom completion bash)`,
          errors: "",
          exitCode: 0,
        }
      : usageError(new ChartroomError("USAGE", "name a shell", { hint: `chartroom completion ${SHELLS.join(" | ")}` }));
  try {
    return { output: (await completionScript(rest[0] ?? "")).trimEnd(), errors: "", exitCode: 0 };
  } catch (error) {
    return ChartroomError.isInstance(error) ? usageError(error) : { output: "", errors: String(error), exitCode: 1 };
  }
}

/** What a completion script asks while completing: the platform's chart keys or stack names, nothing when there is no platform. */
async function namesToComplete(what: string | undefined, context: CliContext): Promise<string> {
  try {
    const { openProject } = await import("../project/project.js");
    const { config } = await openProject({ dir: context.cwd, env: context.env });
    return (what === "stacks" ? config.stacks.map((stack) => stack.name) : config.charts.map((chart) => chart.key)).join("\n");
  } catch {
    return "";
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
      hint: option === "--format" || option === "-o" || option === "--output" ? `-o ${formats.join(" | ")}` : help,
    });
  }
  return new ChartroomError("USAGE", message.split("\n")[0]?.replace(/\.$/, "") ?? message, { hint: help });
}

function commandHelp(command: Command, formats: readonly Format[]): string {
  return [`usage: ${command.usage}`, "", command.summary, "", ...command.help, "", "common options:", ...commonHelp(formats)].join("\n");
}
