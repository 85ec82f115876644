import { parseArgs } from "node:util";
import { ChartroomError, formatError } from "../errors.js";
import { redact } from "../util/secrets.js";
import { didYouMean } from "../util/nearest.js";
import { COMMON_HELP, COMMON_OPTIONS, type CliContext, type Command, type CommandResult } from "./command.js";
import { FORMATS, painter, type Format } from "./format.js";

// Loaded on demand so `chartroom --help` does not load every command's code.
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  lock: { summary: "resolve declared ranges and pin them in charts.lock.json", load: async () => (await import("./commands/lock.js")).lockCommand },
  outdated: { summary: "show charts with newer versions", load: async () => (await import("./commands/outdated.js")).outdatedCommand },
  plan: { summary: "summarise every chart: pin, verified digest, outdated status", load: async () => (await import("./commands/plan.js")).planCommand },
  render: { summary: "render a chart with the platform's values, offline", load: async () => (await import("./commands/render.js")).renderCommand },
  upgrade: { summary: "move pins to the highest version in range, showing what each move does", load: async () => (await import("./commands/upgrade.js")).upgradeCommand },
  check: { summary: "validate values for every chart and stack, catch unknown keys", load: async () => (await import("./commands/check.js")).checkCommand },
  explain: { summary: "why a chart gets its engine: hooks, CRDs, schema, pins", load: async () => (await import("./commands/explain.js")).explainCommand },
  types: { summary: "generate TypeScript types of every chart's values", load: async () => (await import("./commands/types.js")).typesCommand },
  diff: { summary: "per-object changes of a version bump, a values edit or a branch", load: async () => (await import("./commands/diff.js")).diffCommand },
};

export interface RunResult extends CommandResult {
  /** Diagnostics for stderr (errors); output goes to stdout. */
  errors: string;
}

export async function runCli(argv: string[], context: CliContext): Promise<RunResult> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") return ok(topHelp());
  if (name === "--version" || name === "-v") return ok("chartroom 0.1.0");
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    return usage(`unknown command "${name}"${didYouMean(name, Object.keys(COMMANDS))}\n\n${topHelp()}`);
  }
  const command = await entry.load();
  try {
    const parsed = parseArgs({ args: rest, options: { ...COMMON_OPTIONS, ...command.options }, allowPositionals: true, strict: true });
    if (parsed.values.help === true) return ok(commandHelp(command));
    const format = (parsed.values.format ?? "text") as Format;
    if (!FORMATS.includes(format)) return usage(`--format must be one of ${FORMATS.join(", ")}`);
    const colour = context.colour && parsed.values["no-color"] !== true && format === "text";
    const result = await command.run(context, { values: parsed.values, positionals: parsed.positionals, format, paint: painter(colour) });
    return { ...result, output: redact(result.output), errors: "" };
  } catch (error) {
    if (ChartroomError.isInstance(error)) return { output: "", exitCode: 1, errors: formatError(error) };
    if ((error as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) {
      return usage(`${(error as Error).message}\n\n${commandHelp(command)}`);
    }
    return { output: "", exitCode: 1, errors: redact(`internal error: ${(error as Error).stack ?? String(error)}`) };
  }
}

function ok(output: string): RunResult {
  return { output, exitCode: 0, errors: "" };
}

function usage(message: string): RunResult {
  return { output: "", exitCode: 1, errors: message };
}

function topHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    "chartroom: Helm charts declared in code, pinned, upgraded and reviewed per object",
    "",
    "usage: chartroom <command> [options]",
    "",
    "commands:",
    ...Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`),
    "",
    "Run `chartroom <command> --help` for a command's options.",
    "Exit codes: 0 clean, 1 failure, 2 findings (outdated charts, changes).",
  ].join("\n");
}

function commandHelp(command: Command): string {
  return [`usage: ${command.usage}`, "", command.summary, "", ...command.help, "", "common options:", ...COMMON_HELP].join("\n");
}
