import type { OutdatedReport } from "../../report/outdated.js";
import type { Command } from "../command.js";

export const outdatedCommand: Command<OutdatedReport> = {
  name: "outdated",
  summary: "show charts with newer versions: current, wanted (in range), latest",
  usage: "chartroom outdated [<chart>...]",
  help: ["With --detailed-exitcode, exits 2 when any chart is outdated (or not locked yet), 0 when all are current."],
  options: {},
  reports: ["outdated"],
  run: async (project, args) => (await import("../../workflows/outdated.js")).outdated(project, { charts: args.positionals }),
  exitCode: (report) => (report.charts.some((row) => row.outdated) ? 2 : 0),
};
