// A container image reference read with Docker's rules (distribution's
// reference package): `nginx` is `docker.io/library/nginx:latest`, a first
// part with a dot, a colon or `localhost` names a registry, `@sha256:` pins.

export interface ImageReference {
  /** As written in the manifest. */
  written: string;
  /** `docker.io`, `ghcr.io`, `127.0.0.1:5000`. */
  registry: string;
  /** The repository on that registry: `library/nginx`, `acme/api`. */
  repository: string;
  /** Absent when only a digest is given. */
  tag?: string;
  digest?: string;
}

export const DOCKER_HUB = "docker.io";

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;

/** The parts of an image reference, or undefined when it is not one (a template left `{{ }}`, an empty string). */
export function parseImage(written: string): ImageReference | undefined {
  let rest = written.trim();
  if (rest === "" || rest !== written) return undefined;
  let digest: string | undefined;
  const at = rest.indexOf("@");
  if (at !== -1) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return undefined;
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(":");
  if (colon > rest.lastIndexOf("/")) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return undefined;
  }
  const parts = rest.split("/");
  const first = parts[0] ?? "";
  const hasRegistry = parts.length > 1 && (first.includes(".") || first.includes(":") || first === "localhost");
  const registry = hasRegistry ? normaliseRegistry(first) : DOCKER_HUB;
  const path = hasRegistry ? parts.slice(1) : parts;
  if (path.length === 0 || !path.every((part) => COMPONENT.test(part))) return undefined;
  if (registry === DOCKER_HUB && path.length === 1) path.unshift("library");
  if (tag === undefined && digest === undefined) tag = "latest";
  return { written, registry, repository: path.join("/"), ...(tag === undefined ? {} : { tag }), ...(digest === undefined ? {} : { digest }) };
}

/** Docker Hub's other names are Docker Hub. */
function normaliseRegistry(host: string): string {
  return host === "index.docker.io" || host === "registry-1.docker.io" ? DOCKER_HUB : host;
}

/** `ghcr.io/acme/api:1.4.2@sha256:…`: the reference as written, its digest replaced or added; the tag stays for people. */
export function pinnedReference(written: string, digest: string): string {
  const at = written.indexOf("@");
  return `${at === -1 ? written : written.slice(0, at)}@${digest}`;
}

/** `docker.io/library/nginx:1.27` — one name per image, whichever way it was written. */
export function canonicalName(reference: ImageReference): string {
  return `${reference.registry}/${reference.repository}${reference.tag === undefined ? "" : `:${reference.tag}`}${reference.digest === undefined ? "" : `@${reference.digest}`}`;
}
