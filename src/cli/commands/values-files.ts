import { resolve } from "node:path";
import { maxFileBytes, readTextFor } from "../../util/fs.js";
import type { ValuesLayer } from "../../model/values.js";
import { parseValuesFile } from "../../values/layers.js";
import type { ParsedArgs } from "../command.js";

/** `-f/--values` files from the command line, checked to be YAML maps and passed on as they are. */
export async function valuesFiles(cwd: string, args: ParsedArgs): Promise<ValuesLayer[]> {
  const files = (args.values.values as string[] | undefined) ?? [];
  return Promise.all(
    files.map(async (file) => {
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
}
