// An OCI registry that tries to send chartroom elsewhere: a paging link to
// another host, a token realm that is not http(s), metadata too large to be
// real. Credentials must never leave for another origin (a counting listener
// on 127.0.0.3 proves no connection), and each case is a coded error.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeConfig } from "../helpers/chart-repo.js";
import { countingListener, type CountingListener } from "../helpers/listener.js";
import { cli, ROOT } from "../helpers/platform.js";
import { helmPush, startRegistry, startTokenProxy, type Registry } from "../helpers/registry.js";
import { tempDir } from "../helpers/tmp.js";

const USER = "ci-robot";
const PASSWORD = "Registry-Password-9931";
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString("base64");
const ENV = { REG_USER: USER, REG_PASS: PASSWORD };

let registry: Registry;
let home: string;
let foreign: CountingListener;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "chartroom-oci-security-"));
  registry = await startRegistry(home);
  for (const file of ["webapp-1.0.0.tgz", "webapp-1.0.1.tgz", "webapp-1.1.0.tgz"])
    await helmPush(4, join(ROOT, "charts", file), `oci://${registry.host}/charts`, { dir: home, plainHttp: true });
  foreign = await countingListener("127.0.0.3");
});

afterAll(async () => {
  await foreign?.close();
  await registry?.stop();
  await rm(home, { recursive: true, force: true });
});

const webapp = { webapp: { repository: "remote", version: "^1.0.0", namespace: "web" } };

async function lockedBehind(proxyHost: string): Promise<string> {
  const dir = await tempDir();
  await writeConfig(dir, { url: `oci://${proxyHost}/charts`, plainHttp: true, auth: { usernameEnv: "REG_USER", passwordEnv: "REG_PASS" } }, webapp);
  return dir;
}

function expectClean(printed: string): void {
  expect(printed).not.toContain(PASSWORD);
  expect(printed).not.toContain(BASIC);
  expect(printed).not.toMatch(/token-\d+/);
  expect(printed, "no stack trace").not.toMatch(/^\s+at .+[:(]\d+/m);
}

describe("an OCI registry sending chartroom to another origin", () => {
  it("never follows a tags page link to another host: no connection, a coded error, in lock, lock --frozen, outdated and plan", async () => {
    const proxy = await startTokenProxy(registry.base, { basic: { username: USER, password: PASSWORD } });
    try {
      const dir = await lockedBehind(proxy.host);
      expect((await cli(dir, ["lock"], ENV)).errors).toBe("");
      proxy.faults.tagPageSize = 1;
      proxy.faults.linkOrigin = foreign.origin;
      for (const argv of [["lock", "webapp"], ["lock", "--frozen"], ["outdated"], ["plan"]]) {
        const result = await cli(dir, argv, { ...ENV, CHARTROOM_CACHE: await tempDir() });
        const printed = `${result.output}\n${result.errors}`;
        expect(result.exitCode, `${argv.join(" ")}: ${printed}`).not.toBe(0);
        expect(printed, argv.join(" ")).toContain("REGISTRY_PROTOCOL");
        expect(printed).toContain(foreign.origin);
        expectClean(printed);
      }
      expect(foreign.connections()).toBe(0);
      expect(foreign.received()).toBe("");
    } finally {
      await proxy.stop();
    }
  });

  it("follows a link on the registry's own origin, written absolute", async () => {
    const proxy = await startTokenProxy(registry.base, { basic: { username: USER, password: PASSWORD } });
    proxy.faults.tagPageSize = 1;
    proxy.faults.linkOrigin = `http://${proxy.host}`;
    try {
      const dir = await lockedBehind(proxy.host);
      expect((await cli(dir, ["lock"], ENV)).errors).toBe("");
      expect(JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")).charts.webapp.version).toBe("1.1.0");
    } finally {
      await proxy.stop();
    }
  });

  it("refuses a token realm that is not http(s), with a coded error", async () => {
    const proxy = await startTokenProxy(registry.base, { basic: { username: USER, password: PASSWORD } });
    proxy.faults.realm = "file:///etc/passwd";
    try {
      const dir = await lockedBehind(proxy.host);
      const result = await cli(dir, ["lock"], ENV);
      expect(result.exitCode).toBe(1);
      expect(result.errors).toContain("error REGISTRY_PROTOCOL:");
      expect(result.errors).toContain("file://");
      expectClean(result.errors);
    } finally {
      await proxy.stop();
    }
  });

  it("bounds a tag list at 4 MiB as oras-go does, naming the limit and its setting", async () => {
    const proxy = await startTokenProxy(registry.base, { basic: { username: USER, password: PASSWORD } });
    proxy.faults.padTags = 5 << 20;
    try {
      const dir = await lockedBehind(proxy.host);
      const result = await cli(dir, ["lock"], ENV);
      expect(result.errors).toContain("error INPUT_TOO_LARGE:");
      expect(result.errors).toContain(`larger than ${4 << 20} bytes`);
      expect(result.errors).toContain("CHARTROOM_MAX_METADATA_BYTES");
      expectClean(result.errors);
      // Not retried: one request for the list (the first answer was 401).
      expect(proxy.seen.filter((request) => request.url.includes("/tags/list") && request.authorization !== undefined)).toHaveLength(1);
      // The setting moves the bound.
      proxy.faults.padTags = 2000;
      expect((await cli(dir, ["lock"], { ...ENV, CHARTROOM_MAX_METADATA_BYTES: "1000" })).errors).toContain("larger than 1000 bytes");
    } finally {
      await proxy.stop();
    }
  });
});
