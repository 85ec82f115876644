import type { CheckReport } from "../../report/check.js";
import { stringOption, type Command } from "../command.js";

export const checkCommand: Command<CheckReport> = {
  name: "check",
  summary: "validate every chart's values for every stack, and catch unknown keys",
  usage: "chartroom check [<chart>...] [--stack S]",
  help: [
    "Coalesces the chart's defaults with values/<chart>/values.yaml and",
    "values/<chart>/<stack>.yaml as Helm does, validates the result against the",
    "pinned version's values.schema.json (honouring its $schema draft, subcharts",
    "against their own), reports keys the chart does not know, and values files",
    "no declared chart or stack reads. Exits 2 when any error is found.",
    "",
    "      --stack <name>     one stack only",
  ],
  options: { stack: { type: "string" } },
  reports: ["check"],
  run: async (project, args) => (await import("../../workflows/check.js")).check(project, { charts: args.positionals, stack: stringOption(args, "stack") }),
  exitCode: (report) => (report.failed ? 2 : 0),
};
