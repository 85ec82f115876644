import * as semver from "../util/semver.js";
import { meetsConstraint } from "../util/helm-range.js";

/**
 * The declared range moved to take `version`, written the way it was
 * written (as Renovate's "replace" does): an exact version becomes the new
 * one, `^1.2.0` → `^2.0.1`, `~1.2` → `~2.0`, `1.2.x` → `2.0.x`, keeping the
 * operator, the number of parts and a leading `v`. Undefined for a range of
 * another shape (`>=1 <2`, `||`, a digest pin): a person decides those.
 */
export function retargetRange(range: string, version: string, prerelease = false): string | undefined {
  const parsed = semver.parse(version);
  if (parsed === null) return undefined;
  const match = /^(\^|~>|~|=)?(\s*)(v?)(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(range.trim());
  if (match === null) return undefined;
  const [, operator = "", space = "", v = "", ...rest] = match;
  const parts = rest.slice(0, 3).filter((part): part is string => part !== undefined);
  const wildcard = parts.findIndex((part) => /^[xX*]$/.test(part));
  const numbers = [parsed.major, parsed.minor, parsed.patch].map(String);
  const kept = wildcard === -1 ? numbers.slice(0, parts.length) : [...numbers.slice(0, wildcard), ...parts.slice(wildcard)];
  // A full version keeps the new one's prerelease and build; a partial one has none.
  const tail =
    parts.length === 3 && wildcard === -1
      ? `${parsed.prerelease.length > 0 ? `-${parsed.prerelease.join(".")}` : ""}${parsed.build.length > 0 ? `+${parsed.build.join(".")}` : ""}`
      : "";
  const moved = `${operator}${space}${v}${kept.join(".")}${tail}`;
  // Judged as the lock will judge it: a prerelease only where the range names one, or the chart allows them.
  return meetsConstraint(version, moved, prerelease) ? moved : undefined;
}
