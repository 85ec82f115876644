import type { ChartVersion, FetchedArchive } from "../model/charts.js";
/** Every repository kind (file, http, oci) behind one shape. */
export interface ChartSource {
  /** The repository URL as written in the config (no credentials). */
  readonly url: string;
  /** Every version of `chart`, newest first; an unknown chart is an UNKNOWN_CHART error. */
  listVersions(chart: string): Promise<ChartVersion[]>;
  /** The archive of one listed version, its digest verified against the listing. */
  fetchArchive(version: ChartVersion): Promise<FetchedArchive>;
  /** OCI only: the manifest digest a version's tag points at now (to catch a moved tag). */
  manifestDigest?(version: ChartVersion): Promise<string>;
  /** The version's provenance file (`<archive>.prov`, or an OCI layer), or null when it has none. */
  provenance(version: ChartVersion): Promise<Buffer | null>;
}
