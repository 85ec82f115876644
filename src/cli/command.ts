import type { ParseArgsConfig } from "node:util";
import type { Colour, Format } from "./format.js";

/** Everything a command may touch, passed in so tests can run commands in-process. */
export interface CliContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Progress for long work; goes to stderr, never mixed into the output. */
  progress: (line: string) => void;
  colour: boolean;
}

export interface CommandResult {
  output: string;
  exitCode: 0 | 1 | 2;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  format: Format;
  paint: (text: string, colour: Colour) => string;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Lines describing the command's own options, for --help. */
  help: string[];
  options: NonNullable<ParseArgsConfig["options"]>;
  run(context: CliContext, args: ParsedArgs): Promise<CommandResult>;
}

/** Options every command takes. */
export const COMMON_OPTIONS: NonNullable<ParseArgsConfig["options"]> = {
  config: { type: "string", short: "c" },
  format: { type: "string", short: "o" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

export const COMMON_HELP = [
  "  -c, --config <file>   the config file (default: ./chartroom.config.ts)",
  "  -o, --format <fmt>    text | json | markdown (default: text)",
  "      --no-color        no colour (also when NO_COLOR is set or output is not a terminal)",
  "  -h, --help            this help",
];
