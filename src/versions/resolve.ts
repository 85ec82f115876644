import * as semver from "../util/semver.js";
import { meetsConstraint } from "../util/helm-range.js";
import { ChartroomError } from "../errors/index.js";
import type { ChartVersion } from "../model/charts.js";

export interface RangeRequest {
  key: string;
  chart: string;
  range: string;
  prerelease: boolean;
  repository: string;
}

/**
 * The highest version satisfying the range. Deprecated versions are skipped
 * unless the range names that exact version; prereleases only when asked.
 * Pure and deterministic: same listing, same answer.
 */
export function resolveVersion(request: RangeRequest, versions: readonly ChartVersion[]): ChartVersion {
  const exact = semver.valid(request.range);
  if (exact !== null) {
    const hit = versions.find((v) => semver.valid(v.version) !== null && semver.eq(v.version, exact));
    if (hit !== undefined) return hit;
    throw notFound(request, versions);
  }
  const best = highestInRange(versions, request.range, request.prerelease);
  if (best === undefined) throw notFound(request, versions);
  return best;
}

export function highestInRange(versions: readonly ChartVersion[], range: string, prerelease: boolean): ChartVersion | undefined {
  let best: ChartVersion | undefined;
  for (const candidate of versions) {
    if (candidate.deprecated === true || semver.valid(candidate.version) === null) continue;
    if (!meetsConstraint(candidate.version, range, prerelease)) continue;
    if (best === undefined || semver.gt(candidate.version, best.version)) best = candidate;
  }
  return best;
}

/** The highest non-deprecated version at all (prereleases only when asked). */
export function latestVersion(versions: readonly ChartVersion[], prerelease: boolean): ChartVersion | undefined {
  return highestInRange(versions, "*", prerelease);
}

function notFound(request: RangeRequest, versions: readonly ChartVersion[]): ChartroomError {
  const listed = versions
    .filter((v) => semver.valid(v.version) !== null)
    .sort((a, b) => semver.rcompare(a.version, b.version))
    .map((v) => v.version + (v.deprecated ? " (deprecated)" : ""));
  const shown = listed.slice(0, 8).join(", ") + (listed.length > 8 ? `, … (${listed.length} in all)` : "");
  return new ChartroomError("VERSION_NOT_FOUND", `no version of ${request.chart} satisfies "${request.range}" in ${request.repository}`, {
    place: { chart: request.key, key: `charts.${request.key}.version` },
    details: [`available: ${shown || "none"}`],
    hint: request.prerelease ? "widen charts.<key>.version" : "widen charts.<key>.version, or set prerelease: true if you meant a prerelease",
  });
}
