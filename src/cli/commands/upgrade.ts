import type { UpgradeReport } from "../../report/upgrade.js";
import { liveStops } from "../../diff/report.js";
import { CLUSTER_HELP, CLUSTER_OPTIONS, clusterOption, flag, stringOption, type Command } from "../command.js";

export const upgradeCommand: Command<UpgradeReport> = {
  name: "upgrade",
  summary: "move pins to the highest version in range, showing what each move does first",
  usage: "chartroom upgrade [<chart>...] [--to <version|wanted|latest>] [--stack S] [--dry-run] [--cluster [--kubeconfig F] [--context C]]",
  help: [
    "For each chart with a newer version inside its declared range, renders the pin",
    "and that version for every stack and reports the per-object diff and the",
    "values contract change, then pins exactly those versions in charts.lock.json.",
    "A newer version outside the range is named with the config change it needs.",
    "",
    "      --to <v>             move to this version instead: exact (one chart), `wanted`",
    "                           or `latest`. Outside the declared range, the range in",
    "                           chartroom.config.ts is rewritten to take it, written as it",
    "                           was (~1.0.0 → ~2.0.0; exact, ^, ~ and x ranges), as a bot's",
    "                           pull request needs",
    "      --stack <name>       report one stack only (the lock is per chart, not per stack)",
    "      --dry-run            report only; write nothing (with --detailed-exitcode, exit 2",
    "                           when upgrades are available)",
    "      --cluster            also review each move against a live cluster, as diff --cluster;",
    "                           a move the deploy would stop on (conflict, immutable field,",
    "                           missing kind or right) is not written, and the exit code is 2",
    ...CLUSTER_HELP,
  ],
  options: { to: { type: "string" }, stack: { type: "string" }, "dry-run": { type: "boolean" }, ...CLUSTER_OPTIONS },
  reports: ["upgrade"],
  async run(project, args, context) {
    const { applyUpgrade, planUpgrade, upgradeReport } = await import("../../workflows/upgrade.js");
    const cluster = clusterOption(args, context.cwd);
    const to = stringOption(args, "to");
    const plan = await planUpgrade(project, {
      charts: args.positionals,
      stack: stringOption(args, "stack"),
      ...(to === undefined ? {} : { to }),
      ...(cluster === undefined ? {} : { cluster }),
    });
    return flag(args, "dry-run") ? upgradeReport(plan, false) : applyUpgrade(project, plan);
  },
  exitCode: (report, args) => ((flag(args, "dry-run") || flag(args, "cluster")) && report.moves.length > 0 && !report.written ? 2 : 0),
  // A move the deploy would stop on is left unwritten: that fails the run.
  failed: (report) => report.diff.charts.some((chart) => liveStops(chart.live)),
};
