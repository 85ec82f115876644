import * as semver from "../util/semver.js";
import type { ChartReport } from "../diff/model.js";
import { attachFindings, diffReport, liveStops } from "../diff/report.js";
import { ChartroomError } from "../errors/index.js";
import type { ChartVersion } from "../model/charts.js";
import type { UpgradeMove, UpgradeReport } from "../report/upgrade.js";
import { highestInRange, latestVersion } from "../versions/resolve.js";
import type { ArchiveTarget } from "../project/archives.js";
import type { ClusterRef } from "../config/types.js";
import { liveReviewer } from "../project/cluster.js";
import { compareSides } from "../project/compare.js";
import { policyFindings, stackCharts, startPolicies } from "../project/policies.js";
import { whileWriting } from "../project/writing.js";
import { lockHeld } from "./lock.js";
import type { Project } from "../project/project.js";
import { requirePin, selectCharts, sourceOf, stackName, stacksFor } from "../project/select.js";
import { settleAll } from "../util/pool.js";
import type { ChartSpec } from "../config/types.js";
import { meetsConstraint } from "../util/helm-range.js";
import { retargetRange } from "../versions/retarget.js";
import { versionTarget } from "../project/compare.js";
import { rewriteRanges } from "../project/config-ranges.js";

/** One move with the exact version listed when it was planned. */
type PlannedMove = UpgradeMove & { version: ChartVersion };

/** An upgrade worked out and not applied: apply it as it is with `applyUpgrade`. */
export interface UpgradePlan {
  moves: PlannedMove[];
  notes: string[];
  charts: ChartReport[];
}

/**
 * For each chart (all when none named) with a newer version inside its
 * range: render the pin and that version for every stack (or the one named)
 * and compare. A newer version outside the range is a note naming the
 * config change it needs. Writes nothing.
 */
export interface UpgradeOptions {
  /** Chart keys; all when empty. */
  charts?: readonly string[];
  /** Report one stack only (the lock is per chart, not per stack). */
  stack?: string;
  /**
   * Review each move against a live cluster too (as `diff --cluster`); a
   * move the deploy would stop on (a conflict, an immutable field, a missing
   * right or kind) is then not written. `{}`: the stack's cluster in the config.
   */
  cluster?: Partial<ClusterRef>;
  /**
   * Move to this version rather than the highest in range: an exact version
   * (one chart), `wanted` or `latest`. Outside the declared range, applying
   * the plan rewrites the range in chartroom.config.ts to take it, written
   * as it was (`~1.0.0` → `~2.0.0`): what a bot's pull request needs.
   */
  to?: string;
}

export async function planUpgrade(project: Project, options: UpgradeOptions = {}): Promise<UpgradePlan> {
  startPolicies(project);
  const stacks = stacksFor(project, options.stack);
  const plan: UpgradePlan = { moves: [], notes: [], charts: [] };
  const live = options.cluster === undefined ? undefined : await liveReviewer(project, stacks, options.cluster);
  const specs = selectCharts(project, options.charts);
  if (options.to !== undefined && !["wanted", "latest"].includes(options.to) && specs.length !== 1)
    throw new ChartroomError("USAGE", `--to ${options.to} names one chart's version`, { hint: "name the chart: chartroom upgrade <chart> --to <version>" });
  for (const spec of specs) {
    const pin = requirePin(project, spec);
    const move =
      options.to === undefined ? await nextInRange(project, spec, pin.version, plan.notes) : await moveTo(project, spec, pin.version, options.to, plan.notes);
    if (move === undefined) continue;
    plan.moves.push(move);
    const wanted = move.version;
    for (const stack of stacks) {
      project.progress(`rendering ${spec.key} ${pin.version} and ${wanted.version} for ${stackName(stack)}`);
      plan.charts.push(
        await compareSides({ project, spec, target: { pin } }, { project, spec, target: { version: wanted } }, stack, {
          showSecrets: false,
          showBookkeeping: false,
          ...(live === undefined ? {} : { live }),
        }),
      );
    }
  }
  if (plan.moves.length === 0) return plan;
  const targets = new Map<string, ArchiveTarget>(plan.moves.map((move) => [move.chart, { version: move.version }]));
  for (const stack of stacks) {
    const [before, after] = await settleAll([stackCharts(project, stack), stackCharts(project, stack, targets)]);
    attachFindings(
      plan.charts.filter((report) => report.stack === stackName(stack)),
      await policyFindings(project, stack, before),
      await policyFindings(project, stack, after),
    );
  }
  return plan;
}

/**
 * Pin the plan's versions, exactly those (the repository is not asked again
 * which version is newest), and write charts.lock.json. A plan made against
 * another lock than the project's is refused.
 */
export async function applyUpgrade(project: Project, plan: UpgradePlan): Promise<UpgradeReport> {
  if (plan.moves.length === 0) return upgradeReport(plan, false);
  const stopping = plan.charts.filter((chart) => liveStops(chart.live));
  if (stopping.length > 0) {
    const report = upgradeReport(plan, false);
    report.notes.push(
      `not written: the live review found what the deploy would stop on in ${stopping.map((chart) => `${chart.chart} [${chart.stack}]`).join(", ")} (see live:)`,
    );
    return report;
  }
  // Checked against the lock as it is once this run is its only writer.
  return whileWriting(project, "chartroom upgrade", async () => {
    checkMoves(project, plan);
    const ranges = new Map(plan.moves.flatMap((move) => (move.range === undefined ? [] : [[move.chart, move.range] as const])));
    // The config first (its ranges are what the lock records), put back as it was if the lock cannot be written.
    const restore = ranges.size === 0 ? undefined : await rewriteRanges(project, ranges);
    try {
      await lockHeld(project, { versions: new Map(plan.moves.map((move) => [move.chart, move.version])) });
    } catch (error) {
      await restore?.();
      throw error;
    }
    return upgradeReport(plan, true);
  });
}

function checkMoves(project: Project, plan: UpgradePlan): void {
  for (const move of plan.moves) {
    const pin = requirePin(project, selectCharts(project, [move.chart])[0] as never);
    if (pin.version !== move.from) {
      throw new ChartroomError("LOCK_STALE", `the upgrade plan moves ${move.chart} from ${move.from}, but charts.lock.json pins ${pin.version}`, {
        place: { file: project.lockPath, chart: move.chart },
        hint: "plan the upgrade again against the current lock",
      });
    }
  }
}

/** The highest version in range when it is newer than the pin; a newer one outside the range is a note. */
async function nextInRange(project: Project, spec: ChartSpec, pinned: string, notes: string[]): Promise<PlannedMove | undefined> {
  const versions = await sourceOf(project, spec).listVersions(spec.chart);
  const wanted = highestInRange(versions, spec.range, spec.prerelease);
  const latest = latestVersion(versions, spec.prerelease);
  if (latest !== undefined && (wanted === undefined || semver.gt(latest.version, wanted.version))) {
    notes.push(
      `${spec.key}: ${latest.version} is outside "${spec.range}"; \`chartroom upgrade ${spec.key} --to ${latest.version}\` moves the range too (see \`chartroom diff ${spec.key} --to latest\`)`,
    );
  }
  if (wanted === undefined || !semver.gt(wanted.version, pinned)) return undefined;
  return { chart: spec.key, from: pinned, to: wanted.version, version: wanted };
}

/** The version `--to` names, and the range that takes it when the declared one does not. */
async function moveTo(project: Project, spec: ChartSpec, pinned: string, to: string, notes: string[]): Promise<PlannedMove | undefined> {
  const version = await versionTarget(project, spec, to);
  if (version.version === pinned) {
    notes.push(`${spec.key} is pinned at ${pinned} already`);
    return undefined;
  }
  const move = { chart: spec.key, from: pinned, to: version.version, version };
  if (meetsConstraint(version.version, spec.range, spec.prerelease)) return move;
  const range = retargetRange(spec.range, version.version, spec.prerelease);
  if (range === undefined) {
    throw new ChartroomError("RANGE_NOT_MOVED", `${spec.key} ${version.version} is outside "${spec.range}", a range chartroom does not rewrite`, {
      place: { file: project.config.file, key: `charts.${spec.key}.version`, chart: spec.key },
      hint: `write a range that takes ${version.version} in charts.${spec.key}.version (chartroom rewrites an exact version, ^, ~ and x ranges), then run \`chartroom lock ${spec.key}\``,
    });
  }
  return { ...move, range: { from: spec.range, to: range } };
}

export function upgradeReport(plan: UpgradePlan, written: boolean): UpgradeReport {
  return {
    report: "upgrade",
    format: 1,
    moves: plan.moves.map(({ chart, from, to, range }) => ({ chart, from, to, ...(range === undefined ? {} : { range }) })),
    notes: plan.notes,
    written,
    diff: diffReport(plan.charts),
  };
}
