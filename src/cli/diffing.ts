import type { ChartSpec, StackSpec } from "../config/types.js";
import type { ChartReport } from "../diff/model.js";
import type { SharedBlocks } from "../render/fast-yaml.js";
import type { ValuesLayer } from "../render/template.js";
import { chartReport, type ChartSide, type ReportOptions } from "../diff/report.js";
import { ChartroomError } from "../errors.js";
import type { LockedChart } from "../lock/schema.js";
import { highestInRange, latestVersion } from "../lock/resolve.js";
import type { ChartVersion } from "../sources/types.js";
import { contractDiff, type ContractChange } from "../values/contract.js";
import { mergeLayers } from "../values/coalesce.js";
import { readValuesLayers } from "../values/layers.js";
import { contractFor } from "./contracts.js";
import { renderFor, stackName } from "./rendering.js";
import type { Session } from "./session.js";

/** One side of a comparison: a session (working tree or a git ref) and what to render from it. */
export interface Side {
  session: Session;
  spec: ChartSpec;
  target: { pin: LockedChart } | { version: ChartVersion };
}

export interface CompareOptions extends ReportOptions {
  noCache: boolean;
  /** Values files from the command line, on both sides (as values given in code). */
  extra?: ValuesLayer[];
}

export async function renderSide(side: Side | null, stack: StackSpec | undefined, options: CompareOptions, shared?: SharedBlocks): Promise<ChartSide | null> {
  if (side === null) return null;
  const rendering = await renderFor({ ...side, stack, noCache: options.noCache, shared, extra: options.extra });
  return { version: rendering.version, objects: rendering.objects, unstable: new Set(rendering.unstable) };
}

/** Render both sides for one stack and compare them. */
export async function compareSides(before: Side | null, after: Side | null, stack: StackSpec | undefined, options: CompareOptions): Promise<ChartReport> {
  const shared: SharedBlocks = new Map();
  const [old, next] = await Promise.all([renderSide(before, stack, options, shared), renderSide(after, stack, options, shared)]);
  const spec = (after ?? before)?.spec;
  const pin = [after, before].map((side) => (side !== null && "pin" in side.target ? side.target.pin : undefined)).find((p) => p !== undefined);
  const report = chartReport({ chart: spec?.key ?? "?", stack: stackName(stack), engine: pin?.engine.name ?? "chart" }, old, next, options);
  if (before !== null && after !== null && old?.version !== next?.version) report.contract = await contractChanges(before, after, stack);
  return report;
}

/** The values contract change between the two sides' versions, for the values the newer side sets. */
async function contractChanges(before: Side, after: Side, stack: StackSpec | undefined): Promise<ContractChange[]> {
  const [was, now] = await Promise.all([contractFor(before.session, before.spec, before.target), contractFor(after.session, after.spec, after.target)]);
  const layers = await readValuesLayers(after.session.config.dir, after.spec.key, stack?.name);
  return contractDiff(mergeLayers(layers.map((layer) => layer.values)), was, now);
}

/** `--to 1.2.3 | wanted | latest`: the version a chart would move to. */
export async function targetVersion(session: Session, spec: ChartSpec, to: string): Promise<ChartVersion> {
  const source = session.sources.get(spec.repository.name);
  if (source === undefined) throw new Error(`no source for ${spec.repository.name}`);
  const versions = await source.listVersions(spec.chart);
  const found =
    to === "wanted" ? highestInRange(versions, spec.range, spec.prerelease) : to === "latest" ? latestVersion(versions, spec.prerelease) : versions.find((v) => v.version === to);
  if (found === undefined) {
    throw new ChartroomError("VERSION_NOT_FOUND", `${spec.chart} has no version "${to}" in ${spec.repository.url}`, {
      place: { chart: spec.key },
      hint: "pass an exact version, `wanted` or `latest`; `chartroom outdated` lists what exists",
    });
  }
  return found;
}

export function requirePin(session: Session, spec: ChartSpec): LockedChart {
  const pin = session.lock?.charts[spec.key];
  if (pin === undefined) {
    throw new ChartroomError("LOCK_MISSING", `${spec.key} is not in charts.lock.json`, {
      place: { chart: spec.key, file: session.lockPath },
      hint: "run `chartroom lock` first",
    });
  }
  return pin;
}
