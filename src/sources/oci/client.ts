import type { RepositorySpec } from "../../config/types.js";
import { readCaFile } from "../ca.js";
import { ChartroomError, InternalError } from "../../errors/index.js";
import { rememberSecret } from "../../errors/secrets.js";
import { authHint, authorizationHeader, readCredentials, type Credentials } from "../auth.js";
import { DEFAULT_RETRY, getWithRetry, statusError, type HttpResponse, type RetryPolicy } from "../transport.js";
import { parseChallenge, type RegistryLocation } from "./reference.js";

/**
 * GETs against one registry, answering its auth challenges: Basic with the
 * configured credentials, or the Bearer token flow (anonymous, or with the
 * credentials as Basic at the token endpoint). Tokens are kept per scope for
 * the run and registered as secrets.
 */
export class RegistryClient {
  private readonly tokens = new Map<string, string>();
  private basicWanted = false;
  private ca: Promise<Buffer | undefined> | undefined;

  constructor(
    private readonly repository: RepositorySpec,
    private readonly location: RegistryLocation,
    private readonly options: { env?: NodeJS.ProcessEnv; retry?: RetryPolicy },
  ) {}

  /**
   * GET `path` (a path on the registry, never another origin) for `scope`;
   * returns any status for the caller to judge. `maxBytes` bounds the body.
   */
  async get(path: string, scope: string, options: { accept?: string; maxBytes?: number } = {}): Promise<HttpResponse> {
    if (!path.startsWith("/")) throw new InternalError(`registry path ${path} is not a path on the registry`);
    const url = `${this.location.base}${path}`;
    const headers: Record<string, string> = options.accept ? { accept: options.accept } : {};
    const limits = { maxBytes: options.maxBytes };
    const first = await this.send(url, { ...headers, ...this.authFor(scope) }, limits);
    if (first.status !== 401) return first;
    const challenge = first.headers["www-authenticate"];
    if (typeof challenge !== "string") return first;
    const { scheme, params } = parseChallenge(challenge);
    if (scheme === "basic") {
      if (this.credentials() === undefined || this.basicWanted) return first;
      this.basicWanted = true;
    } else if (scheme === "bearer" && params.realm !== undefined) {
      if (this.tokens.has(scope)) return first;
      this.tokens.set(scope, await this.fetchToken(params.realm, params.service, params.scope ?? scope));
    } else {
      return first;
    }
    return this.send(url, { ...headers, ...this.authFor(scope) }, limits);
  }

  private authFor(scope: string): Record<string, string> {
    const token = this.tokens.get(scope);
    if (token !== undefined) return { authorization: `Bearer ${token}` };
    return this.basicWanted ? authorizationHeader(this.credentials()) : {};
  }

  private credentials(): Credentials | undefined {
    return readCredentials(this.repository, this.options.env);
  }

  private async fetchToken(realm: string, service: string | undefined, scope: string): Promise<string> {
    const url = this.realmUrl(realm);
    if (service !== undefined) url.searchParams.set("service", service);
    url.searchParams.set("scope", scope);
    const credentials = this.credentials();
    // A token endpoint takes Basic credentials; a bearer token from the
    // config is used as the registry token directly.
    if (credentials?.kind === "bearer") return credentials.token;
    const response = await this.send(url.toString(), authorizationHeader(credentials), { maxBytes: metadataLimit(this.options.env) });
    if (response.status !== 200) throw statusError(response.status, url.toString(), authHint(this.repository));
    let token: unknown;
    try {
      const body = JSON.parse(response.body.toString("utf8")) as { token?: unknown; access_token?: unknown };
      token = body.token ?? body.access_token;
    } catch {
      token = undefined;
    }
    if (typeof token !== "string" || token === "") {
      throw new ChartroomError("HTTP_AUTH", `the token endpoint ${url.origin}${url.pathname} gave no token`, {
        place: { url: this.repository.url },
        hint: "check the registry's auth setup and the credentials named in the config",
      });
    }
    rememberSecret(token);
    return token;
  }

  /**
   * The token endpoint a challenge names. It may be another host (Docker
   * Hub's is), but only over https (http for a plainHttp registry): the
   * credentials travel to it.
   */
  private realmUrl(realm: string): URL {
    let url: URL | undefined;
    try {
      url = new URL(realm);
    } catch {
      url = undefined;
    }
    const allowed = this.repository.plainHttp ? ["https:", "http:"] : ["https:"];
    if (url === undefined || !allowed.includes(url.protocol)) {
      const scheme = url === undefined ? "something that is not a URL" : `${url.protocol}//…`;
      throw new ChartroomError(
        "REGISTRY_PROTOCOL",
        `${this.location.host} names ${scheme} as its token endpoint; chartroom asks for tokens over ${allowed.join(" or ").replace(/:/g, "")} only`,
        {
          place: { url: this.repository.url },
          hint: "check the registry's auth setup (its token realm), or what sits between it and you",
        },
      );
    }
    return url;
  }

  private async send(url: string, headers: Record<string, string>, limits: { maxBytes?: number } = {}): Promise<HttpResponse> {
    this.ca ??= this.repository.caFile === undefined ? Promise.resolve(undefined) : readCa(this.repository);
    const request = {
      url,
      headers,
      timeoutMs: this.repository.timeoutMs,
      ca: await this.ca,
      ...(this.options.env === undefined ? {} : { env: this.options.env }),
      ...(limits.maxBytes === undefined ? {} : { maxBytes: limits.maxBytes, limitSetting: METADATA_SETTING }),
    };
    return getWithRetry(request, this.options.retry ?? DEFAULT_RETRY);
  }
}

const METADATA_SETTING = "CHARTROOM_MAX_METADATA_BYTES";

/** The most a manifest, a tag list or a token answer may hold: 4 MiB as in oras-go, or CHARTROOM_MAX_METADATA_BYTES. */
export function metadataLimit(env: NodeJS.ProcessEnv = process.env): number {
  const given = Number(env[METADATA_SETTING]);
  return Number.isInteger(given) && given > 0 ? given : 4 << 20;
}

/** The repository's extra certificate authorities (its caFile). */
function readCa(repository: RepositorySpec): Promise<Buffer> {
  return readCaFile(repository);
}
