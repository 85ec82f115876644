import { BlockList, isIP, type Socket } from "node:net";
import { ChartroomError } from "../errors/index.js";
import { rememberCredentialPair, rememberSecret, stripUserInfo } from "../errors/secrets.js";
import { http, https } from "./lazy-net.js";

/** The proxy environment, as Go (and so Helm) reads it: the upper-case name first. */
export interface ProxyEnv {
  HTTPS_PROXY?: string;
  https_proxy?: string;
  HTTP_PROXY?: string;
  http_proxy?: string;
  NO_PROXY?: string;
  no_proxy?: string;
}

/**
 * The proxy a request to `target` goes through, or undefined for a direct
 * connection. The rules are Go's `httpproxy` rules, so chartroom reaches a
 * repository by the same route as `helm pull` on the same runner:
 * HTTPS_PROXY for https, HTTP_PROXY for http, never for localhost or a
 * loopback address, and not for a host NO_PROXY names.
 */
export function proxyFor(target: URL, env: ProxyEnv = process.env): URL | undefined {
  const setting = target.protocol === "https:" ? (env.HTTPS_PROXY ?? env.https_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  if (setting === undefined || setting.trim() === "") return undefined;
  const host = bareHost(target.hostname);
  if (host === "localhost" || isLoopback(host)) return undefined;
  if (bypassed(host, portOf(target), env.NO_PROXY ?? env.no_proxy ?? "")) return undefined;
  return parseProxy(setting.trim(), target.protocol === "https:" ? "HTTPS_PROXY" : "HTTP_PROXY");
}

function parseProxy(setting: string, variable: string): URL {
  // Go takes a bare host:port as http://host:port.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(setting) ? setting : `http://${setting}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ChartroomError("PROXY_FAILED", `${variable} is not a URL: ${stripUserInfo(setting)}`, {
      place: { key: variable },
      hint: `set ${variable} to http://host:port (or https://host:port for a proxy that speaks TLS)`,
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ChartroomError("PROXY_FAILED", `${variable} names a ${url.protocol.slice(0, -1)} proxy; chartroom speaks to http and https proxies only`, {
      place: { key: variable },
      hint: `set ${variable} to http://host:port, or run the SOCKS proxy behind an HTTP one`,
    });
  }
  // The proxy's own credentials are secrets like any other.
  if (url.password !== "") {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    rememberSecret(password);
    rememberCredentialPair(user, password);
  }
  return url;
}

/** NO_PROXY: `*`, host names (a name covers its subdomains; `.name` only them), IPs, CIDR ranges, each with an optional port. */
export function bypassed(host: string, port: string, noProxy: string): boolean {
  const entries = noProxy
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
  const name = host.toLowerCase();
  for (const entry of entries) {
    if (entry === "*") return true;
    const { host: wanted, port: wantedPort } = splitEntry(entry);
    if (wantedPort !== undefined && wantedPort !== port) continue;
    if (wanted.includes("/")) {
      if (inRange(name, wanted)) return true;
      continue;
    }
    if (isIP(wanted) !== 0 || isIP(name) !== 0) {
      if (wanted === name) return true;
      continue;
    }
    const domain = wanted.replace(/^\*?\./, "");
    const subdomainsOnly = wanted.startsWith(".") || wanted.startsWith("*.");
    if (name.endsWith(`.${domain}`) || (!subdomainsOnly && name === domain)) return true;
  }
  return false;
}

function splitEntry(entry: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1] ?? "", ...(bracketed[2] === undefined ? {} : { port: bracketed[2] }) };
  // An IPv6 address or range without brackets has no port.
  if ((entry.match(/:/g) ?? []).length > 1) return { host: entry };
  const [host, port] = entry.split(":");
  return { host: host ?? "", ...(port === undefined ? {} : { port }) };
}

function inRange(host: string, cidr: string): boolean {
  const [base, bits] = cidr.split("/");
  const family = isIP(base ?? "");
  if (family === 0 || isIP(host) !== family || !/^\d+$/.test(bits ?? "")) return false;
  const list = new BlockList();
  try {
    list.addSubnet(base ?? "", Number(bits), family === 4 ? "ipv4" : "ipv6");
  } catch {
    return false;
  }
  return list.check(host, family === 4 ? "ipv4" : "ipv6");
}

function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

function isLoopback(host: string): boolean {
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1" || host === "0:0:0:0:0:0:0:1";
}

function portOf(url: URL): string {
  return url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
}

/** Proxy-Authorization for a proxy URL that carries credentials; sent to the proxy only. */
export function proxyHeaders(proxy: URL): Record<string, string> {
  if (proxy.username === "" && proxy.password === "") return {};
  const pair = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { "proxy-authorization": `Basic ${Buffer.from(pair).toString("base64")}` };
}

/**
 * Open a CONNECT tunnel through `proxy` to the target's host and port. The
 * TLS session to the repository runs inside it, so the proxy sees the host
 * name and encrypted bytes: never a path, a header or a credential of the
 * repository. Fails with PROXY_FAILED when the proxy refuses.
 */
export function openTunnel(proxy: URL, target: URL, signal: AbortSignal): Promise<Socket> {
  const authority = `${target.hostname}:${portOf(target)}`;
  const send = proxy.protocol === "https:" ? https().request : http().request;
  const shownProxy = proxy.origin;
  return new Promise((resolve, reject) => {
    const request = send({
      host: bareHost(proxy.hostname),
      port: proxy.port === "" ? (proxy.protocol === "https:" ? 443 : 80) : Number(proxy.port),
      method: "CONNECT",
      path: authority,
      headers: { host: authority, ...proxyHeaders(proxy) },
      agent: false,
      signal,
    });
    request.on("connect", (response, socket) => {
      if (response.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(refused(response.statusCode ?? 0, shownProxy, authority));
    });
    // A proxy that answers CONNECT with an ordinary response refuses it too.
    request.on("response", (response) => {
      response.resume();
      reject(refused(response.statusCode ?? 0, shownProxy, authority));
    });
    request.on("error", (error) => reject(unreachable(error, shownProxy)));
    request.end();
  });
}

function refused(status: number, proxy: string, authority: string): ChartroomError {
  return new ChartroomError("PROXY_FAILED", `the proxy ${proxy} answered ${status} to CONNECT ${authority}`, {
    place: { url: proxy },
    hint:
      status === 407
        ? "the proxy wants credentials: give them as the user and password of the proxy URL, percent-encoded"
        : "the proxy refuses this host; add it to NO_PROXY if it is reachable directly, or ask the proxy's owner",
  });
}

/** A proxy that cannot be reached: its own code, so the fix is not looked for at the repository. */
export function unreachable(error: unknown, proxy: string): ChartroomError {
  if (ChartroomError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  if (/CERT|SSL|TLS|SIGNATURE|VERIFY|ISSUER/i.test(code)) {
    return new ChartroomError("PROXY_FAILED", `the certificate of the proxy ${proxy} is not trusted: ${code}`, {
      place: { url: proxy },
      hint: "set NODE_EXTRA_CA_CERTS to the PEM file of the CA that signed the proxy's certificate",
    });
  }
  return new ChartroomError("PROXY_FAILED", `cannot reach the proxy ${proxy}: ${code}`, {
    place: { url: proxy },
    hint: "check HTTPS_PROXY / HTTP_PROXY, or add the repository's host to NO_PROXY",
  });
}
