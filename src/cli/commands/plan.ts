import type { ChartSpec } from "../../config/types.js";
import type { ObjectAction } from "../../diff/model.js";
import { countActions, describeCounts } from "../../diff/report.js";
import { compareSides, targetVersion } from "../diffing.js";
import { stackName, stacksFor } from "../rendering.js";
import { ChartroomError } from "../../errors.js";
import { outdatedRow, type OutdatedRow } from "../../lock/outdated.js";
import type { LockedChart } from "../../lock/schema.js";
import { staleReasons } from "../../lock/stale.js";
import { mapLimit } from "../../util/pool.js";
import type { Command, ParsedArgs } from "../command.js";
import { markdownTable, shortDigest, textTable } from "../format.js";
import { archiveFor, openSession, selectCharts, type Session } from "../session.js";

/** One chart's line in the plan: the pin, whether its archive checks out, what is newer. */
export interface PlanRow {
  chart: string;
  namespace: string;
  range: string;
  pinned?: string;
  digest?: string;
  verified: boolean;
  engine?: string;
  outdated?: OutdatedRow;
  /** What moving to the next version (wanted, else latest) does, per stack. */
  next?: { version: string; stacks: Record<string, Record<ObjectAction, number>>; contract: Record<string, number> };
  problems: string[];
}

export const planCommand: Command = {
  name: "plan",
  summary: "summarise every declared chart: pin, verified digest, outdated status, engine",
  usage: "chartroom plan [<chart>...]",
  help: [
    "Verifies each pinned archive against charts.lock.json (from the cache or the",
    "repository) and compares the pin with what the repository offers.",
    "Exits 1 when a pin is missing, stale or fails verification.",
    "",
    "For an outdated chart it renders the pin and the next version (wanted, else",
    "latest) for every stack and summarises the per-object diff.",
    "",
    "      --detailed-exitcode  exit 2 when charts are outdated (and 0 only when all are current)",
    "      --no-diff            skip rendering the next versions",
  ],
  options: { "detailed-exitcode": { type: "boolean" }, "no-diff": { type: "boolean" } },
  async run(context, args) {
    const session = await openSession(context, args);
    const charts = selectCharts(session.config.charts, args.positionals);
    let done = 0;
    const rows = await mapLimit(charts, 4, async (spec) => {
      const row = await planRow(spec, session);
      if (args.values["no-diff"] !== true) await addNext(row, spec, session);
      context.progress(`[${++done}/${charts.length}] checked ${spec.key}`);
      return row;
    });
    const failed = rows.some((row) => row.problems.length > 0);
    const outdated = rows.some((row) => row.outdated?.outdated === true);
    const exitCode = failed ? 1 : outdated && args.values["detailed-exitcode"] === true ? 2 : 0;
    return { output: render(rows, args), exitCode };
  },
};

async function planRow(spec: ChartSpec, session: Session): Promise<PlanRow> {
  const pin: LockedChart | undefined = session.lock?.charts[spec.key];
  const row: PlanRow = { chart: spec.key, namespace: spec.namespace, range: spec.range, verified: false, problems: [] };
  if (pin === undefined) {
    row.problems.push("not locked: run `chartroom lock`");
    return row;
  }
  Object.assign(row, { pinned: pin.version, digest: pin.digest, engine: pin.engine.name });
  row.problems.push(...staleReasons(spec, pin).map((reason) => `stale: ${reason}`));
  const source = session.sources.get(spec.repository.name);
  if (source === undefined) return row;
  try {
    const versions = await source.listVersions(spec.chart);
    row.outdated = outdatedRow(spec, pin, versions);
    await archiveFor(session, spec, { pin }, versions);
    row.verified = true;
  } catch (error) {
    if (!ChartroomError.isInstance(error)) throw error;
    row.problems.push(`${error.code}: ${error.message}`);
  }
  return row;
}

async function addNext(row: PlanRow, spec: ChartSpec, session: Session): Promise<void> {
  const outdated = row.outdated;
  const pin = session.lock?.charts[spec.key];
  if (!row.verified || outdated === undefined || pin === undefined) return;
  const next = [outdated.wanted, outdated.latest].find((version) => version !== undefined && version !== pin.version);
  if (next === undefined) return;
  try {
    const version = await targetVersion(session, spec, next);
    const stacks: Record<string, Record<ObjectAction, number>> = {};
    const contract: Record<string, number> = {};
    for (const stack of stacksFor(session)) {
      const report = await compareSides({ session, spec, target: { pin } }, { session, spec, target: { version } }, stack, { showSecrets: false, showBookkeeping: false, noCache: false });
      stacks[stackName(stack)] = countActions(report);
      contract[stackName(stack)] = report.contract.filter((change) => change.kind !== "default").length;
    }
    row.next = { version: next, stacks, contract };
  } catch (error) {
    if (!ChartroomError.isInstance(error)) throw error;
    row.problems.push(`rendering ${next}: ${error.code}: ${error.message}`);
  }
}

function status(row: PlanRow): string {
  if (row.problems.length > 0) return row.problems.join("; ");
  const outdated = row.outdated;
  if (outdated === undefined || !outdated.outdated) return "up to date";
  const parts: string[] = [];
  if (outdated.wanted !== undefined && outdated.wanted !== row.pinned) parts.push(`wanted ${outdated.wanted}`);
  if (outdated.latest !== undefined && outdated.latest !== outdated.wanted) parts.push(`latest ${outdated.latest}`);
  return `${parts.join(", ")} (${outdated.updateType ?? "update"})`;
}

function render(rows: PlanRow[], args: ParsedArgs): string {
  if (args.format === "json") return JSON.stringify({ charts: rows }, null, 2);
  const headers = ["CHART", "NAMESPACE", "RANGE", "PINNED", "DIGEST", "VERIFIED", "ENGINE", "STATUS"];
  const cells = rows.map((row) => [
    row.chart,
    row.namespace,
    row.range,
    row.pinned ?? "-",
    row.digest === undefined ? "-" : shortDigest(row.digest),
    row.verified ? "yes" : "no",
    row.engine ?? "-",
    status(row),
  ]);
  if (args.format === "markdown") return markdownTable(headers, cells);
  const painted = cells.map((cell, i) => {
    const row = rows[i];
    const colour = row === undefined || row.problems.length > 0 ? "red" : row.outdated?.outdated ? "yellow" : "green";
    return cell.map((text, column) => (column === 5 || column === 7 ? args.paint(text, colour) : text));
  });
  const verified = rows.filter((row) => row.verified).length;
  const next = rows.filter((row) => row.next !== undefined).map((row) => {
    const stacks = Object.entries(row.next?.stacks ?? {}).map(([stack, counts]) => {
      const contract = row.next?.contract[stack] ?? 0;
      return `    ${stack}: ${describeCounts(counts)}${contract > 0 ? `; ${contract} values contract finding(s)` : ""}`;
    });
    return [`  ${row.chart} ${row.pinned} → ${row.next?.version}`, ...stacks].join("\n");
  });
  const nextBlock = next.length === 0 ? "" : `\n\nWhat the next version does (chartroom diff <chart> --to <version> for details):\n${next.join("\n")}`;
  return `${textTable(headers, painted)}${nextBlock}\n\n${rows.length} charts, ${verified} verified against charts.lock.json`;
}
