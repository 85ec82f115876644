import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ChartroomError } from "../../errors/index.js";
import type { ValuesLayer } from "../../model/values.js";
import { parseValuesFile } from "../../values/layers.js";
import type { ParsedArgs } from "../command.js";

/** `-f/--values` files from the command line, checked to be YAML maps and passed on as they are. */
export async function valuesFiles(cwd: string, args: ParsedArgs): Promise<ValuesLayer[]> {
  const files = (args.values.values as string[] | undefined) ?? [];
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(resolve(cwd, file), "utf8").catch((error: NodeJS.ErrnoException) => {
        throw new ChartroomError("USAGE", `cannot read values file ${file}: ${error.code ?? error.message}`, { place: { file }, hint: "check the path given to --values" });
      });
      parseValuesFile(file, text);
      return { name: file, text };
    }),
  );
}
