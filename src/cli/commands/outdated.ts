import type { ChartSpec } from "../../config/types.js";
import { outdatedRow, type OutdatedRow } from "../../lock/outdated.js";
import type { LockedChart } from "../../lock/schema.js";
import type { ChartSource } from "../../sources/types.js";
import { mapLimit } from "../../util/pool.js";
import type { Command, ParsedArgs } from "../command.js";
import { markdownTable, textTable } from "../format.js";
import { openSession, selectCharts } from "../session.js";

export const outdatedCommand: Command = {
  name: "outdated",
  summary: "show charts with newer versions: current, wanted (in range), latest",
  usage: "chartroom outdated [<chart>...]",
  help: ["Exits 2 when any chart is outdated (or not locked yet), 0 when all are current."],
  options: {},
  async run(context, args) {
    const session = await openSession(context, args);
    const charts = selectCharts(session.config.charts, args.positionals);
    const rows = await outdatedRows(charts, session.lock?.charts ?? {}, session.sources);
    return { output: render(rows, args), exitCode: rows.some((row) => row.outdated) ? 2 : 0 };
  },
};

export async function outdatedRows(charts: ChartSpec[], pins: Record<string, LockedChart>, sources: Map<string, ChartSource>): Promise<OutdatedRow[]> {
  return mapLimit(charts, 8, async (spec) => {
    const source = sources.get(spec.repository.name);
    const versions = source === undefined ? [] : await source.listVersions(spec.chart);
    return outdatedRow(spec, Object.hasOwn(pins, spec.key) ? pins[spec.key] : undefined, versions);
  });
}

function render(rows: OutdatedRow[], args: ParsedArgs): string {
  if (args.format === "json") return JSON.stringify({ charts: rows }, null, 2);
  const headers = ["CHART", "CURRENT", "WANTED", "LATEST", "UPDATE", "REPOSITORY"];
  const shown = rows.filter((row) => row.outdated);
  if (shown.length === 0) return "every chart is on its latest version";
  const cells = shown.map((row) => [row.chart, row.current ?? "(not locked)", row.wanted ?? "-", row.latest ?? "-", row.updateType ?? "-", row.repository]);
  if (args.format === "markdown") return markdownTable(headers, cells);
  return textTable(
    headers,
    cells.map((cell, i) => {
      const type = shown[i]?.updateType;
      const colour = type === "major" ? "red" : type === "minor" ? "yellow" : "green";
      return cell.map((text, column) => (column === 4 ? args.paint(text, colour) : text));
    }),
  );
}
