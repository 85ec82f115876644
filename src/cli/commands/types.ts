import type { TypesReport } from "../../report/codegen.js";
import { flag, type Command } from "../command.js";

export const typesCommand: Command<TypesReport> = {
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
  reports: ["types"],
  // Loaded only here: the type generator is the heaviest dependency.
  run: async (project, args) => (await import("../../codegen/index.js")).types(project, { check: flag(args, "check") }),
  exitCode: (report) => (report.status === "stale" ? 1 : 0),
};
