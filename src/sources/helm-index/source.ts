import { ChartroomError } from "../../errors/index.js";
import { sha256Digest } from "../../util/hash.js";
import { didYouMean } from "../../util/nearest.js";
import { memoize } from "../../util/pool.js";
import type { RepoIndex } from "./file.js";
import type { ChartSource } from "../types.js";
import type { ChartVersion, FetchedArchive } from "../../model/charts.js";
import { entryOf } from "../../util/json.js";

/**
 * A source backed by a Helm index (file and http share this): the index is
 * loaded once per source, archives are checked against the index digest.
 */
export function indexSource(
  url: string,
  loadIndex: () => Promise<RepoIndex>,
  loadArchive: (version: ChartVersion) => Promise<{ data: Buffer; url: string }>,
  loadProvenance: (version: ChartVersion) => Promise<Buffer | null>,
): ChartSource {
  const index = memoize(async (_: "index") => loadIndex());
  return {
    url,
    async listVersions(chart) {
      const entries = await index("index");
      const versions = entryOf(entries, chart);
      if (versions === undefined || versions.length === 0) {
        throw new ChartroomError("UNKNOWN_CHART", `chart "${chart}" is not in ${url}${didYouMean(chart, Object.keys(entries))}`, {
          place: { chart, url },
          hint: "check the chart name (charts.<key>.chart) and the repository",
        });
      }
      return versions;
    },
    async fetchArchive(version) {
      const { data, url: archiveUrl } = await loadArchive(version);
      return verifyAgainstListing(version, { data, digest: sha256Digest(data), url: archiveUrl });
    },
    provenance: loadProvenance,
  };
}

export function verifyAgainstListing(version: ChartVersion, archive: FetchedArchive): FetchedArchive {
  if (version.digest !== undefined && version.digest !== archive.digest) {
    throw new ChartroomError(
      "DIGEST_MISMATCH",
      `archive of ${version.name} ${version.version} has digest ${archive.digest} but the repository lists ${version.digest}`,
      {
        place: { chart: version.name, url: archive.url },
        hint: "the archive was altered or replaced after it was indexed; nothing was written. Ask the repository owner, or pin another version",
      },
    );
  }
  return archive;
}

/** The first URL of a version, resolved against the base it is relative to. */
export function archiveUrl(version: ChartVersion, base: string): string {
  const first = version.urls[0];
  if (first === undefined) {
    throw new ChartroomError("INDEX_INVALID", `${version.name} ${version.version} has no urls in the index`, {
      place: { chart: version.name, url: base },
      hint: "the repository's index is incomplete; regenerate it with helm repo index",
    });
  }
  return new URL(first, base).toString();
}
