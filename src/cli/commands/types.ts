import { join, relative } from "node:path";
import { readFileOrNull, writeFileAtomic } from "../../util/fs.js";
import { mapLimit } from "../../util/pool.js";
import { generateTypes, TYPES_FILE } from "../../values/types.js";
import type { Command } from "../command.js";
import { contractFor } from "../contracts.js";
import { requirePin } from "../diffing.js";
import { openSession } from "../session.js";

export const typesCommand: Command = {
  name: "types",
  summary: "generate TypeScript types of every chart's values into chartroom.types.ts",
  usage: "chartroom types [--check]",
  help: [
    "Writes chartroom.types.ts next to the config: one type per chart, from the",
    "pinned version's values.schema.json (or inferred from its defaults), added to",
    "the ChartValues map so values passed in code are checked by tsc.",
    "",
    "      --check            write nothing; exit 1 when the file is stale (for CI)",
  ],
  options: { check: { type: "boolean" } },
  async run(context, args) {
    const session = await openSession(context, args);
    const charts = await mapLimit(session.config.charts, 8, async (spec) => {
      const contract = await contractFor(session, spec, { pin: requirePin(session, spec) });
      return { key: spec.key, version: contract.version, contract };
    });
    const text = await generateTypes(charts);
    const path = join(session.config.dir, TYPES_FILE);
    const shown = relative(context.cwd, path) || path;
    const current = (await readFileOrNull(path))?.toString("utf8");
    if (args.values.check === true) {
      if (current === text) return { output: `${shown} is up to date (${charts.length} charts)`, exitCode: 0 };
      return { output: `${shown} is stale: run \`chartroom types\` and commit it`, exitCode: 1 };
    }
    if (current !== text) await writeFileAtomic(path, text);
    return { output: `${current === text ? "unchanged" : "wrote"} ${shown} (${charts.length} charts)`, exitCode: 0 };
  },
};
