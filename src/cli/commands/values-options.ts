// The options that give values on the command line, for each command that
// takes them: light, since a command's --help loads this and nothing more.

/** What `-f/--values`, `--set`, `--set-string` and `--set-file` take, for a command's help. */
export const VALUES_HELP = [
  "  -f, --values <file>    more values above the platform's, as values given in code",
  "                         in the Pulumi program are (repeatable; the last wins; - is stdin)",
  "      --set <k=v>        a value, read as helm reads --set: a.b=1,list[0]=x,items={x,y},",
  "                         \\ before , . = [ ] { } takes it as it is; true, false, null and",
  "                         integers are typed (repeatable)",
  "      --set-string <k=v> the same, every value a string",
  "      --set-file <k=path> the text of a local file as the value",
  "                         (after every -f file: --set, then --set-string, then --set-file, as helm)",
];

export const VALUES_OPTIONS = {
  values: { type: "string", short: "f", multiple: true },
  set: { type: "string", multiple: true },
  "set-string": { type: "string", multiple: true },
  "set-file": { type: "string", multiple: true },
} as const;
