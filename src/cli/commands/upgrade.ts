import { formatMarkdown } from "../../diff/format-markdown.js";
import { formatText } from "../../diff/format-text.js";
import type { ChartReport } from "../../diff/model.js";
import { diffReport } from "../../diff/report.js";
import { highestInRange, latestVersion } from "../../lock/resolve.js";
import { updateLock } from "../../lock/update.js";
import { writeLock } from "../../lock/write.js";
import semver from "semver";
import type { Command } from "../command.js";
import { compareSides, requirePin } from "../diffing.js";
import { renderFactsFor } from "../render-facts.js";
import { stacksFor } from "../rendering.js";
import { openSession, selectCharts } from "../session.js";

export const upgradeCommand: Command = {
  name: "upgrade",
  summary: "move pins to the highest version in range, showing what each move does first",
  usage: "chartroom upgrade [<chart>...] [--stack S] [--dry-run]",
  help: [
    "For each chart with a newer version inside its declared range, renders the pin",
    "and that version for every stack and reports the per-object diff and the",
    "values contract change, then pins the new versions in charts.lock.json.",
    "A newer version outside the range is named with the config change it needs.",
    "",
    "      --stack <name>     report one stack only (the lock is per chart, not per stack)",
    "      --dry-run          report only; write nothing; exit 2 when upgrades are available",
  ],
  options: { stack: { type: "string" }, "dry-run": { type: "boolean" } },
  async run(context, args) {
    const session = await openSession(context, args);
    const reports: ChartReport[] = [];
    const moves: { key: string; from: string; to: string }[] = [];
    const notes: string[] = [];
    for (const spec of selectCharts(session.config.charts, args.positionals)) {
      const pin = requirePin(session, spec);
      const source = session.sources.get(spec.repository.name);
      if (source === undefined) continue;
      const versions = await source.listVersions(spec.chart);
      const wanted = highestInRange(versions, spec.range, spec.prerelease);
      const latest = latestVersion(versions, spec.prerelease);
      if (latest !== undefined && (wanted === undefined || semver.gt(latest.version, wanted.version))) {
        notes.push(`${spec.key}: ${latest.version} is outside "${spec.range}"; change charts.${spec.key}.version to take it (see \`chartroom diff ${spec.key} --to latest\`)`);
      }
      if (wanted === undefined || !semver.gt(wanted.version, pin.version)) continue;
      moves.push({ key: spec.key, from: pin.version, to: wanted.version });
      for (const stack of stacksFor(session, args.values.stack as string | undefined)) {
        context.progress(`rendering ${spec.key} ${pin.version} and ${wanted.version} for ${stack?.name ?? "default"}`);
        reports.push(await compareSides({ session, spec, target: { pin } }, { session, spec, target: { version: wanted } }, stack, { showSecrets: false, showBookkeeping: false, noCache: false }));
      }
    }
    const dryRun = args.values["dry-run"] === true;
    const keys = moves.map((move) => move.key);
    if (!dryRun && keys.length > 0) {
      const { lock } = await updateLock({ config: session.config, previous: session.lock, only: keys, sources: session.sources, store: session.store, renderFacts: renderFactsFor(session) });
      await writeLock(session.lockPath, lock);
    }
    const report = diffReport(reports);
    const shown = moves.map((move) => `${move.key} ${move.from} → ${move.to}`).join(", ");
    const headline = moves.length === 0 ? "every chart is on the highest version its range allows" : `${dryRun ? "would upgrade" : "upgraded"}: ${shown}`;
    if (args.format === "json") return { output: JSON.stringify({ moves, written: !dryRun && moves.length > 0, notes, report }, null, 2), exitCode: dryRun && moves.length > 0 ? 2 : 0 };
    const body = reports.length === 0 ? "" : args.format === "markdown" ? formatMarkdown(report) : formatText(report, args.paint);
    const output = [body, headline, notes.map((note) => `note: ${note}`).join("\n")].filter(Boolean).join("\n\n");
    return { output, exitCode: dryRun && moves.length > 0 ? 2 : 0 };
  },
};
