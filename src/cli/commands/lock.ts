import { relative } from "node:path";
import { ChartroomError } from "../../errors.js";
import { findStale } from "../../lock/stale.js";
import { describeChanges, updateLock, type LockChange } from "../../lock/update.js";
import { serialiseLock, writeLock } from "../../lock/write.js";
import { mapLimit } from "../../util/pool.js";
import type { Command, CommandResult, ParsedArgs } from "../command.js";
import { markdownTable, textTable } from "../format.js";
import { renderFactsFor } from "../render-facts.js";
import { archiveFor, openSession, type Session } from "../session.js";

export const lockCommand: Command = {
  name: "lock",
  summary: "resolve declared ranges and pin them in charts.lock.json",
  usage: "chartroom lock [<chart>...] [--frozen]",
  help: [
    "Resolves every declared range (or only the named charts, plus any whose",
    "declaration changed), fetches and verifies each archive, inspects it, and",
    "writes charts.lock.json once everything succeeded. Nothing is written on failure.",
    "",
    "      --frozen          write nothing; exit 1 when the lock no longer matches",
    "                        the declarations or a pinned archive changed (for CI)",
  ],
  options: { frozen: { type: "boolean" } },
  async run(context, args) {
    const session = await openSession(context, args);
    if (args.values.frozen === true) return frozen(session, args);
    const { lock, changes } = await updateLock({
      config: session.config,
      previous: session.lock,
      only: args.positionals,
      sources: session.sources,
      store: session.store,
      renderFacts: renderFactsFor(session),
      onProgress: ({ chart, done, total }) => context.progress(`[${done}/${total}] resolved ${chart}`),
    });
    const unchanged = session.lock !== null && serialiseLock(session.lock) === serialiseLock(lock);
    if (!unchanged) await writeLock(session.lockPath, lock);
    const where = relative(context.cwd, session.lockPath) || session.lockPath;
    return { output: report(changes, args, unchanged ? `${where} is up to date` : `wrote ${where}`), exitCode: 0 };
  },
};

async function frozen(session: Session, args: ParsedArgs): Promise<CommandResult> {
  if (session.lock === null) {
    throw new ChartroomError("LOCK_MISSING", `${session.lockPath} does not exist`, {
      place: { file: session.lockPath },
      hint: "run `chartroom lock` and commit charts.lock.json",
    });
  }
  const stale = findStale(session.config.charts, session.lock);
  if (stale.length > 0) {
    const error = new ChartroomError("LOCK_STALE", `charts.lock.json does not match the config (${stale.length} problem${stale.length === 1 ? "" : "s"})`, {
      place: { file: session.lockPath },
      details: stale.map((entry) => `${entry.chart}: ${entry.reason}`),
      hint: "run `chartroom lock` and commit the result",
    });
    throw error;
  }
  const lock = session.lock;
  // Every pinned archive must still be the one the lock names.
  await mapLimit(session.config.charts, 8, async (spec) => {
    const pin = lock.charts[spec.key];
    if (pin === undefined) return;
    const source = session.sources.get(spec.repository.name);
    if (source === undefined) return;
    await archiveFor(session, spec, { pin }, await source.listVersions(spec.chart));
  });
  return { output: report(describeChanges(lock, lock), args, "charts.lock.json matches the config; every pinned archive verified"), exitCode: 0 };
}

function report(changes: LockChange[], args: ParsedArgs, headline: string): string {
  if (args.format === "json") return JSON.stringify({ message: headline, changes }, null, 2);
  const headers = ["CHART", "CHANGE", "FROM", "TO"];
  const rows = changes.map((change) => [change.chart, change.kind, change.from ?? "-", change.to ?? "-"]);
  if (args.format === "markdown") return `${headline}\n\n${markdownTable(headers, rows)}`;
  const coloured = rows.map(([chart, kind, from, to]) => [chart ?? "", colourKind(kind ?? "", args), from ?? "", to ?? ""]);
  return `${textTable(headers, coloured)}\n\n${headline}`;
}

function colourKind(kind: string, args: ParsedArgs): string {
  if (kind === "added") return args.paint(kind, "green");
  if (kind === "updated") return args.paint(kind, "yellow");
  if (kind === "removed") return args.paint(kind, "red");
  return args.paint(kind, "dim");
}
