/** A repository address. `oci://` sources arrive with the OCI issue; the type allows them already. */
export type RepositoryUrl = `file://${string}` | `https://${string}` | `http://${string}` | `oci://${string}`;

/**
 * Credentials are given as the *names* of environment variables, never as
 * values, so the config file can be committed and nothing secret is in it.
 */
export interface RepositoryAuth {
  /** Variable holding the user name for Basic auth. */
  usernameEnv?: string;
  /** Variable holding the password for Basic auth. */
  passwordEnv?: string;
  /** Variable holding a bearer token (used instead of Basic when set). */
  tokenEnv?: string;
}

export interface WrittenRepository {
  url: RepositoryUrl;
  auth?: RepositoryAuth;
  /** Path to a PEM file of extra certificate authorities, relative to the config file. */
  caFile?: string;
  /**
   * Talk plain HTTP to an `oci://` registry (loopback registries only).
   * @default false
   */
  plainHttp?: boolean;
  /**
   * Per-request timeout in milliseconds.
   * @default 30000
   */
  timeoutMs?: number;
}

export type Engine = "auto" | "chart" | "release";

export interface WrittenChart<R extends string = string, C extends string = string> {
  /** Key of an entry in `repositories`. */
  repository: R;
  /**
   * Chart name in the repository.
   * @default the key of this chart
   */
  chart?: string;
  /**
   * A semver range (`^1.2.0`, `~1.2`, `>=1 <2`), an exact version, or an exact
   * version pinned by digest (`1.2.3@sha256:…`: the OCI manifest digest for
   * `oci://`, the archive digest otherwise).
   */
  version: string;
  /** Namespace the release goes to. */
  namespace: string;
  /**
   * Helm release name.
   * @default the key of this chart
   */
  releaseName?: string;
  /**
   * Pulumi engine: `chart` (helm.v4.Chart), `release` (helm.v3.Release) or `auto`.
   * @default "auto"
   */
  engine?: Engine;
  /**
   * Let the range match prerelease versions.
   * @default false
   */
  prerelease?: boolean;
  /** Keys of charts that must be deployed before this one. */
  dependsOn?: C[];
  /**
   * With `engine: "chart"`: accept that helm.v4.Chart drops the chart's hook objects.
   * @default false
   */
  dropHooks?: boolean;
  /**
   * Other tooling needs a real Helm release (helm list, helm rollback): `auto` picks helm.v3.Release.
   * @default false
   */
  helmRelease?: boolean;
  /**
   * Leave out the chart's `crds/` folder.
   * @default false
   */
  skipCrds?: boolean;
  /**
   * Under helm.v4.Chart, keep CustomResourceDefinitions when the chart is removed
   * (deleting a CRD deletes every instance in the cluster).
   * @default true
   */
  retainCrds?: boolean;
  /** A post-renderer: a command that reads the rendered manifests on stdin and prints them changed. */
  postRenderer?: { command: string; args?: string[] };
  /** helm.v4.Chart only: prefix of its children's resource names. */
  resourcePrefix?: string;
  /** helm.v3.Release settings; each overrides chartroom's default. */
  release?: ReleaseSettings;
}

export interface ReleaseSettings {
  /** Roll back on a failed upgrade. @default true */
  atomic?: boolean;
  /** Seconds to wait for the release. @default 600 */
  timeout?: number;
  /** Releases kept in history. @default 10 */
  maxHistory?: number;
  /** Delete new resources of a failed upgrade. @default true */
  cleanupOnFail?: boolean;
  /** Create the namespace if it does not exist. @default false */
  createNamespace?: boolean;
  /** Wait for Jobs to complete. @default true */
  waitForJobs?: boolean;
}

export interface WrittenStack {
  /** Kubernetes version the stack's cluster runs, e.g. `1.31.0`. */
  kubeVersion: string;
  /** Extra API versions the cluster serves (`monitoring.coreos.com/v1`, …). */
  apiVersions?: string[];
}

export interface WrittenConfig<R extends string = string, C extends string = string> {
  repositories: Record<R, WrittenRepository | RepositoryUrl>;
  charts: Record<C, WrittenChart<R, C>>;
  stacks?: Record<string, WrittenStack>;
}

export type RepositoryKind = "file" | "http" | "oci";

/** A repository after validation: the URL as written plus what was derived from it. */
export interface RepositorySpec {
  name: string;
  kind: RepositoryKind;
  /** The URL exactly as written: this is what the lock records. */
  url: string;
  /** For `file://`: the absolute folder. */
  path?: string;
  auth?: RepositoryAuth;
  caFile?: string;
  plainHttp: boolean;
  timeoutMs: number;
}

export interface ChartSpec {
  key: string;
  repository: RepositorySpec;
  chart: string;
  range: string;
  /** `sha256:<hex>` when the declaration pins a digest (`1.2.3@sha256:…`). */
  digest?: string;
  namespace: string;
  releaseName: string;
  engine: Engine;
  prerelease: boolean;
  dependsOn: string[];
  dropHooks: boolean;
  helmRelease: boolean;
  skipCrds: boolean;
  retainCrds: boolean;
  postRenderer?: { command: string; args: string[] };
  resourcePrefix?: string;
  release: Required<ReleaseSettings>;
}

export interface StackSpec {
  name: string;
  kubeVersion: string;
  apiVersions: string[];
}

export interface Config {
  /** Absolute path of the config file. */
  file: string;
  /** Folder of the config file: the project root (lock, values, policies). */
  dir: string;
  repositories: Map<string, RepositorySpec>;
  /** Sorted by key. */
  charts: ChartSpec[];
  stacks: StackSpec[];
}
