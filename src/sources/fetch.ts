import { ChartroomError } from "../errors/index.js";
import type { ArchiveStore } from "../store/archives.js";
import type { ChartSource } from "./types.js";
import type { ChartVersion, FetchedArchive } from "../model/charts.js";

/**
 * The archive of `version`, from the store when the pin is known, else from
 * the source; checked against the pin (`expected`) either way.
 */
export async function fetchVerified(
  source: ChartSource,
  version: ChartVersion,
  store: ArchiveStore,
  expected?: { digest: string; chart: string; manifestDigest?: string },
): Promise<FetchedArchive & { cached: boolean }> {
  if (expected?.manifestDigest !== undefined && source.manifestDigest !== undefined) {
    // A tag is mutable: ask where it points now, even when the archive is cached.
    const current = await source.manifestDigest(version);
    if (current !== expected.manifestDigest) throw movedTag(version, expected.chart, expected.manifestDigest, current, source.url);
  }
  if (expected !== undefined) {
    const data = await store.get(expected.digest);
    if (data !== null) return { data, digest: expected.digest, url: source.url, manifestDigest: expected.manifestDigest, cached: true };
  }
  const pinned = expected?.manifestDigest === undefined ? version : { ...version, manifestDigest: expected.manifestDigest };
  const archive = await source.fetchArchive(pinned);
  if (expected !== undefined && archive.digest !== expected.digest) {
    throw new ChartroomError(
      "DIGEST_MISMATCH",
      `${version.name} ${version.version} changed since it was locked: the lock pins ${expected.digest}, the repository serves ${archive.digest}`,
      {
        place: { chart: expected.chart, url: archive.url },
        hint: `the archive was republished under the same version; review it, then accept it with \`chartroom lock ${expected.chart}\``,
      },
    );
  }
  await store.put(archive.digest, archive.data);
  return { ...archive, cached: false };
}

function movedTag(version: ChartVersion, chart: string, locked: string, current: string, repository: string): ChartroomError {
  return new ChartroomError(
    "DIGEST_MISMATCH",
    `tag ${version.version} of ${version.name} moved: the lock pins manifest ${locked}, the registry now serves ${current}`,
    {
      place: { chart, url: `${repository}/${version.name}:${version.version}` },
      hint: `someone re-pushed this version; review the new content, then accept it with \`chartroom lock ${chart}\``,
    },
  );
}
