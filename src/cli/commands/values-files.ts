import { isAbsolute, resolve } from "node:path";
import { ChartroomError } from "../../errors/index.js";
import type { SetFlag, ValuesLayer } from "../../model/values.js";
import { maxFileBytes, megabytes, readTextFor, textFor } from "../../util/fs.js";
import { sha256Hex } from "../../util/hash.js";
import { parseValuesFile, rememberSecretLooking } from "../../values/layers.js";
import { flagValues, renameSetFiles, SET_ORDER } from "../../values/set-flags.js";
import type { CliContext, ParsedArgs } from "../command.js";

/**
 * The values given on the command line, in the order helm applies them:
 * each `-f` file (checked to be a YAML map, passed on as it is; `-f -` is
 * standard input, as helm reads it), then each flag (checked as helm parses
 * it; a `--set-file`'s paths made absolute and read).
 */
export async function valuesFiles(context: Pick<CliContext, "cwd" | "readStdin">, args: ParsedArgs): Promise<ValuesLayer[]> {
  const given = (args.values.values as string[] | undefined) ?? [];
  if (given.filter((file) => file === STDIN).length > 1)
    throw new ChartroomError("USAGE", "--values - is given more than once: standard input can be read once", { hint: "give `-f -` once" });
  const files = await Promise.all(
    given.map(async (file) => {
      const text =
        file === STDIN
          ? await stdinText(context)
          : ((await readTextFor(resolve(context.cwd, file), "the values file given with --values", {
              place: { file },
              shown: file,
              maxBytes: maxFileBytes(),
              hint: "check the path given to --values",
            })) as string);
      const name = file === STDIN ? STDIN_NAME : file;
      parseValuesFile(name, text);
      return { name, text };
    }),
  );
  const flags: ValuesLayer[] = [];
  for (const option of SET_ORDER) {
    for (const arg of (args.values[option] as string[] | undefined) ?? []) {
      const flag: SetFlag = option === "set-file" ? await withFiles(context.cwd, arg) : { option, arg };
      const values = flagValues(flag);
      rememberSecretLooking(values);
      // The render's key: the flag as given and the files' texts (hashed), never printed.
      const text = JSON.stringify({ option, arg: flag.arg, files: digests(flag.files ?? {}) });
      flags.push({ name: `--${option}`, text, values, flag });
    }
  }
  return [...files, ...flags];
}

const STDIN = "-";
/** How findings and errors name the values read from standard input. */
const STDIN_NAME = "(stdin)";

/** `-f -`: standard input as a values file's text, within the same limits (size, UTF-8). */
async function stdinText(context: Pick<CliContext, "readStdin">): Promise<string> {
  if (context.readStdin === undefined)
    throw new ChartroomError("USAGE", "--values - reads standard input, and there is none here", { hint: "give the values in a file: -f values.yaml" });
  const what = "the values given on standard input (--values -)";
  const max = maxFileBytes();
  // One byte past the limit is enough to refuse: the rest is never read.
  const bytes = await context.readStdin(max + 1);
  if (bytes.length > max)
    throw new ChartroomError("INPUT_TOO_LARGE", `${what} are over the ${megabytes(max)} chartroom reads`, {
      place: { file: STDIN_NAME },
      hint: "give them in a file, or raise CHARTROOM_MAX_FILE_BYTES if they really are this large",
    });
  return textFor(bytes, STDIN_NAME, what, { shown: STDIN_NAME });
}

/** A `--set-file` with its paths absolute (helm runs elsewhere) and their texts read. */
async function withFiles(cwd: string, arg: string): Promise<SetFlag> {
  const { arg: absolute, paths } = renameSetFiles(arg, (path) => (isAbsolute(path) ? path : resolve(cwd, path)));
  const files: Record<string, string> = {};
  for (const path of paths) {
    // Helm would fetch a URL with its getters: chartroom reaches only the repositories a config names.
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) || path.trim() === "-")
      throw new ChartroomError("USAGE", "--set-file takes a local file's path", { hint: "save what it should read to a file and give its path" });
    const full = isAbsolute(path) ? path : resolve(cwd, path);
    files[full] = (await readTextFor(full, "the file given with --set-file", {
      place: { file: path },
      shown: path,
      maxBytes: maxFileBytes(),
      hint: "check the path given to --set-file",
    })) as string;
  }
  return { option: "set-file", arg: absolute, files };
}

function digests(files: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([path, text]) => [path, sha256Hex(text)]));
}
