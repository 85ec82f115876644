// Charts as repositories list them and archives describe them.

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

export interface ChartDependency {
  name: string;
  version: string;
  repository?: string;
  alias?: string;
  condition?: string;
  /** Shipped inside the archive under charts/. */
  vendored: boolean;
  /** The version shipped in the archive (packed subcharts), where `version` is what Chart.yaml asks for. */
  vendoredVersion?: string;
}

/** What a subchart contributes to values: its defaults and schema, under its key. */
export interface SubchartValues {
  key: string;
  defaults: Record<string, unknown>;
  schemaDocument?: unknown;
  schemaDigest?: string;
  subcharts: SubchartValues[];
}
