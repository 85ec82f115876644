import * as semver from "../util/semver.js";
import type { ChartSpec } from "../config/types.js";
import type { ChartVersion } from "../model/charts.js";
import { highestInRange, latestVersion } from "./resolve.js";

/** How big a version step is, in semver terms. */
export type UpdateType = "major" | "minor" | "patch" | "prerelease";

/** One chart's pin against its repository's versions. */
export interface OutdatedRow {
  chart: string;
  repository: string;
  /** The pinned version; undefined when the chart is not locked yet. */
  current?: string;
  /** Highest version in the declared range. */
  wanted?: string;
  /** Highest version at all. */
  latest?: string;
  /** How big a step from current to latest (or to wanted when latest is not newer). */
  updateType?: UpdateType;
  outdated: boolean;
}

/** Pure: the pin, the declaration and the listing give the row. */
export function outdatedRow(spec: ChartSpec, locked: { version: string } | undefined, versions: readonly ChartVersion[]): OutdatedRow {
  const wanted = highestInRange(versions, spec.range, spec.prerelease)?.version;
  const latest = latestVersion(versions, spec.prerelease)?.version;
  const current = locked?.version;
  const target = [latest, wanted].find((v) => v !== undefined && (current === undefined || newer(v, current)));
  return {
    chart: spec.key,
    repository: spec.repository.url,
    current,
    wanted,
    latest,
    updateType: current !== undefined && target !== undefined ? updateType(current, target) : undefined,
    outdated: current === undefined || target !== undefined,
  };
}

function newer(candidate: string, current: string): boolean {
  return semver.valid(current) === null || semver.gt(candidate, current);
}

export function updateType(from: string, to: string): UpdateType | undefined {
  const step = semver.valid(from) === null ? "major" : semver.diff(from, to);
  switch (step) {
    case "major":
    case "premajor":
      return "major";
    case "minor":
    case "preminor":
      return "minor";
    case "patch":
    case "prepatch":
      return "patch";
    case "prerelease":
      return "prerelease";
    default:
      return undefined;
  }
}
