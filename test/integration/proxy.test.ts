// Repositories behind a forward proxy, as on most corporate CI runners. The
// repositories are named by hosts that resolve nowhere but in the proxy, so a
// run that reaches them went through it; the proxy counts what it carried.
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helmRepository, serveRepository, writeConfig } from "../helpers/chart-repo.js";
import { helm } from "../helpers/helm.js";
import { cli, ROOT } from "../helpers/platform.js";
import { compiledCli, runGroup } from "../helpers/process.js";
import { startProxy, type TestProxy } from "../helpers/proxy.js";
import { helmLogin, helmPush, makeCertificates, startRegistry, type Registry } from "../helpers/registry.js";
import { tempDir } from "../helpers/tmp.js";

const REGISTRY_HOST = "registry.example.test";
const CHARTS_HOST = "charts.example.test";
const USER = "platform-ci";
const PASSWORD = "proxied-registry-password-31";
const PROXY_USER = "runner";
const PROXY_PASSWORD = "proxy-pass-5150";
const ENV = { REG_USER: USER, REG_PASS: PASSWORD };
const auth = { usernameEnv: "REG_USER", passwordEnv: "REG_PASS" };
const charts = { webapp: { repository: "remote", version: "^1.0.0", namespace: "web" } };

let home: string;
let certs: { ca: string; cert: string; key: string };
let registry: Registry;
let repository: Awaited<ReturnType<typeof serveRepository>>;
let port: (url: string) => number;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "chartroom-proxy-"));
  certs = await makeCertificates(home, [REGISTRY_HOST]);
  registry = await startRegistry(home, { tls: certs, htpasswd: { username: USER, password: PASSWORD } });
  await helmLogin(4, registry.host, USER, PASSWORD, { dir: home, caFile: certs.ca });
  for (const file of ["webapp-1.0.0.tgz", "webapp-1.0.1.tgz"])
    await helmPush(4, join(ROOT, "charts", file), `oci://${registry.host}/private`, { dir: home, caFile: certs.ca });
  const served = join(home, "served");
  await mkdir(served);
  repository = await serveRepository(
    await helmRepository(
      4,
      served,
      [
        ["webapp", "1.0.0"],
        ["webapp", "1.0.1"],
      ],
      `http://${CHARTS_HOST}/`,
    ),
    { basic: { username: USER, password: PASSWORD } },
  );
  port = (url) => Number(new URL(url).port);
});

afterAll(async () => {
  await registry?.stop();
  await repository?.close();
  await rm(home, { recursive: true, force: true });
});

async function proxy(options: { basic?: boolean; tls?: boolean } = {}): Promise<TestProxy> {
  const started = await startProxy({
    routes: { [REGISTRY_HOST]: port(`https://${registry.host}`), [CHARTS_HOST]: port(repository.url) },
    ...(options.basic ? { basic: { username: PROXY_USER, password: PROXY_PASSWORD } } : {}),
    ...(options.tls ? { tls: certs } : {}),
  });
  return started;
}

async function everyFile(dir: string): Promise<string> {
  let text = "";
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), "latin1");
  }
  return text;
}

const basic = (user: string, password: string) => Buffer.from(`${user}:${password}`).toString("base64");

describe("repositories behind HTTPS_PROXY / HTTP_PROXY", () => {
  it("reaches an OCI registry over TLS through one CONNECT tunnel per connection; the proxy never sees the registry's credentials", async () => {
    const through = await proxy();
    try {
      const dir = await tempDir();
      await writeConfig(dir, { url: `oci://${REGISTRY_HOST}/private`, caFile: certs.ca, auth }, charts);
      const result = await cli(dir, ["lock"], { ...ENV, HTTPS_PROXY: through.url });
      expect(result.errors).toBe("");
      expect(JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")).charts.webapp).toMatchObject({ version: "1.0.1" });
      expect(through.tunnels.length).toBeGreaterThan(0);
      expect(new Set(through.tunnels)).toStrictEqual(new Set([`${REGISTRY_HOST}:443`]));
      // The proxy saw a host name and encrypted bytes: no header, no path, no credential.
      for (const headers of through.connectHeaders) expect(headers.authorization).toBeUndefined();
      expect(through.forwarded).toStrictEqual([]);
      const seen = through.tunnelled().toString("latin1");
      expect(seen).not.toContain(PASSWORD);
      expect(seen).not.toContain(basic(USER, PASSWORD));
      expect(seen).not.toContain("/v2/");
    } finally {
      await through.close();
    }
  });

  it("sends a credential-free plain-http request to the proxy as an absolute URL, and one with credentials through a tunnel", async () => {
    const through = await proxy();
    try {
      const open = await tempDir();
      await writeConfig(open, { url: `http://${CHARTS_HOST}/` }, charts);
      // The repository wants credentials: without them it answers 401 through the proxy, with the usual hint.
      const refused = await cli(open, ["lock"], { HTTP_PROXY: through.url });
      expect(refused.errors).toContain("HTTP_AUTH");
      expect(through.forwarded.map((request) => request.url)).toContain(`http://${CHARTS_HOST}/index.yaml`);
      const dir = await tempDir();
      await writeConfig(dir, { url: `http://${CHARTS_HOST}/`, auth }, charts);
      const result = await cli(dir, ["lock"], { ...ENV, HTTP_PROXY: through.url });
      expect(result.errors).toBe("");
      expect(through.tunnels).toContain(`${CHARTS_HOST}:80`);
      for (const request of through.forwarded) expect(request.headers.authorization).toBeUndefined();
      for (const headers of through.connectHeaders) expect(headers.authorization).toBeUndefined();
    } finally {
      await through.close();
    }
  });

  it("bypasses the proxy for NO_PROXY hosts and for loopback, as helm does", async () => {
    const through = await proxy();
    try {
      const dir = await tempDir();
      await writeConfig(dir, { url: `oci://${REGISTRY_HOST}/private`, caFile: certs.ca, auth }, charts);
      // Direct, the name resolves nowhere: the run fails, and the proxy carried nothing.
      const bypassed = await cli(dir, ["lock"], { ...ENV, HTTPS_PROXY: through.url, NO_PROXY: "localhost,.internal,example.test" });
      expect(bypassed.errors).toContain("HTTP_FAILED");
      expect(bypassed.errors).toContain(`cannot reach https://${REGISTRY_HOST}/`);
      expect(through.tunnels).toStrictEqual([]);
      const loopback = await tempDir();
      await writeConfig(loopback, { url: `oci://${registry.host}/private`, caFile: certs.ca, auth }, charts);
      expect((await cli(loopback, ["lock"], { ...ENV, HTTPS_PROXY: through.url })).errors).toBe("");
      expect(through.tunnels).toStrictEqual([]);
    } finally {
      await through.close();
    }
  });

  it("authenticates to the proxy with the credentials in its URL, never shown; without them names 407 and the fix", async () => {
    const through = await proxy({ basic: true });
    try {
      const dir = await tempDir();
      await writeConfig(dir, { url: `oci://${REGISTRY_HOST}/private`, caFile: certs.ca, auth }, charts);
      const refused = await cli(dir, ["lock"], { ...ENV, HTTPS_PROXY: through.url });
      expect(refused.exitCode).toBe(1);
      expect(refused.errors).toContain(`PROXY_FAILED: the proxy ${through.url} answered 407 to CONNECT ${REGISTRY_HOST}:443`);
      expect(refused.errors).toContain("the user and password of the proxy URL");
      expect(through.tunnels).toStrictEqual([]);
      const withCredentials = through.url.replace("://", `://${PROXY_USER}:${PROXY_PASSWORD}@`);
      const result = await cli(dir, ["lock"], { ...ENV, HTTPS_PROXY: withCredentials });
      expect(result.errors).toBe("");
      expect(through.tunnels.length).toBeGreaterThan(0);
      const stored = (await everyFile(dir)) + result.output;
      expect(stored).not.toContain(PROXY_PASSWORD);
      expect(stored).not.toContain(basic(PROXY_USER, PROXY_PASSWORD));
      // The proxy's credential went to the proxy, and not into the tunnel to the registry.
      expect(through.tunnelled().toString("latin1")).not.toContain(basic(PROXY_USER, PROXY_PASSWORD));
      // A failure through the authenticated proxy names it without its credentials.
      const wrong = await cli(dir, ["lock", "--frozen"], { ...ENV, HTTPS_PROXY: withCredentials.replace(PROXY_PASSWORD, `${PROXY_PASSWORD}-x`) });
      expect(wrong.errors).not.toContain(PROXY_PASSWORD);
    } finally {
      await through.close();
    }
  });

  it("speaks TLS to an https:// proxy that NODE_EXTRA_CA_CERTS trusts, and says which setting is missing when none does", async () => {
    const through = await proxy({ tls: true });
    try {
      const dir = await tempDir();
      await writeConfig(dir, { url: `oci://${REGISTRY_HOST}/private`, caFile: certs.ca, auth }, charts);
      const untrusted = await cli(dir, ["lock"], { ...ENV, HTTPS_PROXY: through.url });
      expect(untrusted.errors).toContain(`PROXY_FAILED: the certificate of the proxy ${through.url} is not trusted`);
      expect(untrusted.errors).toContain("NODE_EXTRA_CA_CERTS");
      expect(through.tunnels).toStrictEqual([]);
      // Node reads NODE_EXTRA_CA_CERTS as it starts: the compiled CLI, in a process of its own.
      const env = {
        ...ENV,
        HTTPS_PROXY: through.url,
        NODE_EXTRA_CA_CERTS: certs.ca,
        CHARTROOM_CACHE: join(dir, ".cache"),
        HELM_BIN: await helm(4),
        NO_COLOR: "1",
      };
      const trusted = await runGroup(process.execPath, [compiledCli(), "lock"], { cwd: dir, env, timeoutMs: 120_000 });
      expect(trusted.stderr).toBe("");
      expect(trusted.code).toBe(0);
      expect(through.tunnels.length).toBeGreaterThan(0);
    } finally {
      await through.close();
    }
  });

  it("refuses a proxy it cannot reach, a proxy that is not a URL and a SOCKS proxy, naming the variable", async () => {
    const dir = await tempDir();
    await writeConfig(dir, { url: `oci://${REGISTRY_HOST}/private`, caFile: certs.ca, auth }, charts);
    const down = await cli(dir, ["lock"], { ...ENV, HTTPS_PROXY: "http://127.0.0.1:9" });
    expect(down.errors).toContain("PROXY_FAILED: cannot reach the proxy http://127.0.0.1:9: ECONNREFUSED");
    const socks = await cli(dir, ["lock"], { ...ENV, HTTPS_PROXY: "socks5://127.0.0.1:1080" });
    expect(socks.errors).toContain("PROXY_FAILED: HTTPS_PROXY names a socks5 proxy");
    const garbage = await cli(dir, ["lock"], { ...ENV, HTTPS_PROXY: "http://exa mple:port" });
    expect(garbage.errors).toContain("PROXY_FAILED: HTTPS_PROXY is not a URL");
  });
});
