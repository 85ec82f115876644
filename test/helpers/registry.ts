import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { request as httpRequest, createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import bcrypt from "bcryptjs";
import type { HelmMajor } from "../../src/render/helm-binary.js";
import { helm } from "./helm.js";

const run = promisify(execFile);

export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Registry {
  /** host:port */
  host: string;
  base: string;
  stop(): Promise<void>;
}

export interface RegistryOptions {
  tls?: { cert: string; key: string; ca: string };
  htpasswd?: { username: string; password: string };
}

/**
 * Debian's docker-registry (CNCF distribution 2.8) on 127.0.0.1 with its
 * storage in `dir`. Waits (bounded) until /v2/ answers.
 */
export async function startRegistry(dir: string, options: RegistryOptions = {}): Promise<Registry> {
  const port = await freePort();
  const lines = [
    "version: 0.1",
    "log:",
    "  level: error",
    "  accesslog:",
    "    disabled: true",
    "storage:",
    "  filesystem:",
    `    rootdirectory: ${join(dir, "storage")}`,
    "  delete:",
    "    enabled: true",
    "http:",
    `  addr: 127.0.0.1:${port}`,
  ];
  if (options.tls) lines.push("  tls:", `    certificate: ${options.tls.cert}`, `    key: ${options.tls.key}`);
  if (options.htpasswd) {
    const hash = bcrypt.hashSync(options.htpasswd.password, 6);
    await writeFile(join(dir, "htpasswd"), `${options.htpasswd.username}:${hash}\n`);
    lines.push("auth:", "  htpasswd:", "    realm: chartroom-test", `    path: ${join(dir, "htpasswd")}`);
  }
  await writeFile(join(dir, "config.yml"), `${lines.join("\n")}\n`);
  const child = spawn("docker-registry", ["serve", join(dir, "config.yml")], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const base = `${options.tls ? "https" : "http"}://127.0.0.1:${port}`;
  const ca = options.tls ? await import("node:fs/promises").then((fs) => fs.readFile(options.tls?.ca as string)) : undefined;
  for (let attempt = 0; ; attempt++) {
    if (await answers(`${base}/v2/`, ca)) break;
    if (attempt >= 100 || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error(`docker-registry did not start on ${base}: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { host: `127.0.0.1:${port}`, base, stop: () => stop(child) };
}

function answers(url: string, ca?: Buffer): Promise<boolean> {
  const send = url.startsWith("https") ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(url, { ca: ca ? [ca] : undefined, timeout: 1000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
    req.end();
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
}

/** A throwaway CA and a server certificate for 127.0.0.1 (and any other names) signed by it. */
export async function makeCertificates(dir: string, names: string[] = []): Promise<{ ca: string; cert: string; key: string }> {
  const ca = join(dir, "ca.pem");
  const caKey = join(dir, "ca.key");
  const key = join(dir, "server.key");
  const csr = join(dir, "server.csr");
  const cert = join(dir, "server.pem");
  const ext = join(dir, "server.ext");
  await run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey, "-out", ca, "-days", "2", "-subj", "/CN=chartroom test CA"]);
  await run("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1"]);
  const alt = ["IP:127.0.0.1", "DNS:localhost", ...names.map((name) => `DNS:${name}`)].join(",");
  await writeFile(ext, `subjectAltName=${alt}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n`);
  await run("openssl", ["x509", "-req", "-in", csr, "-CA", ca, "-CAkey", caKey, "-CAcreateserial", "-out", cert, "-days", "2", "-extfile", ext]);
  return { ca, cert, key };
}

/** `helm push` with the real helm of one major. */
export async function helmPush(
  major: HelmMajor,
  archive: string,
  target: string,
  options: { dir: string; plainHttp?: boolean; caFile?: string },
): Promise<string> {
  const env = {
    ...process.env,
    HELM_REGISTRY_CONFIG: join(options.dir, `registry-${major}.json`),
    HELM_CACHE_HOME: join(options.dir, `hc${major}`),
    HELM_CONFIG_HOME: join(options.dir, `hcfg${major}`),
  };
  const args = ["push", archive, target, ...(options.plainHttp ? ["--plain-http"] : []), ...(options.caFile ? ["--ca-file", options.caFile] : [])];
  const { stdout, stderr } = await run(await helm(major), args, { env });
  return stdout + stderr;
}

export async function helmLogin(major: HelmMajor, host: string, username: string, password: string, options: { dir: string; caFile: string }): Promise<void> {
  const env = {
    ...process.env,
    HELM_REGISTRY_CONFIG: join(options.dir, `registry-${major}.json`),
    HELM_CACHE_HOME: join(options.dir, `hc${major}`),
    HELM_CONFIG_HOME: join(options.dir, `hcfg${major}`),
  };
  await run(await helm(major), ["registry", "login", host, "--username", username, "--password", password, "--ca-file", options.caFile], { env });
}

/** Push any artifact over the distribution API (for shapes `helm push` never makes). */
export async function pushArtifact(
  base: string,
  name: string,
  tag: string,
  configMediaType: string,
  layer: { mediaType: string; data: Buffer },
): Promise<void> {
  const config = Buffer.from("{}");
  for (const blob of [config, layer.data]) {
    const start = await fetch(`${base}/v2/${name}/blobs/uploads/`, { method: "POST" });
    const location = new URL(start.headers.get("location") ?? "", base);
    location.searchParams.set("digest", digestOf(blob));
    const put = await fetch(location, { method: "PUT", body: new Uint8Array(blob), headers: { "content-type": "application/octet-stream" } });
    if (put.status !== 201) throw new Error(`blob upload failed: ${put.status}`);
  }
  const manifest = {
    schemaVersion: 2,
    mediaType: "application/vnd.oci.image.manifest.v1+json",
    config: { mediaType: configMediaType, digest: digestOf(config), size: config.length },
    layers: [{ mediaType: layer.mediaType, digest: digestOf(layer.data), size: layer.data.length }],
  };
  const put = await fetch(`${base}/v2/${name}/manifests/${tag}`, {
    method: "PUT",
    body: JSON.stringify(manifest),
    headers: { "content-type": "application/vnd.oci.image.manifest.v1+json" },
  });
  if (put.status !== 201) throw new Error(`manifest upload failed: ${put.status} ${await put.text()}`);
}

function digestOf(data: Buffer): string {
  return `sha256:${createHash("sha256").update(data).digest("hex")}`;
}

export interface ProxyFaults {
  failures: number;
  hang: boolean;
  corruptBlobs: boolean;
  /** Ask the registry for tag pages of this size, so its Link pagination is exercised. */
  tagPageSize?: number;
  /** With tagPageSize: the next-page links point at this origin instead of the proxy's own. */
  linkOrigin?: string;
  /** The token realm named in challenges, instead of the proxy's own /token. */
  realm?: string;
  /** Tag lists padded past this many bytes. */
  padTags?: number;
}

/**
 * A front for a plain-HTTP registry that demands the distribution spec's
 * Bearer token flow (401 + WWW-Authenticate → token endpoint → retry) and can
 * misbehave on demand. With `basic` set, the token endpoint wants those credentials.
 */
export async function startTokenProxy(upstream: string, options: { basic?: { username: string; password: string } } = {}) {
  const faults: ProxyFaults = { failures: 0, hang: false, corruptBlobs: false };
  const issued = new Set<string>();
  const seen: { url: string; authorization?: string }[] = [];
  let counter = 0;
  let origin = "";
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ url: req.url ?? "", authorization: req.headers.authorization });
    if (faults.hang) return;
    if (faults.failures > 0) {
      faults.failures--;
      return void res.writeHead(500).end("upstream trouble");
    }
    const url = new URL(req.url ?? "/", origin);
    if (url.pathname === "/token") {
      const expected = options.basic ? `Basic ${Buffer.from(`${options.basic.username}:${options.basic.password}`).toString("base64")}` : undefined;
      if (expected !== undefined && req.headers.authorization !== expected) return void res.writeHead(401).end();
      const token = `token-${++counter}-${url.searchParams.get("scope")}`;
      issued.add(token);
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ token }));
    }
    const bearer = req.headers.authorization?.replace(/^Bearer /, "");
    if (bearer === undefined || !issued.has(bearer)) {
      const name = /^\/v2\/(.+?)\/(tags|manifests|blobs)\//.exec(url.pathname)?.[1] ?? "";
      return void res
        .writeHead(401, { "www-authenticate": `Bearer realm="${faults.realm ?? `${origin}/token`}",service="chartroom-proxy",scope="repository:${name}:pull"` })
        .end();
    }
    if (faults.padTags !== undefined && url.pathname.endsWith("/tags/list"))
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ name: "x", tags: Array.from({ length: Math.ceil(faults.padTags / 10) + 1 }, (_, i) => `0.0.${i}`) }));
    if (faults.tagPageSize !== undefined && url.pathname.endsWith("/tags/list"))
      return void pageTags(upstream, url, faults.tagPageSize, res, faults.linkOrigin);
    const forward = httpRequest(`${upstream}${req.url}`, { method: req.method, headers: { accept: req.headers.accept ?? "*/*" } }, (up) => {
      const chunks: Buffer[] = [];
      up.on("data", (chunk: Buffer) => chunks.push(chunk));
      up.on("end", () => {
        let body = Buffer.concat(chunks);
        if (faults.corruptBlobs && url.pathname.includes("/blobs/") && body.length > 0)
          body = Buffer.concat([body.subarray(0, body.length - 1), Buffer.from([body.at(-1)! ^ 0xff])]);
        const headers = { ...up.headers };
        delete headers["content-length"];
        res.writeHead(up.statusCode ?? 502, headers).end(body);
      });
    });
    forward.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host: origin.slice("http://".length),
    faults,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serve the upstream tag list in pages of `size`, with a `Link: <…>; rel="next"` header. */
function pageTags(upstream: string, url: URL, size: number, res: ServerResponse, linkOrigin = ""): void {
  const forward = httpRequest(`${upstream}${url.pathname}`, (up) => {
    const chunks: Buffer[] = [];
    up.on("data", (chunk: Buffer) => chunks.push(chunk));
    up.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { name: string; tags: string[] };
      const tags = [...body.tags].sort();
      const last = url.searchParams.get("last");
      const from = last === null ? 0 : tags.indexOf(last) + 1;
      const page = tags.slice(from, from + size);
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (from + size < tags.length) headers.link = `<${linkOrigin}${url.pathname}?n=${size}&last=${encodeURIComponent(page.at(-1) ?? "")}>; rel="next"`;
      res.writeHead(200, headers).end(JSON.stringify({ name: body.name, tags: page }));
    });
  });
  forward.end();
}

/**
 * An image pushed over the distribution API: a config and one layer per
 * platform, a manifest each and, for several platforms, an OCI index over
 * them. `salt` makes other bytes under the same tag (a moved tag). Returns
 * the digest the tag names.
 */
export async function pushImage(
  base: string,
  name: string,
  tag: string,
  options: { platforms?: string[]; salt?: string; basic?: { username: string; password: string } } = {},
): Promise<string> {
  const auth: Record<string, string> = options.basic
    ? { authorization: `Basic ${Buffer.from(`${options.basic.username}:${options.basic.password}`).toString("base64")}` }
    : {};
  const blob = async (data: Buffer) => {
    const start = await fetch(`${base}/v2/${name}/blobs/uploads/`, { method: "POST", headers: auth });
    const location = new URL(start.headers.get("location") ?? "", base);
    location.searchParams.set("digest", digestOf(data));
    const put = await fetch(location, { method: "PUT", body: new Uint8Array(data), headers: { ...auth, "content-type": "application/octet-stream" } });
    if (put.status !== 201) throw new Error(`blob upload to ${name} failed: ${put.status}`);
    return { digest: digestOf(data), size: data.length };
  };
  const putManifest = async (reference: string, mediaType: string, manifest: unknown) => {
    const body = JSON.stringify(manifest);
    const put = await fetch(`${base}/v2/${name}/manifests/${reference}`, { method: "PUT", body, headers: { ...auth, "content-type": mediaType } });
    if (put.status !== 201) throw new Error(`manifest upload to ${name}:${reference} failed: ${put.status} ${await put.text()}`);
    return { digest: digestOf(Buffer.from(body)), size: Buffer.byteLength(body), mediaType };
  };
  const platforms = options.platforms ?? ["linux/amd64"];
  const manifests = [];
  for (const platform of platforms) {
    const [os = "linux", architecture = "amd64"] = platform.split("/");
    const config = await blob(Buffer.from(JSON.stringify({ architecture, os, salt: options.salt ?? "" })));
    const layer = await blob(Buffer.from(`layer of ${name}:${tag} for ${platform} ${options.salt ?? ""}`));
    const manifest = {
      schemaVersion: 2,
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      config: { mediaType: "application/vnd.oci.image.config.v1+json", ...config },
      layers: [{ mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", ...layer }],
    };
    const reference = platforms.length === 1 ? tag : digestOf(Buffer.from(JSON.stringify(manifest)));
    manifests.push({ ...(await putManifest(reference, manifest.mediaType, manifest)), platform: { os, architecture } });
  }
  if (platforms.length === 1) return manifests[0]?.digest as string;
  const index = { schemaVersion: 2, mediaType: "application/vnd.oci.image.index.v1+json", manifests };
  return (await putManifest(tag, index.mediaType, index)).digest;
}
