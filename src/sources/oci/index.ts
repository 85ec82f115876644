import type { RepositorySpec } from "../../config/types.js";
import { ChartroomError } from "../../errors/index.js";
import { sha256Digest } from "../../util/hash.js";
import { isRecord } from "../../util/json.js";
import { memoize } from "../../util/pool.js";
import { authHint } from "../auth.js";
import { sortNewestFirst } from "../helm-index/file.js";
import { statusError, type RetryPolicy } from "../transport.js";
import type { ChartSource } from "../types.js";
import type { ChartVersion, FetchedArchive } from "../../model/charts.js";
import { metadataLimit, RegistryClient } from "./client.js";
import {
  HELM_CHART_MEDIA_TYPE,
  HELM_CONFIG_MEDIA_TYPE,
  HELM_PROVENANCE_MEDIA_TYPE,
  OCI_MANIFEST_MEDIA_TYPE,
  nextLink,
  registryLocation,
  sameOriginPath,
  repositoryName,
  tagToVersion,
  versionToTag,
} from "./reference.js";
import * as semver from "../../util/semver.js";

const MAX_TAG_PAGES = 1000;

/** Charts in an OCI registry, spoken to over the distribution API (no helm subprocess). */
export function ociSource(repository: RepositorySpec, options: { env?: NodeJS.ProcessEnv; retry?: RetryPolicy }): ChartSource {
  const location = registryLocation(repository.url, repository.plainHttp);
  const client = new RegistryClient(repository, location, options);
  const scope = (name: string) => `repository:${name}:pull`;
  const maxBytes = metadataLimit(options.env);

  const tags = memoize(async (chart: string) => {
    const name = repositoryName(location, chart);
    const found: string[] = [];
    let path: string | undefined = `/v2/${name}/tags/list?n=1000`;
    for (let page = 0; path !== undefined && page < MAX_TAG_PAGES; page++) {
      const response = await client.get(path, scope(name), { maxBytes });
      if (response.status === 404) throw unknownChart(repository, chart);
      if (response.status !== 200) throw statusError(response.status, `${location.base}${path}`, authHint(repository));
      const body = parseJson(response.body, `${repository.url}/${chart} tags`);
      if (isRecord(body) && Array.isArray(body.tags)) found.push(...body.tags.filter((tag): tag is string => typeof tag === "string"));
      const link = nextLink(typeof response.headers.link === "string" ? response.headers.link : undefined);
      path = link === undefined ? undefined : (sameOriginPath(link, location.base, path) ?? foreignLink(repository, location.host, link));
    }
    return found;
  });

  async function manifest(chart: string, reference: string) {
    const name = repositoryName(location, chart);
    const shown = `${repository.url}/${chart}:${reference}`;
    const response = await client.get(`/v2/${name}/manifests/${reference}`, scope(name), { accept: OCI_MANIFEST_MEDIA_TYPE, maxBytes });
    if (response.status === 404) {
      throw new ChartroomError("VERSION_NOT_FOUND", `${shown} does not exist in the registry`, {
        place: { chart, url: shown },
        hint: "run `chartroom outdated` to see the versions the registry has",
      });
    }
    if (response.status !== 200) throw statusError(response.status, `${location.base}/v2/${name}/manifests/${reference}`, authHint(repository));
    const digest = sha256Digest(response.body);
    const stated = response.headers["docker-content-digest"];
    const expected = reference.startsWith("sha256:") ? reference : typeof stated === "string" ? stated : digest;
    if (expected !== digest) {
      throw new ChartroomError("DIGEST_MISMATCH", `the manifest of ${shown} hashes to ${digest}, not ${expected}`, {
        place: { chart, url: shown },
        hint: "the registry or something between it and you altered the manifest; nothing was written",
      });
    }
    return { digest, body: parseJson(response.body, shown), shown, name };
  }

  return {
    url: repository.url,
    async listVersions(chart) {
      const versions: ChartVersion[] = (await tags(chart))
        .map((tag) => ({ tag, version: tagToVersion(tag) }))
        .filter(({ version }) => semver.valid(version) !== null)
        .map(({ tag, version }) => ({ name: chart, version, urls: [`${repository.url}/${chart}:${tag}`] }));
      if (versions.length === 0) {
        throw new ChartroomError("UNKNOWN_CHART", `${repository.url}/${chart} has no semver tags`, {
          place: { chart, url: `${repository.url}/${chart}` },
          hint: "push the chart with `helm push`, or check the chart name",
        });
      }
      return sortNewestFirst(versions);
    },
    async manifestDigest(version) {
      return (await manifest(version.name, versionToTag(version.version))).digest;
    },
    async provenance(version) {
      const found = await manifest(version.name, version.manifestDigest ?? versionToTag(version.version));
      const layers = isRecord(found.body) && Array.isArray(found.body.layers) ? found.body.layers : [];
      const layer = layers.find((item) => isRecord(item) && item.mediaType === HELM_PROVENANCE_MEDIA_TYPE);
      if (!isRecord(layer) || typeof layer.digest !== "string") return null;
      const response = await client.get(`/v2/${found.name}/blobs/${layer.digest}`, scope(found.name), { maxBytes });
      if (response.status !== 200) throw statusError(response.status, `${location.base}/v2/${found.name}/blobs/${layer.digest}`, authHint(repository));
      if (sha256Digest(response.body) !== layer.digest) {
        throw new ChartroomError(
          "DIGEST_MISMATCH",
          `the provenance layer of ${found.shown} hashes to ${sha256Digest(response.body)}, but its manifest names ${layer.digest}`,
          { place: { chart: version.name, url: found.shown }, hint: "the blob was altered in the registry or in transit; nothing was written" },
        );
      }
      return response.body;
    },
    async fetchArchive(version): Promise<FetchedArchive> {
      const found = await manifest(version.name, version.manifestDigest ?? versionToTag(version.version));
      const layer = chartLayer(found.body, found.shown, version.name);
      const response = await client.get(`/v2/${found.name}/blobs/${layer}`, scope(found.name));
      if (response.status !== 200) throw statusError(response.status, `${location.base}/v2/${found.name}/blobs/${layer}`, authHint(repository));
      const digest = sha256Digest(response.body);
      if (digest !== layer) {
        throw new ChartroomError("DIGEST_MISMATCH", `the chart layer of ${found.shown} hashes to ${digest}, but its manifest names ${layer}`, {
          place: { chart: version.name, url: found.shown },
          hint: "the blob was altered in the registry or in transit; nothing was written",
        });
      }
      return { data: response.body, digest, url: `${repository.url}/${version.name}:${versionToTag(version.version)}`, manifestDigest: found.digest };
    },
  };
}

/** The digest of the chart layer, after checking the artifact is a Helm chart at all. */
function chartLayer(manifest: unknown, shown: string, chart: string): string {
  const config = isRecord(manifest) && isRecord(manifest.config) ? manifest.config.mediaType : undefined;
  if (config !== HELM_CONFIG_MEDIA_TYPE) {
    throw new ChartroomError("ARCHIVE_INVALID", `${shown} is not a Helm chart: its config media type is ${String(config)}`, {
      place: { chart, url: shown },
      hint: `a chart pushed with \`helm push\` has config media type ${HELM_CONFIG_MEDIA_TYPE}; check the repository path`,
    });
  }
  const layers = isRecord(manifest) && Array.isArray(manifest.layers) ? manifest.layers : [];
  const layer = layers.find((item) => isRecord(item) && item.mediaType === HELM_CHART_MEDIA_TYPE);
  if (!isRecord(layer) || typeof layer.digest !== "string") {
    throw new ChartroomError("ARCHIVE_INVALID", `${shown} has no layer of media type ${HELM_CHART_MEDIA_TYPE}`, {
      place: { chart, url: shown },
      hint: "the artifact is damaged or not a chart; push it again with `helm push`",
    });
  }
  return layer.digest;
}

/** A next page on another origin: never followed (the registry's credentials would go with it). */
function foreignLink(repository: RepositorySpec, host: string, link: string): never {
  const origin = URL.canParse(link) ? new URL(link).origin : "an address that is not a URL";
  throw new ChartroomError(
    "REGISTRY_PROTOCOL",
    `${host} sent a tags page link to another origin (${origin}); chartroom follows links on the registry's own origin only`,
    {
      place: { url: repository.url },
      hint: "nothing was sent there; check the registry, or what sits between it and you",
    },
  );
}

function unknownChart(repository: RepositorySpec, chart: string): ChartroomError {
  return new ChartroomError("UNKNOWN_CHART", `chart "${chart}" is not in ${repository.url} (the registry has no repository ${chart})`, {
    place: { chart, url: `${repository.url}/${chart}` },
    hint: "check the chart name (charts.<key>.chart) and the repository path",
  });
}

function parseJson(body: Buffer, shown: string): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new ChartroomError("INDEX_INVALID", `the registry answered ${shown} with something that is not JSON`, {
      place: { url: shown },
      hint: "is this URL an OCI registry? Check the repository URL",
    });
  }
}
