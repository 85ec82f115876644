import type { RepositorySpec } from "../../config/types.js";
import { readCaFile } from "../ca.js";
import { authHint, authorizationHeader, readCredentials } from "../auth.js";
import { parseIndex, type RepoIndex } from "../helm-index/file.js";
import { readCachedIndex, writeCachedIndex, type IndexValidator } from "../helm-index/cache.js";
import { archiveUrl, indexSource } from "../helm-index/source.js";
import type { ChartSource } from "../types.js";
import { DEFAULT_RETRY, getWithRetry, statusError, type HttpRequest, type RetryPolicy } from "../transport.js";

export interface HttpSourceOptions {
  cacheRoot: string;
  env?: NodeJS.ProcessEnv;
  retry?: RetryPolicy;
}

/** A classic Helm repository: index.yaml over HTTP(S). */
export function httpSource(repository: RepositorySpec, options: HttpSourceOptions): ChartSource {
  const base = repository.url.endsWith("/") ? repository.url : `${repository.url}/`;
  const indexUrl = new URL("index.yaml", base).toString();
  const retry = options.retry ?? DEFAULT_RETRY;
  const origin = new URL(base).origin;
  let ca: Promise<Buffer | undefined> | undefined;

  async function request(url: string, extra: Record<string, string> = {}): Promise<HttpRequest> {
    ca ??= repository.caFile === undefined ? Promise.resolve(undefined) : readCaFile(repository);
    // Credentials go only to the repository's own origin, as Helm does
    // unless told to pass them on.
    const auth = new URL(url).origin === origin ? authorizationHeader(readCredentials(repository, options.env)) : {};
    return { url, headers: { ...auth, ...extra }, timeoutMs: repository.timeoutMs, ca: await ca, ...(options.env === undefined ? {} : { env: options.env }) };
  }

  async function loadIndex(): Promise<RepoIndex> {
    const cached = await readCachedIndex(options.cacheRoot, indexUrl);
    const conditional: Record<string, string> = {};
    if (cached !== null && !("mtimeMs" in cached.validator)) {
      if (cached.validator.etag) conditional["if-none-match"] = cached.validator.etag;
      if (cached.validator.lastModified) conditional["if-modified-since"] = cached.validator.lastModified;
    }
    const response = await getWithRetry(await request(indexUrl, conditional), retry);
    if (response.status === 304 && cached !== null) return cached.index;
    if (response.status !== 200) throw statusError(response.status, indexUrl, authHint(repository));
    const index = parseIndex(response.body.toString("utf8"), indexUrl);
    const validator: IndexValidator = {};
    if (typeof response.headers.etag === "string") validator.etag = response.headers.etag;
    if (typeof response.headers["last-modified"] === "string") validator.lastModified = response.headers["last-modified"];
    await writeCachedIndex(options.cacheRoot, indexUrl, validator, index);
    return index;
  }

  return indexSource(
    repository.url,
    loadIndex,
    async (version) => {
      const url = archiveUrl(version, base);
      const response = await getWithRetry(await request(url), retry);
      if (response.status !== 200) throw statusError(response.status, url, authHint(repository));
      return { data: response.body, url };
    },
    async (version) => {
      // Beside the archive, as `helm package --sign` leaves it and Helm looks for it.
      const url = `${archiveUrl(version, base)}.prov`;
      const response = await getWithRetry(await request(url), retry);
      if (response.status === 404) return null;
      if (response.status !== 200) throw statusError(response.status, url, authHint(repository));
      return response.body;
    },
  );
}
