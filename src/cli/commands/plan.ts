import type { PlanReport } from "../../report/plan.js";
import { flag, type Command } from "../command.js";

export const planCommand: Command<PlanReport> = {
  name: "plan",
  summary: "summarise every declared chart: pin, verified digest, outdated status, engine",
  usage: "chartroom plan [<chart>...] [--cluster]",
  help: [
    "Verifies each pinned archive against charts.lock.json (from the cache or the",
    "repository) and compares the pin with what the repository offers.",
    "Exits 1 when a pin is missing, stale or fails verification.",
    "",
    "For an outdated chart it renders the pin and the next version (wanted, else",
    "latest) for every stack and summarises the per-object diff.",
    "",
    "With --detailed-exitcode, exits 2 when a chart is outdated.",
    "",
    "      --no-diff            skip rendering the next versions",
    "      --cluster            also review each next version against each stack's own",
    "                           cluster (stacks.<name>.cluster in the config), as diff --cluster",
  ],
  options: { "no-diff": { type: "boolean" }, cluster: { type: "boolean" } },
  reports: ["plan"],
  run: async (project, args) =>
    (await import("../../workflows/plan.js")).plan(project, { charts: args.positionals, diff: !flag(args, "no-diff"), cluster: flag(args, "cluster") }),
  exitCode(report) {
    if (report.charts.some((row) => row.problems.length > 0)) return 1;
    return report.charts.some((row) => row.outdated?.outdated === true) ? 2 : 0;
  },
};
