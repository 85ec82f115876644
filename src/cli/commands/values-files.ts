import { isAbsolute, resolve } from "node:path";
import { ChartroomError } from "../../errors/index.js";
import type { SetFlag, ValuesLayer } from "../../model/values.js";
import { maxFileBytes, readTextFor } from "../../util/fs.js";
import { sha256Hex } from "../../util/hash.js";
import { parseValuesFile, rememberSecretLooking } from "../../values/layers.js";
import { flagValues, renameSetFiles, SET_ORDER } from "../../values/set-flags.js";
import type { ParsedArgs } from "../command.js";

/**
 * The values given on the command line, in the order helm applies them:
 * each `-f` file (checked to be a YAML map, passed on as it is), then each
 * flag (checked as helm parses it; a `--set-file`'s paths made absolute and
 * read).
 */
export async function valuesFiles(cwd: string, args: ParsedArgs): Promise<ValuesLayer[]> {
  const files = await Promise.all(
    ((args.values.values as string[] | undefined) ?? []).map(async (file) => {
      const text = (await readTextFor(resolve(cwd, file), "the values file given with --values", {
        place: { file },
        shown: file,
        maxBytes: maxFileBytes(),
        hint: "check the path given to --values",
      })) as string;
      parseValuesFile(file, text);
      return { name: file, text };
    }),
  );
  const flags: ValuesLayer[] = [];
  for (const option of SET_ORDER) {
    for (const arg of (args.values[option] as string[] | undefined) ?? []) {
      const flag: SetFlag = option === "set-file" ? await withFiles(cwd, arg) : { option, arg };
      const values = flagValues(flag);
      rememberSecretLooking(values);
      // The render's key: the flag as given and the files' texts (hashed), never printed.
      const text = JSON.stringify({ option, arg: flag.arg, files: digests(flag.files ?? {}) });
      flags.push({ name: `--${option}`, text, values, flag });
    }
  }
  return [...files, ...flags];
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
