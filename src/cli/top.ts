import type { Command } from "./command.js";

// What `chartroom --help` and `--version` print, in a module of its own: the
// CLI answers them before loading anything else (cli/main.ts).

export const VERSION = "chartroom 0.1.0";

// Loaded on demand so `chartroom --help` does not load every command's code.
export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  lock: { summary: "resolve declared ranges and pin them in charts.lock.json", load: async () => (await import("./commands/lock.js")).lockCommand as Command },
  outdated: { summary: "show charts with newer versions", load: async () => (await import("./commands/outdated.js")).outdatedCommand as Command },
  plan: {
    summary: "summarise every chart: pin, verified digest, outdated status",
    load: async () => (await import("./commands/plan.js")).planCommand as Command,
  },
  render: { summary: "render a chart with the platform's values, offline", load: async () => (await import("./commands/render.js")).renderCommand as Command },
  upgrade: {
    summary: "move pins to the highest version in range, showing what each move does",
    load: async () => (await import("./commands/upgrade.js")).upgradeCommand as Command,
  },
  check: {
    summary: "validate values for every chart and stack, catch unknown keys",
    load: async () => (await import("./commands/check.js")).checkCommand as Command,
  },
  explain: {
    summary: "why a chart gets its engine: hooks, CRDs, schema, pins",
    load: async () => (await import("./commands/explain.js")).explainCommand as Command,
  },
  images: {
    summary: "list every container image the charts run, with its locked digest",
    load: async () => (await import("./commands/images.js")).imagesCommand as Command,
  },
  types: { summary: "generate TypeScript types of every chart's values", load: async () => (await import("./commands/types.js")).typesCommand as Command },
  diff: {
    summary: "per-object changes of a version bump, a values edit or a branch",
    load: async () => (await import("./commands/diff.js")).diffCommand as Command,
  },
};

/** The answer to `chartroom --help` or `--version` alone, or undefined for anything else. */
export function quickAnswer(argv: readonly string[]): string | undefined {
  if (argv.length !== 1) return undefined;
  if (argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") return topHelp();
  if (argv[0] === "--version" || argv[0] === "-v") return VERSION;
  return undefined;
}

export function topHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    "chartroom: Helm charts declared in code, pinned, upgraded and reviewed per object",
    "",
    "usage: chartroom <command> [options]",
    "",
    "commands:",
    ...Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`),
    "",
    "Run `chartroom <command> --help` for a command's options;",
    "`chartroom completion bash|zsh|fish` prints a shell completion script.",
    "Exit codes: 0 clean, 1 failure, 2 what would fail a deploy (check's errors), and with",
    "--detailed-exitcode changes or findings (outdated charts, a diff), as helmfile.",
  ].join("\n");
}
