import { relative } from "node:path";
import type { ClusterRef, StackSpec } from "../config/types.js";
import type { ChartReport, DiffReport } from "../diff/model.js";
import { attachFindings, diffReport, markMoves } from "../diff/report.js";
import { ChartroomError } from "../errors/index.js";
import type { ValuesLayer } from "../model/values.js";
import { didYouMean } from "../util/nearest.js";
import { snapshotAt } from "../vcs/git.js";
import { targetVersion, type ArchiveTarget } from "../project/archives.js";
import { liveReviewer } from "../project/cluster.js";
import { compareSides, versionTarget, type CompareOptions, type Side } from "../project/compare.js";
import { policyFindings, stackCharts, startPolicies } from "../project/policies.js";
import { openProject, type Project } from "../project/project.js";
import { policyScope, renderPool, sameInputs, sideOf } from "../project/sides.js";
import { requirePin, selectCharts, stackName, stacksFor } from "../project/select.js";
import { mapLimit, settleAll } from "../util/pool.js";

/** Options of `diff`: which charts and stacks, and what to compare with. */
export interface DiffOptions {
  /** Chart keys to compare; all when empty. */
  charts?: readonly string[];
  /** One stack; every declared stack when absent. */
  stack?: string;
  /**
   * Compare each pin with another version of the same chart: an exact
   * version, `wanted` or `latest`. Without it, the platform at `base`
   * (a git ref) is compared with the working tree.
   */
  to?: string;
  /** @default "HEAD" */
  base?: string;
  /** With `to`: values on both sides above the platform's, as values given in code are. */
  values?: readonly ValuesLayer[];
  /** @default false */
  showSecrets?: boolean;
  /** @default false */
  showBookkeeping?: boolean;
  /** Every changed field of a CRD's schema, not counts per version. */
  showSchemaFields?: boolean;
  /** Lines of context around each change of a long value shown line by line. @default 3 */
  context?: number;
  /** @default false */
  noCache?: boolean;
  /**
   * Review the new side against a live cluster, named by a kubeconfig file
   * (never the ambient one) and a context (else the file's current-context);
   * `{}`: the one the stack names in the config (stacks.<name>.cluster).
   * GETs, LISTs and server-side applies with dryRun=All only.
   */
  cluster?: Partial<ClusterRef>;
}

/**
 * `chartroom diff`: render both sides offline and compare them per chart and
 * stack. The report's `changed` is true when anything beyond bookkeeping and
 * every-render noise changed.
 */
export async function diff(project: Project, options: DiffOptions = {}): Promise<DiffReport> {
  if (options.to !== undefined && options.base !== undefined) {
    throw new ChartroomError("USAGE", "--to and --base do not go together", { hint: "compare versions with --to, or commits with --base" });
  }
  if ((options.values?.length ?? 0) > 0 && (options.to === undefined || options.charts?.length !== 1)) {
    throw new ChartroomError("USAGE", "values on the command line (--values, --set…) go with --to and one chart", {
      hint: "name the chart the values are for: chartroom diff <chart> --to <v> -f <file> --set key=value",
    });
  }
  const compare: CompareOptions = {
    showSecrets: options.showSecrets ?? false,
    showBookkeeping: options.showBookkeeping ?? false,
    showSchemaFields: options.showSchemaFields ?? false,
    ...(options.context === undefined ? {} : { context: options.context }),
    noCache: options.noCache,
    extra: options.values,
    ...(options.cluster === undefined ? {} : { live: await liveReviewer(project, stacksFor(project, options.stack), options.cluster) }),
  };
  if (options.to !== undefined) {
    startPolicies(project);
    return diffReport(await versionMode(project, options, options.to, compare));
  }
  const { reports, unchanged } = await baseMode(project, options, options.base ?? "HEAD", compare);
  return diffReport(reports, unchanged);
}

async function versionMode(project: Project, options: DiffOptions, to: string, compare: CompareOptions): Promise<ChartReport[]> {
  const stacks = stacksFor(project, options.stack);
  const targets = new Map<string, ArchiveTarget>();
  const pairs: { side: Side; to: Side; stack: StackSpec | undefined }[] = [];
  for (const spec of selectCharts(project, options.charts)) {
    const version = await versionTarget(project, spec, to);
    targets.set(spec.key, { version });
    for (const stack of stacks)
      pairs.push({ side: { project, spec, target: { pin: requirePin(project, spec) } }, to: { project, spec, target: { version } }, stack });
  }
  let done = 0;
  const reports = await mapLimit(pairs, renderPool(), async (pair) => {
    const report = await compareSides(pair.side, pair.to, pair.stack, compare);
    project.progress(
      `[${++done}/${pairs.length}] compared ${pair.side.spec.key} ${targetVersion(pair.side.target)} and ${targetVersion(pair.to.target)} for ${stackName(pair.stack)}`,
    );
    return report;
  });
  // Policies: the pins, then the same charts moved, over the charts the move can touch.
  for (const stack of stacks) {
    const mine = reports.filter((report) => report.stack === stackName(stack));
    const scope = policyScope(mine, [project], stackName(stack));
    project.progress(`policies for stack ${stackName(stack)}`);
    const [before, after] = await settleAll([stackCharts(project, stack, new Map(), scope), stackCharts(project, stack, targets, scope)]);
    attachFindings(mine, await policyFindings(project, stack, before), await policyFindings(project, stack, after));
  }
  return reports;
}

async function baseMode(project: Project, options: DiffOptions, ref: string, compare: CompareOptions): Promise<{ reports: ChartReport[]; unchanged: number }> {
  const stacks = stacksFor(project, options.stack);
  // The values files stay in memory (a platform has hundreds): only the base's config, lock, policies and chart folders are written out.
  const snapshot = await snapshotAt(project.config.dir, ref, { inMemory: "values" });
  try {
    const base = await openProject({
      dir: snapshot.dir,
      configFile: relative(project.config.dir, project.config.file),
      env: project.env,
      onProgress: (line) => project.progress(line),
      ...(snapshot.files === undefined ? {} : { valuesFiles: snapshot.files }),
    }).catch((error: unknown) => {
      // The platform did not exist at the base: every chart is new.
      if (ChartroomError.isInstance(error) && error.code === "CONFIG_NOT_FOUND") return null;
      throw error;
    });
    const keys = [...new Set([...(base?.config.charts ?? []).map((c) => c.key), ...project.config.charts.map((c) => c.key)])].sort();
    for (const name of options.charts ?? []) {
      if (!keys.includes(name)) {
        throw new ChartroomError("UNKNOWN_CHART", `"${name}" is a chart neither at ${ref} nor in the working tree${didYouMean(name, keys)}`, {
          hint: `charts: ${keys.join(", ")}`,
        });
      }
    }
    const selected = (options.charts?.length ?? 0) > 0 ? keys.filter((key) => options.charts?.includes(key)) : keys;
    // The stack as the base declared it (its kube version then), else as it is now.
    const baseStackOf = (stack: StackSpec | undefined) => base?.config.stacks.find((item) => item.name === stack?.name) ?? stack;
    const pairs = selected.flatMap((key) =>
      stacks.map((stack) => ({ key, stack, before: base === null ? null : sideOf(base, key), after: sideOf(project, key) })),
    );
    // A pair whose render inputs are the same on both sides renders the same objects: skipped.
    const same = await mapLimit(pairs, 8, async (pair) => sameInputs(pair.before, pair.after, baseStackOf(pair.stack), pair.stack));
    const changed = pairs.filter((_, i) => !same[i]);
    // Only now: a review where nothing changed runs no policy and loads no schema.
    if (changed.length > 0) startPolicies(project);
    let done = 0;
    const reports = await mapLimit(changed, renderPool(), async (pair) => {
      const report = await compareSides(pair.before, pair.after, pair.stack, compare, baseStackOf(pair.stack));
      project.progress(`[${++done}/${changed.length}] compared ${pair.key} for ${stackName(pair.stack)} at ${ref} and in the working tree`);
      return report;
    });
    markMoves(reports);
    for (const stack of stacks) {
      const mine = reports.filter((report) => report.stack === stackName(stack));
      if (mine.length === 0) continue;
      const scope = policyScope(mine, [base, project], stackName(stack));
      project.progress(`policies for stack ${stackName(stack)} at ${ref} and in the working tree`);
      const before = base === null ? [] : await policyFindings(base, baseStackOf(stack), await stackCharts(base, baseStackOf(stack), new Map(), scope));
      attachFindings(mine, before, await policyFindings(project, stack, await stackCharts(project, stack, new Map(), scope)));
    }
    return { reports, unchanged: pairs.length - changed.length };
  } finally {
    await snapshot.remove();
  }
}
