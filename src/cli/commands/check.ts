import type { CheckReport } from "../../report/check.js";
import { stringOption, type Command } from "../command.js";

export const checkCommand: Command<CheckReport> = {
  name: "check",
  summary: "validate every chart's values for every stack, and catch unknown keys",
  usage: "chartroom check [<chart>...] [--stack S] [--strict]",
  help: [
    "Coalesces the chart's defaults with values/<chart>/values.yaml and",
    "values/<chart>/<stack>.yaml as Helm does, validates the result against the",
    "pinned version's values.schema.json (honouring its $schema draft, subcharts",
    "against their own), reports keys the chart does not know, and values files",
    "no declared chart or stack reads; then renders every chart of each stack and",
    "runs the policy rules (policies/) over all of them together.",
    "Exits 2 when any error is found.",
    "",
    "      --stack <name>     one stack only",
    "      --strict           values files nothing reads are errors, not warnings",
  ],
  options: { stack: { type: "string" }, strict: { type: "boolean" } },
  reports: ["check"],
  run: async (project, args) =>
    (await import("../../workflows/check.js")).check(project, {
      charts: args.positionals,
      stack: stringOption(args, "stack"),
      strict: args.values.strict === true,
    }),
  exitCode: (report) => (report.failed ? 2 : 0),
};
