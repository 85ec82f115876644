import type { ExplainReport } from "../../report/explain.js";
import type { Command } from "../command.js";

export const explainCommand: Command<ExplainReport> = {
  name: "explain",
  summary: "why a chart gets its engine: hooks by stack, CRDs, schema, pins",
  usage: "chartroom explain <chart>",
  help: [
    "Shows, from charts.lock.json, the Pulumi engine a chart gets and why, the hook",
    "events it renders per stack, its CRDs, schema, dependencies and pins, and what",
    "the engine does at every run to objects with random fields.",
  ],
  options: {},
  reports: ["explain"],
  run: async (project, args) => (await import("../../workflows/explain.js")).explain(project, { chart: args.positionals[0] as string }),
  exitCode: () => 0,
};
