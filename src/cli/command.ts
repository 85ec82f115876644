import { resolve } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { ChartroomError } from "../errors/index.js";
import type { AnyReport, Format, ReportKind } from "../report/registry.js";
import type { Project } from "../project/project.js";

/** Everything a command may touch, passed in so tests can run the CLI in-process. */
export interface CliContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Progress for long work; goes to stderr on a terminal, never into the output. */
  progress: (line: string) => void;
  /** Whether stdout is a terminal (colour then, unless --color, NO_COLOR or FORCE_COLOR say otherwise: cli/output.ts). */
  colour: boolean;
  /** Standard input, whole, or its first `maxBytes` when it holds more (the rest unread), for `-f -`. None where there is no stdin to read. */
  readStdin?: (maxBytes: number) => Promise<Buffer>;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  format: Format;
}

/**
 * A command parses, calls one workflow and returns its report; run.ts
 * renders the report in the asked format and decides nothing else.
 */
export interface Command<R extends AnyReport = AnyReport> {
  name: string;
  summary: string;
  usage: string;
  /** Lines describing the command's own options, for --help. */
  help: string[];
  options: NonNullable<ParseArgsConfig["options"]>;
  /** The report kinds it returns (for the formats it accepts). */
  reports: ReportKind[];
  run(project: Project, args: ParsedArgs, context: CliContext): Promise<R>;
  /** 0 clean, 1 a problem the report names, 2 changes or findings (exit 2 only under --detailed-exitcode); failures throw. */
  exitCode(report: R, args: ParsedArgs): 0 | 1 | 2;
  /** What fails the run whatever the flags (exit 2): `check`'s errors, what would stop a deploy. */
  failed?(report: R): boolean;
}

/** Options every command takes. */
export const COMMON_OPTIONS: NonNullable<ParseArgsConfig["options"]> = {
  config: { type: "string", short: "c" },
  output: { type: "string", short: "o" },
  format: { type: "string" },
  "output-file": { type: "string" },
  color: { type: "string" },
  "no-color": { type: "boolean" },
  "detailed-exitcode": { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

export function commonHelp(formats: readonly Format[]): string[] {
  return [
    "  -c, --config <file>        the config file (default: ./chartroom.config.ts)",
    `  -o, --output <format>      ${formats.join(" | ")} (default: text; --format is the same)`,
    "      --output-file <file>   write the report to a file instead of stdout",
    "      --color <when>         auto (colour on a terminal), always or never; FORCE_COLOR",
    "                             and NO_COLOR are read too",
    "      --detailed-exitcode    exit 2 when there are changes or findings (else 0), as",
    "                             helmfile and terraform; what would fail a deploy exits 2",
    "                             anyway",
    "  -h, --help                 this help",
  ];
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
}

/** A whole number of at least 0 (`--context 5`), or undefined when not given. */
export function countOption(args: ParsedArgs, name: string): number | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new ChartroomError("USAGE", `--${name} takes a whole number, not "${value}"`, { hint: `for example --${name} 3` });
  return Number(value);
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/** The options of a command that can ask a live cluster. */
export const CLUSTER_OPTIONS: NonNullable<ParseArgsConfig["options"]> = {
  cluster: { type: "boolean" },
  kubeconfig: { type: "string" },
  context: { type: "string" },
};

export const CLUSTER_HELP = [
  "      --kubeconfig <file>  with --cluster: the cluster's kubeconfig (never the ambient one;",
  "                           default: the stack's `cluster` in the config)",
  "      --context <name>     with --cluster: its context (default: the file's current-context)",
];

/**
 * `--cluster [--kubeconfig F] [--context C]`: undefined without --cluster; a
 * kubeconfig left out is the stack's in the config (the workflow finds it).
 */
export function clusterOption(args: ParsedArgs, cwd: string): { kubeconfig?: string; context?: string } | undefined {
  const kubeconfig = stringOption(args, "kubeconfig");
  const context = stringOption(args, "context");
  if (!flag(args, "cluster")) {
    if (kubeconfig !== undefined || context !== undefined) {
      throw new ChartroomError("USAGE", "--kubeconfig and --context go with --cluster", { hint: "add --cluster to review against the cluster" });
    }
    return undefined;
  }
  return { ...(kubeconfig === undefined ? {} : { kubeconfig: resolve(cwd, kubeconfig) }), ...(context === undefined ? {} : { context }) };
}
