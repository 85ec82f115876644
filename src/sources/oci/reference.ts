/** Where an `oci://host[:port]/path` repository lives, and how to address a chart in it. */
export interface RegistryLocation {
  /** `https://host:port` or `http://host:port` (plainHttp). */
  base: string;
  host: string;
  /** The namespace below the host (`charts` in oci://ghcr.io/charts), may be empty. */
  namespace: string;
}

export function registryLocation(url: string, plainHttp: boolean): RegistryLocation {
  const rest = url.slice("oci://".length).replace(/\/+$/, "");
  const slash = rest.indexOf("/");
  const host = slash === -1 ? rest : rest.slice(0, slash);
  const namespace = slash === -1 ? "" : rest.slice(slash + 1);
  return { base: `${plainHttp ? "http" : "https"}://${host}`, host, namespace };
}

/** The repository name a chart has in the registry: `<namespace>/<chart>`. */
export function repositoryName(location: RegistryLocation, chart: string): string {
  return location.namespace === "" ? chart : `${location.namespace}/${chart}`;
}

// OCI tags cannot hold `+`; Helm writes build metadata with `_` instead.
export function tagToVersion(tag: string): string {
  return tag.replace(/_/g, "+");
}

export function versionToTag(version: string): string {
  return version.replace(/\+/g, "_");
}

export const HELM_CONFIG_MEDIA_TYPE = "application/vnd.cncf.helm.config.v1+json";
export const HELM_CHART_MEDIA_TYPE = "application/vnd.cncf.helm.chart.content.v1.tar+gzip";
export const OCI_MANIFEST_MEDIA_TYPE = "application/vnd.oci.image.manifest.v1+json";
export const HELM_PROVENANCE_MEDIA_TYPE = "application/vnd.cncf.helm.chart.provenance.v1.prov";

/** `Bearer realm="…",service="…",scope="…"` → its parameters. */
export function parseChallenge(header: string): { scheme: string; params: Record<string, string> } {
  const space = header.indexOf(" ");
  const scheme = (space === -1 ? header : header.slice(0, space)).toLowerCase();
  const params: Record<string, string> = {};
  for (const match of header.slice(space + 1).matchAll(/([a-zA-Z_]+)="([^"]*)"/g)) params[(match[1] ?? "").toLowerCase()] = match[2] ?? "";
  return { scheme, params };
}

/** The `rel="next"` target of a Link header, if any. */
export function nextLink(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return /<([^>]+)>\s*;\s*rel="?next"?/.exec(header)?.[1];
}

/**
 * The path (and query) of a next-page link on the registry itself, resolved
 * against the page it came from; undefined when it points at another origin,
 * which chartroom never follows (credentials go to the registry only, as in
 * oras-go).
 */
export function sameOriginPath(link: string, base: string, from: string): string | undefined {
  let target: URL;
  try {
    target = new URL(link, `${base}${from}`);
  } catch {
    return undefined;
  }
  return target.origin === new URL(base).origin ? `${target.pathname}${target.search}` : undefined;
}
