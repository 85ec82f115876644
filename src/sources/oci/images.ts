import type { RepositorySpec } from "../../config/types.js";
import { ChartroomError, InternalError } from "../../errors/index.js";
import { DOCKER_HUB, type ImageReference } from "../../images/reference.js";
import { sha256Digest } from "../../util/hash.js";
import { authHint } from "../auth.js";
import { statusError } from "../transport.js";
import { metadataLimit, RegistryClient } from "./client.js";
import { registryLocation, type RegistryLocation } from "./reference.js";

/** What a tag pointed at when asked. */
export interface ResolvedImage {
  /** `sha256:<hex>` of the manifest or index the registry served. */
  digest: string;
  /** For a multi-platform index: its manifests' count. */
  platforms?: number;
}

// Every kind of manifest a tag may name: an index's digest is kept as the
// index's, so each node still pulls its own platform's image.
const ACCEPT = [
  "application/vnd.oci.image.index.v1+json",
  "application/vnd.docker.distribution.manifest.list.v2+json",
  "application/vnd.oci.image.manifest.v1+json",
  "application/vnd.docker.distribution.manifest.v2+json",
].join(", ");

const INDEX_TYPES = new Set(["application/vnd.oci.image.index.v1+json", "application/vnd.docker.distribution.manifest.list.v2+json"]);

/**
 * Asks image registries for digests, one client per registry for the run
 * (tokens reused across its repositories' scopes), and only registries the
 * config names: `registries.<host>`, or an `oci://` repository on that host.
 */
export class ImageResolver {
  private readonly clients = new Map<string, RegistryClient>();
  private readonly answers = new Map<string, Promise<ResolvedImage>>();

  constructor(
    private readonly registries: ReadonlyMap<string, RepositorySpec>,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** The declaration that lets chartroom ask `host`, if any. */
  declared(host: string): RepositorySpec | undefined {
    return this.registries.get(host.toLowerCase());
  }

  /** The digest `reference`'s tag names now; one request per tag for the run. */
  resolve(reference: ImageReference): Promise<ResolvedImage> {
    const key = `${reference.registry}/${reference.repository}:${reference.tag ?? ""}`;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = this.ask(reference);
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async ask(reference: ImageReference): Promise<ResolvedImage> {
    const spec = this.declared(reference.registry);
    if (spec === undefined) throw new InternalError(`no registry declared for ${reference.registry}`);
    const client = this.clientFor(spec, reference.registry);
    const path = `/v2/${reference.repository}/manifests/${reference.tag ?? "latest"}`;
    const response = await client.get(path, `repository:${reference.repository}:pull`, { accept: ACCEPT, maxBytes: metadataLimit(this.env) });
    const shown = `${reference.registry}/${reference.repository}:${reference.tag ?? "latest"}`;
    if (response.status !== 200) throw statusError(response.status, shown, authHint(spec));
    const digest = sha256Digest(response.body);
    const told = response.headers["docker-content-digest"];
    if (typeof told === "string" && told.startsWith("sha256:") && told !== digest) {
      throw new ChartroomError("DIGEST_MISMATCH", `${shown}: the registry names digest ${told}, but the manifest it served hashes to ${digest}`, {
        place: { url: shown },
        hint: "something between chartroom and the registry changed the manifest; check the registry",
      });
    }
    return { digest, ...platformsOf(response.body) };
  }

  private clientFor(spec: RepositorySpec, host: string): RegistryClient {
    let client = this.clients.get(host);
    if (client === undefined) {
      client = new RegistryClient(spec, apiLocation(host, spec), { env: this.env });
      this.clients.set(host, client);
    }
    return client;
  }
}

/** Where to ask: the declaration's endpoint (its URL), Docker Hub's API at registry-1.docker.io, else the host itself. */
export function apiLocation(host: string, spec: RepositorySpec): RegistryLocation {
  const declared = registryLocation(spec.url, spec.plainHttp);
  return declared.host === DOCKER_HUB && host === DOCKER_HUB ? registryLocation("oci://registry-1.docker.io", spec.plainHttp) : declared;
}

function platformsOf(body: Buffer): { platforms?: number } {
  try {
    const manifest = JSON.parse(body.toString("utf8")) as { mediaType?: unknown; manifests?: unknown };
    if (Array.isArray(manifest.manifests) && (manifest.mediaType === undefined || INDEX_TYPES.has(String(manifest.mediaType)))) {
      return { platforms: manifest.manifests.length };
    }
  } catch {
    // Not JSON: a single manifest as far as the digest goes.
  }
  return {};
}

/** The registries chartroom may ask: the config's `registries`, then each `oci://` repository's host with its settings. */
export function imageRegistries(registries: ReadonlyMap<string, RepositorySpec>, repositories: Iterable<RepositorySpec>): Map<string, RepositorySpec> {
  const out = new Map(registries);
  for (const repository of repositories) {
    if (repository.kind !== "oci") continue;
    const host = registryLocation(repository.url, repository.plainHttp).host.toLowerCase();
    if (!out.has(host)) out.set(host, repository);
  }
  return out;
}
