import type { ClientRequest, IncomingHttpHeaders, RequestOptions } from "node:http";
import { isIP, type Socket } from "node:net";
import { ChartroomError } from "../errors/index.js";
import { stripUserInfo } from "../errors/secrets.js";
import { http, https, tls } from "./lazy-net.js";
import { openTunnel, proxyFor, proxyHeaders } from "./proxy.js";
import { beforeInput } from "../util/v8-tuning.js";

export interface HttpRequest {
  url: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Extra certificate authorities (PEM). */
  ca?: Buffer;
  /** Refuse bodies larger than this. */
  maxBytes?: number;
  /** The setting that raises `maxBytes`, named when a body is refused for its size. */
  limitSetting?: string;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read. @default process.env */
  env?: NodeJS.ProcessEnv;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The final URL after redirects. */
  url: string;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. @default 3 */
  attempts: number;
  /** First pause; doubled after each failure. @default 250 */
  backoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, backoffMs: 250 };
const MAX_REDIRECTS = 5;
/** The longest Retry-After chartroom waits out; a server asking for more fails the run at once. */
const MAX_RETRY_AFTER_MS = 30_000;

/** Retry-After in seconds or as an HTTP date, in ms. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/**
 * GET with bounded retries on 5xx, 429, network errors and timeouts.
 * Any other status is returned for the caller to interpret.
 */
export async function getWithRetry(req: HttpRequest, retry: RetryPolicy = DEFAULT_RETRY): Promise<HttpResponse> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= retry.attempts; attempt++) {
    let wait = retry.backoffMs * 2 ** (attempt - 1);
    try {
      const response = await get(req);
      if (response.status < 500 && response.status !== 429) return response;
      lastError = new ChartroomError("HTTP_FAILED", `server answered ${response.status} for ${stripUserInfo(req.url)}`, {
        place: { url: stripUserInfo(req.url) },
        hint: "the repository is failing; try again later or check its status",
      });
      const asked = retryAfterMs(response.headers["retry-after"]);
      if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
        throw new ChartroomError(
          "HTTP_FAILED",
          `server answered ${response.status} for ${stripUserInfo(req.url)} and asks to wait ${Math.ceil(asked / 1000)} s before trying again`,
          {
            place: { url: stripUserInfo(req.url) },
            hint: "the repository is overloaded or down for maintenance; try again later",
          },
        );
      }
      if (asked !== undefined) wait = Math.max(wait, asked);
    } catch (error) {
      if (!ChartroomError.isInstance(error) || (error.code !== "HTTP_TIMEOUT" && error.code !== "HTTP_FAILED") || error.message.includes("asks to wait"))
        throw error;
      lastError = error;
    }
    if (attempt < retry.attempts) await sleep(wait);
  }
  if (ChartroomError.isInstance(lastError)) {
    throw new ChartroomError(lastError.code, `${lastError.message} (after ${retry.attempts} attempts)`, {
      place: lastError.place,
      hint: lastError.hint,
    });
  }
  throw lastError;
}

/** One GET, following redirects; Authorization is dropped when a redirect leaves the origin. */
export async function get(req: HttpRequest): Promise<HttpResponse> {
  let url = req.url;
  let headers = { ...req.headers };
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await once({ ...req, url, headers });
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || location === undefined) return response;
    const next = new URL(location, url);
    const from = new URL(url).protocol;
    if ((next.protocol !== "https:" && next.protocol !== "http:") || (from === "https:" && next.protocol === "http:")) {
      throw new ChartroomError("HTTP_REDIRECT", `${stripUserInfo(url)} redirects to ${next.protocol}//…, which chartroom does not follow`, {
        place: { url: stripUserInfo(url) },
        hint:
          from === "https:" && next.protocol === "http:"
            ? "an https repository must not send chartroom to plain http; use the final https URL, or ask the repository's owner"
            : "chartroom follows redirects to http(s) only; point the repository at its final URL",
      });
    }
    if (next.origin !== new URL(url).origin) {
      const { authorization: _dropped, ...rest } = headers;
      headers = rest;
    }
    url = next.toString();
  }
  throw new ChartroomError("HTTP_FAILED", `too many redirects from ${stripUserInfo(req.url)}`, { place: { url: stripUserInfo(req.url) } });
}

function once(req: HttpRequest): Promise<HttpResponse> {
  const shown = stripUserInfo(req.url);
  const target = new URL(req.url);
  const maxBytes = req.maxBytes ?? DEFAULT_MAX_BYTES;
  const proxy = proxyFor(target, req.env);
  return new Promise((resolve, reject) => {
    let request: ClientRequest | undefined;
    let tunnel: Socket | undefined;
    const aborter = new AbortController();
    let settled = false;
    // The first outcome wins; the sockets are dropped and whatever they still emit is ignored.
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(asNetworkError(error, shown));
      aborter.abort();
      request?.destroy();
      tunnel?.destroy();
    };
    // One deadline for the whole exchange, the proxy's part included: a server
    // that accepts and then trickles or hangs is as dead as one that never answers.
    const timer = setTimeout(() => {
      fail(
        new ChartroomError(
          "HTTP_TIMEOUT",
          `no complete answer within ${req.timeoutMs} ms from ${shown}${proxy === undefined ? "" : ` (through the proxy ${proxy.origin})`}`,
          {
            place: { url: shown },
            hint: "the repository is slow or unreachable; raise timeoutMs on the repository or try again",
          },
        ),
      );
    }, req.timeoutMs);
    const start = (options: RequestOptions, send: typeof import("node:http").request) => {
      if (settled) return;
      request = send(options);
      request.on("response", (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (size > maxBytes) {
            // Not retried: the same answer would be as large again.
            fail(
              new ChartroomError("INPUT_TOO_LARGE", `the answer from ${shown} is larger than ${maxBytes} bytes, the most chartroom reads`, {
                place: { url: shown },
                hint:
                  req.limitSetting === undefined
                    ? "check the repository; this is more than any chart repository serves"
                    : `check the registry; raise ${req.limitSetting} only if its metadata really is this large`,
              }),
            );
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          tunnel?.destroy();
          const body = Buffer.concat(chunks);
          beforeInput(body.length);
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, url: req.url });
        });
        response.on("error", fail);
      });
      request.on("error", fail);
      request.end();
    };
    const direct = { ...requestParts(target), method: "GET", headers: req.headers, ...(req.ca ? { ca: [req.ca] } : {}) };
    if (proxy === undefined) return start(direct, target.protocol === "https:" ? https().request : http().request);
    // Plain http without credentials goes to the proxy as an absolute URL (as Go
    // sends it); anything carrying a credential or TLS goes through a tunnel, so
    // the proxy is never handed a repository's credential.
    if (target.protocol === "http:" && req.headers?.authorization === undefined) {
      return start(
        { ...requestParts(proxy), method: "GET", path: target.href, headers: { ...req.headers, host: target.host, ...proxyHeaders(proxy) } },
        proxy.protocol === "https:" ? https().request : http().request,
      );
    }
    openTunnel(proxy, target, aborter.signal).then((socket) => {
      tunnel = socket;
      if (settled) return socket.destroy();
      if (target.protocol === "http:") return start({ ...direct, createConnection: () => socket }, http().request);
      const secure = () =>
        tls().connect({
          socket,
          ...(isIP(target.hostname) === 0 ? { servername: target.hostname } : {}),
          host: target.hostname,
          ...(req.ca ? { ca: [req.ca] } : {}),
        });
      start({ ...direct, createConnection: secure }, https().request);
    }, fail);
  });
}

/** Host, port and path of a URL as http.request takes them (brackets off an IPv6 host). */
function requestParts(url: URL): RequestOptions {
  return {
    protocol: url.protocol,
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port === "" ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
  };
}

function asNetworkError(error: unknown, shown: string): ChartroomError {
  if (ChartroomError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException).code ?? "";
  // Certificate problems are not transient: their own code, never retried.
  if (/CERT|SSL|TLS|SIGNATURE|VERIFY|ISSUER/i.test(code)) {
    return new ChartroomError("HTTP_TLS", `the certificate of ${shown} is not trusted: ${code}`, {
      place: { url: shown },
      hint: "set caFile on the repository to the PEM of the CA that signed it",
    });
  }
  return new ChartroomError("HTTP_FAILED", `cannot reach ${shown}: ${code || (error as Error).message}`, {
    place: { url: shown },
    hint: "check the URL and that the server is up",
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Turn a non-success status into the error a person can act on. */
export function statusError(status: number, url: string, authHint: string): ChartroomError {
  const shown = stripUserInfo(url);
  if (status === 401 || status === 403) {
    return new ChartroomError("HTTP_AUTH", `${status === 401 ? "authentication failed" : "access denied"} (${status}) for ${shown}`, {
      place: { url: shown },
      hint: authHint,
    });
  }
  if (status === 404) {
    return new ChartroomError("HTTP_NOT_FOUND", `not found (404): ${shown}`, {
      place: { url: shown },
      hint: "check the repository URL and the chart name",
    });
  }
  return new ChartroomError("HTTP_FAILED", `server answered ${status} for ${shown}`, { place: { url: shown } });
}
