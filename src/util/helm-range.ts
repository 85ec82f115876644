import * as semver from "./semver.js";

/**
 * A Helm version constraint (Masterminds semver, as `helm install --version`
 * reads it) as a node-semver range. The two agree on `^`, `~`, x-ranges,
 * hyphen ranges, `||` and partial versions (`>1.2` is `>=1.3.0` in both);
 * Helm also separates the comparisons of an AND with commas
 * (`">= 1.2.3, < 2.0.0"`) and writes `~>` for `~`. Undefined when it is
 * not a constraint either would accept (`!=` has no node-semver form).
 */
export function helmRange(constraint: string): string | undefined {
  if (constraint.includes("!=")) return undefined;
  const range = constraint
    .replace(/~>/g, "~")
    .replace(/\s*,\s*/g, " ")
    .trim();
  return semver.validRange(range) === null ? undefined : range;
}

/** Whether a version meets a Helm constraint (prereleases only when asked, as Helm: a constraint naming one lets them in). */
export function meetsConstraint(version: string, constraint: string, prerelease: boolean): boolean {
  const range = helmRange(constraint);
  return range !== undefined && semver.valid(version) !== null && semver.satisfies(version, range, { includePrerelease: prerelease });
}
