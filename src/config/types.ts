// What users write is typed from the schema (config/schema.ts); what the
// rest of chartroom reads is the normalised form below.
export type {
  Engine,
  ReleaseSettings,
  RepositoryAuth,
  RepositoryUrl,
  WrittenChart,
  WrittenConfig,
  WrittenRegistry,
  WrittenRepository,
  WrittenStack,
} from "./schema.js";
import type { Engine, ReleaseSettings, RepositoryAuth } from "./schema.js";

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
  /** Absolute path of the keyring every chart's provenance is checked against. */
  verify?: { keyring: string };
  plainHttp: boolean;
  timeoutMs: number;
  /** Where the config declares it, for messages: `repositories.<name>` unless said. */
  declaredAt?: string;
}

/** A chart declaration after validation, every default filled in. */
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
  /** The keyring the chart's provenance is checked against (its own, else its repository's), absolute. */
  verify?: { keyring: string };
  /** Deploy its images as `repo:tag@sha256:<locked digest>`. */
  pinImages: boolean;
  /** Custom resources' image fields, locked and pinned with the containers'. */
  imageFields: { kind: string; path: string }[];
}

/** A stack after validation: the Kubernetes version and extra API versions its cluster serves. */
export interface StackSpec {
  name: string;
  kubeVersion: string;
  apiVersions: string[];
  /** A production stack: images given by tag are a policy finding. */
  production?: boolean;
  /** Deployed without a cluster (renderYamlToDirectory): helm.v4.Chart renders for v1.20.0. */
  offline?: boolean;
  /** The cluster `--cluster` reviews it against: a kubeconfig file (absolute) and its context. */
  cluster?: ClusterRef;
}

/** A cluster named by the user: a kubeconfig file and, optionally, one of its contexts. */
export interface ClusterRef {
  kubeconfig: string;
  context?: string;
}

/** The config after validation: repositories, charts sorted by key, stacks. */
export interface Config {
  /** Absolute path of the config file. */
  file: string;
  /** Folder of the config file: the project root (lock, values, policies). */
  dir: string;
  repositories: Map<string, RepositorySpec>;
  /** Sorted by key. */
  charts: ChartSpec[];
  stacks: StackSpec[];
  /** Image registries chartroom may ask for digests, by host: a repository spec each (its name is the host). */
  registries: Map<string, RepositorySpec>;
}
