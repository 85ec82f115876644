import { ChartroomError } from "../errors/index.js";
import { FORMATS } from "../report/formats.js";
import { COMMON_OPTIONS, type Command } from "./command.js";
import { COMMANDS } from "./top.js";

// Shell completion, as kubectl and helm ship it: `chartroom completion bash`
// prints a script to source. Commands and their options are written into it;
// chart keys and stack names are asked of the platform when completing
// (`chartroom __complete charts|stacks`, quiet when there is no platform).

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

/** Options whose value is a file, a format, a colour choice or a stack. */
const FILE_OPTIONS = ["--config", "-c", "--output-file", "--kubeconfig", "--values", "-f", "--set-file"];
const COLOURS = ["auto", "always", "never"];

interface Entry {
  name: string;
  summary: string;
  options: Flag[];
}

interface Flag {
  long: string;
  short?: string;
}

export async function completionScript(shell: string): Promise<string> {
  if (!SHELLS.includes(shell as Shell))
    throw new ChartroomError("USAGE", `no completion for "${shell}"`, { hint: `chartroom completion ${SHELLS.join(" | ")}` });
  const commands = await Promise.all(
    Object.entries(COMMANDS).map(async ([name, entry]): Promise<Entry> => ({ name, summary: entry.summary, options: optionNames(await entry.load()) })),
  );
  return shell === "bash" ? bash(commands) : shell === "zsh" ? zsh(commands) : fish(commands);
}

function optionNames(command: Command): Flag[] {
  const options = { ...COMMON_OPTIONS, ...command.options };
  return Object.entries(options).map(([name, option]) => (option.short === undefined ? { long: name } : { long: name, short: option.short }));
}

/** Every spelling of a command's options, as bash offers them. */
function spellings(options: Flag[]): string[] {
  return options.flatMap((flag) => [`--${flag.long}`, ...(flag.short === undefined ? [] : [`-${flag.short}`])]).sort();
}

function bash(commands: Entry[]): string {
  const cases = commands.map((command) => `    ${command.name}) opts="${spellings(command.options).join(" ")}" ;;`).join("\n");
  return `# chartroom completion for bash: add to ~/.bashrc
#   source <(chartroom completion bash)
_chartroom() {
  local cur prev command opts
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${commands.map((command) => command.name).join(" ")} completion --help --version" -- "$cur") )
    return
  fi
  command="\${COMP_WORDS[1]}"
  case "$prev" in
    ${FILE_OPTIONS.join("|")}) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
    -o|--output|--format) COMPREPLY=( $(compgen -W "${FORMATS.join(" ")}" -- "$cur") ); return ;;
    --color) COMPREPLY=( $(compgen -W "${COLOURS.join(" ")}" -- "$cur") ); return ;;
    --stack) COMPREPLY=( $(compgen -W "$(chartroom __complete stacks 2>/dev/null)" -- "$cur") ); return ;;
  esac
  case "$command" in
${cases}
    completion) COMPREPLY=( $(compgen -W "${SHELLS.join(" ")}" -- "$cur") ); return ;;
    *) opts="" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
  else
    COMPREPLY=( $(compgen -W "$(chartroom __complete charts 2>/dev/null)" -- "$cur") )
  fi
}
complete -F _chartroom chartroom
`;
}

/** zsh through its bash emulation: one script to keep, the same answers. */
function zsh(commands: Entry[]): string {
  return `#compdef chartroom
# chartroom completion for zsh: add to ~/.zshrc (after compinit)
#   source <(chartroom completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash(commands)
  .split("\n")
  .filter((line) => !line.startsWith("#"))
  .join("\n")}`;
}

function fish(commands: Entry[]): string {
  const lines = [
    "# chartroom completion for fish: save as ~/.config/fish/completions/chartroom.fish",
    "#   chartroom completion fish > ~/.config/fish/completions/chartroom.fish",
    "complete -c chartroom -f",
    ...commands.map((command) => `complete -c chartroom -n __fish_use_subcommand -a ${command.name} -d ${quote(command.summary)}`),
    `complete -c chartroom -n __fish_use_subcommand -a completion -d ${quote("print a completion script for bash, zsh or fish")}`,
    `complete -c chartroom -n "__fish_seen_subcommand_from completion" -a ${quote(SHELLS.join(" "))}`,
  ];
  for (const command of commands) {
    const when = `-n "__fish_seen_subcommand_from ${command.name}"`;
    lines.push(`complete -c chartroom ${when} -a "(chartroom __complete charts 2>/dev/null)"`);
    for (const { long: name, short } of command.options) {
      const value =
        name === "stack"
          ? ' -x -a "(chartroom __complete stacks 2>/dev/null)"'
          : name === "output" || name === "format"
            ? ` -x -a ${quote(FORMATS.join(" "))}`
            : name === "color"
              ? ` -x -a ${quote(COLOURS.join(" "))}`
              : FILE_OPTIONS.includes(`--${name}`)
                ? " -r -F"
                : "";
      lines.push(`complete -c chartroom ${when} -l ${name}${short === undefined ? "" : ` -s ${short}`}${value}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}
