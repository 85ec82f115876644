import type { ChartDependency } from "../model/charts.js";
import type { EngineChoice } from "../model/engine.js";

/** Bumped in its major part when an older chartroom could misread the file. */
export const LOCKFILE_VERSION = "1.0";

/** One pinned chart. Every field is derived from the declaration and the archive. */
export interface LockedChart {
  /** Repository URL as declared (never credentials). */
  repository: string;
  chart: string;
  /** The declared range this pin satisfies. */
  range: string;
  /** Present (true) only when the declaration allows prereleases. */
  prerelease?: true;
  version: string;
  appVersion?: string;
  /** `sha256:<hex>` of the chart archive. */
  digest: string;
  /** OCI only: `sha256:<hex>` of the manifest the tag pointed at. */
  manifestDigest?: string;
  /** The digest pinned in the declaration (`1.2.3@sha256:…`), when there is one. */
  pinnedDigest?: string;
  /** The archive's address, relative to the repository when it lives there. */
  url: string;
  chartApiVersion: "v1" | "v2";
  schema: { digest: string; dialect?: string } | null;
  crds: string[];
  dependencies: ChartDependency[];
  /** Hook event → template files, from the chart's templates. */
  hooks: Record<string, string[]>;
  /** Per stack: hook event → objects, as the chart renders with the platform's values. */
  renderedHooks?: Record<string, Record<string, string[]>>;
  /** Per stack: fields that differ between two renders of the same inputs. */
  unstable?: Record<string, string[]>;
  engine: EngineChoice;
}

export interface Lockfile {
  lockfileVersion: string;
  charts: Record<string, LockedChart>;
}

export const LOCKFILE_NAME = "charts.lock.json";
