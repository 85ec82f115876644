import * as semver from "../util/semver.js";

// The Kubernetes provider releases chartroom knows, by the @pulumi/kubernetes
// version that installs them: the Helm SDK each embeds (helm.sh/helm/v3 in
// provider/go.mod at each release tag of github.com/pulumi/pulumi-kubernetes)
// and the behaviours chartroom predicts that changed between releases (from
// the provider's CHANGELOG). Both engines render and install with that Helm.

/** The Helm SDK each release embeds, from helm.v4.Chart's first release (4.12.0) on. */
export const EMBEDDED_HELM: Readonly<Record<string, string>> = {
  "4.12.0": "3.14.3",
  "4.13.0": "3.14.3",
  "4.13.1": "3.14.3",
  "4.14.0": "3.14.3",
  "4.15.0": "3.14.3",
  "4.16.0": "3.14.3",
  "4.17.0": "3.15.3",
  "4.17.1": "3.15.3",
  "4.18.0": "3.15.4",
  "4.18.1": "3.15.4",
  "4.18.2": "3.15.4",
  "4.18.3": "3.15.4",
  "4.18.4": "3.15.4",
  "4.19.0": "3.15.4",
  "4.20.0": "3.15.4",
  "4.21.0": "3.15.4",
  "4.21.1": "3.15.4",
  "4.22.0": "3.15.4",
  "4.22.1": "3.15.4",
  "4.22.2": "3.15.4",
  "4.23.0": "3.17.3",
  "4.24.0": "3.18.5",
  "4.24.1": "3.18.6",
  "4.25.0": "3.18.6",
  "4.26.0": "3.18.6",
  "4.27.0": "3.18.6",
  "4.28.0": "3.18.6",
  "4.29.0": "3.20.2",
  "4.30.0": "3.20.2",
  "4.31.0": "3.20.2",
  "4.31.1": "3.20.2",
  "4.32.0": "3.20.2",
};

/** What a provider release does that chartroom's predictions depend on. */
export interface ProviderFacts {
  version: string;
  /** The Helm SDK it embeds; undefined for a release the table does not have. */
  helm?: string;
  /** helm.v4.Chart exists (from 4.12.0). */
  chartV4: boolean;
  /**
   * How it creates an object: a server-side apply that takes over one that
   * exists already (before 4.29.0), or a client-side create that fails with
   * AlreadyExists unless the provider sets upsertExistingObjects (from 4.29.0).
   */
  create: "server-side apply" | "client-side create";
  /** The provider options that make a ConfigMap's or Secret's data change an update, not a replacement. */
  mutableOptions: ("enableConfigMapMutable" | "enableSecretMutable")[];
  /** helm.v3.Release passes null values to Helm without allowNullValues (from 4.30.0). */
  keepsNullValues: boolean;
}

const NEWEST = Object.keys(EMBEDDED_HELM).sort(semver.compare).at(-1) as string;

/** The facts of one @pulumi/kubernetes version, whether the table has its Helm or not. */
export function providerFacts(version: string): ProviderFacts {
  const at = (floor: string) => semver.valid(version) !== null && semver.gte(version, floor);
  return {
    version,
    ...(EMBEDDED_HELM[version] === undefined ? {} : { helm: EMBEDDED_HELM[version] }),
    chartV4: at("4.12.0"),
    create: at("4.29.0") ? "client-side create" : "server-side apply",
    mutableOptions: at("4.18.0") ? ["enableConfigMapMutable", "enableSecretMutable"] : ["enableConfigMapMutable"],
    keepsNullValues: at("4.30.0"),
  };
}

/** `Helm 3.18.6 (@pulumi/kubernetes 4.25.0)`, or what is not known about a release the table lacks. */
export function describeEngineHelm(facts: ProviderFacts): string {
  if (facts.helm !== undefined) return `Helm ${facts.helm} (@pulumi/kubernetes ${facts.version})`;
  const newer = semver.valid(facts.version) !== null && semver.gt(facts.version, NEWEST);
  return `an unknown Helm: @pulumi/kubernetes ${facts.version} is ${newer ? `newer than chartroom's table of provider releases (it ends at ${NEWEST})` : "not in chartroom's table of provider releases"}`;
}
