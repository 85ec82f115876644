/** One version of one chart as a repository lists it. */
export interface ChartVersion {
  name: string;
  version: string;
  appVersion?: string;
  /** `sha256:<hex>` of the archive when the repository states it. */
  digest?: string;
  created?: string;
  deprecated?: boolean;
  /** Where the archive is: absolute URLs, or relative to the repository. */
  urls: string[];
  /** OCI only: fetch this manifest (a digest pin) instead of the tag. */
  manifestDigest?: string;
}

/** An archive as fetched, before the caller checks it against a pin. */
export interface FetchedArchive {
  data: Buffer;
  /** `sha256:<hex>` of `data`. */
  digest: string;
  /** Address of the archive, credentials never included. */
  url: string;
  /** OCI only: `sha256:<hex>` of the manifest the archive came through. */
  manifestDigest?: string;
}

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
}
