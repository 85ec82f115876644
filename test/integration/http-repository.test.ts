import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseIndex, parseIndexFully } from "../../src/sources/helm-index/file.js";
import { scanIndex } from "../../src/sources/helm-index/scan.js";
import { getWithRetry, retryAfterMs } from "../../src/sources/transport.js";
import { startServer } from "../helpers/http-server.js";
import { helmRepository, serveRepository, writeConfig } from "../helpers/chart-repo.js";
import { cli } from "../helpers/platform.js";
import { tempDir } from "../helpers/tmp.js";

const PASSWORD = "correct-horse-battery-staple";
const AUTH = { usernameEnv: "REPO_USER", passwordEnv: "REPO_PASS" };
const ENV = { REPO_USER: "platform", REPO_PASS: PASSWORD };
const CHARTS: [string, string][] = [
  ["webapp", "1.0.0"],
  ["webapp", "1.0.1"],
  ["webapp", "1.1.0"],
  ["ledger", "0.1.0"],
];

async function setup(major: 3 | 4, options: { auth?: boolean } = {}) {
  const dir = await tempDir();
  const repo = await helmRepository(major, dir, CHARTS);
  const server = await serveRepository(repo, options.auth === false ? {} : { basic: { username: "platform", password: PASSWORD } });
  const platform = join(dir, "platform");
  await writeFile(join(dir, ".keep"), "");
  await import("node:fs/promises").then((fs) => fs.mkdir(platform));
  return { dir, repo, server, platform };
}

async function allText(dir: string): Promise<string> {
  let text = "";
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), "latin1");
  }
  return text;
}

describe.each([3, 4] as const)("an HTTP repository packaged by Helm %i", (major) => {
  it("has an index.yaml that the fast scanner reads exactly as the full parser does", async () => {
    const { repo } = await setup(major, { auth: false });
    const text = await readFile(join(repo, "index.yaml"), "utf8");
    expect(scanIndex(text)).toBeDefined();
    expect(parseIndex(text, "index.yaml")).toStrictEqual(parseIndexFully(text, "index.yaml"));
  });

  it("locks charts over Basic auth, recording digests and no credentials", async () => {
    const { server, platform, repo } = await setup(major);
    await writeConfig(
      platform,
      { url: `${server.url}/`, auth: AUTH },
      {
        webapp: { repository: "remote", version: "~1.0.0", namespace: "web" },
        ledger: { repository: "remote", version: "^0.1.0", namespace: "ledger" },
      },
    );
    const result = await cli(platform, ["lock"], ENV);
    expect(result.errors).toBe("");
    expect(result.exitCode).toBe(0);
    const lockText = await readFile(join(platform, "charts.lock.json"), "utf8");
    const lock = JSON.parse(lockText);
    const index = parse(await readFile(join(repo, "index.yaml"), "utf8"));
    expect(lock.charts.webapp).toMatchObject({
      version: "1.0.1",
      digest: `sha256:${index.entries.webapp.find((e: { version: string }) => e.version === "1.0.1").digest}`,
      url: "webapp-1.0.1.tgz",
    });
    expect(lock.charts.ledger.engine.name).toBe("release");
    expect(lockText).not.toContain(PASSWORD);
    expect(await allText(join(platform, ".cache"))).not.toContain(PASSWORD);
  });
});

describe("HTTP repository behaviour", () => {
  it("revalidates the index with If-None-Match and reuses the parsed copy on 304", async () => {
    const { server, platform } = await setup(4);
    await writeConfig(platform, { url: server.url, auth: AUTH }, { webapp: { repository: "remote", version: "^1.0.0", namespace: "web" } });
    expect((await cli(platform, ["outdated", "--detailed-exitcode"], ENV)).exitCode).toBe(2);
    const second = await cli(platform, ["lock"], ENV);
    expect(second.exitCode).toBe(0);
    const indexRequests = server.requests.filter((r) => r.url === "/index.yaml");
    expect(indexRequests).toHaveLength(2);
    expect(indexRequests[1]?.headers["if-none-match"]).toMatch(/^"[0-9a-f]+"$/);
    expect(server.statuses).toContain(304);
  });

  it("sends a bearer token when the repository names one", async () => {
    const dir = await tempDir();
    const repo = await helmRepository(4, dir, [["webapp", "1.0.0"]]);
    const server = await serveRepository(repo, { token: "tok-123456789" });
    await writeConfig(dir, { url: server.url, auth: { tokenEnv: "REPO_TOKEN" } }, { webapp: { repository: "remote", version: "1.0.0", namespace: "web" } });
    const result = await cli(dir, ["lock"], { REPO_TOKEN: "tok-123456789" });
    expect(result.exitCode).toBe(0);
  });

  it("explains a 401 without showing the password and writes nothing", async () => {
    const { server, platform } = await setup(4);
    await writeConfig(platform, { url: server.url, auth: AUTH }, { webapp: { repository: "remote", version: "^1.0.0", namespace: "web" } });
    const result = await cli(platform, ["lock"], { REPO_USER: "platform", REPO_PASS: "wrong-password-123" });
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain("HTTP_AUTH");
    expect(result.errors).toContain("REPO_USER, REPO_PASS");
    expect(result.errors).not.toContain("wrong-password-123");
    await expect(readFile(join(platform, "charts.lock.json"))).rejects.toThrow();
  });

  it("says which environment variable is missing", async () => {
    const { server, platform } = await setup(4);
    await writeConfig(platform, { url: server.url, auth: AUTH }, { webapp: { repository: "remote", version: "^1.0.0", namespace: "web" } });
    const result = await cli(platform, ["lock"], { REPO_USER: "platform" });
    expect(result.errors).toContain("environment variable REPO_PASS is not set");
  });

  it("names a missing caFile with a coded error, no stack trace, and writes nothing", async () => {
    const { server, platform } = await setup(4);
    await writeConfig(
      platform,
      { url: server.url, auth: AUTH, caFile: "certs/missing.pem" },
      { webapp: { repository: "remote", version: "^1.0.0", namespace: "web" } },
    );
    const result = await cli(platform, ["lock"], ENV);
    expect(result.exitCode).toBe(1);
    // (The user name "platform" is a credential here, so the folder of that name is masked too.)
    const [first, where, hint] = result.errors.split("\n");
    expect(first).toMatch(/^error FILE_UNREADABLE: the CA file of repository remote does not exist: \/.*\/certs\/missing\.pem$/);
    expect(where).toMatch(/^ {2}where: \/.*\/certs\/missing\.pem, at repositories\.remote\.caFile$/);
    expect(hint).toBe("  hint: caFile is a PEM file path relative to chartroom.config.ts");
    expect(result.errors).not.toMatch(/^\s+at /m);
    expect(await readdir(platform)).toStrictEqual(["chartroom.config.ts"]);
  });

  it("reports a 404 for a repository path that does not exist", async () => {
    const { server, platform } = await setup(4);
    await writeConfig(platform, { url: `${server.url}/nope`, auth: AUTH }, { webapp: { repository: "remote", version: "^1.0.0", namespace: "web" } });
    const result = await cli(platform, ["lock"], ENV);
    expect(result.errors).toContain("HTTP_NOT_FOUND");
    expect(result.errors).toContain("/nope/index.yaml");
  });

  it("retries a 500 and succeeds", async () => {
    const { server, platform } = await setup(4);
    await writeConfig(platform, { url: server.url, auth: AUTH }, { webapp: { repository: "remote", version: "^1.0.0", namespace: "web" } });
    server.faults.failures = 1;
    const result = await cli(platform, ["lock"], ENV);
    expect(result.errors).toBe("");
    expect(server.statuses.slice(0, 2)).toStrictEqual([500, 200]);
  });

  it("gives up on a server that hangs, with a timeout error", async () => {
    const { server, platform } = await setup(4);
    await writeConfig(platform, { url: server.url, auth: AUTH, timeoutMs: 200 }, { webapp: { repository: "remote", version: "^1.0.0", namespace: "web" } });
    server.faults.hang = true;
    const started = Date.now();
    const result = await cli(platform, ["lock"], ENV);
    expect(result.errors).toContain("HTTP_TIMEOUT");
    expect(result.errors).toContain("after 3 attempts");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("refuses an archive whose digest differs from the index and leaves the lock as it was", async () => {
    const { server, platform, repo } = await setup(4);
    await writeConfig(platform, { url: server.url, auth: AUTH }, { webapp: { repository: "remote", version: "~1.0.0", namespace: "web" } });
    expect((await cli(platform, ["lock"], ENV)).exitCode).toBe(0);
    const before = await readFile(join(platform, "charts.lock.json"), "utf8");
    await writeConfig(platform, { url: server.url, auth: AUTH }, { webapp: { repository: "remote", version: "~1.1.0", namespace: "web" } });
    server.faults.override.set("webapp-1.1.0.tgz", await readFile(join(repo, "webapp-1.0.0.tgz")));
    const result = await cli(platform, ["lock"], ENV);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain("DIGEST_MISMATCH");
    expect(await readFile(join(platform, "charts.lock.json"), "utf8")).toBe(before);
  });

  it("calls a truncated archive invalid even when the index agrees with it", async () => {
    const { server, platform, repo } = await setup(4);
    const whole = await readFile(join(repo, "webapp-1.0.0.tgz"));
    const truncated = whole.subarray(0, whole.length - 200);
    const index = (await readFile(join(repo, "index.yaml"), "utf8")).replace(
      (await import("node:crypto")).createHash("sha256").update(whole).digest("hex"),
      (await import("node:crypto")).createHash("sha256").update(truncated).digest("hex"),
    );
    server.faults.override.set("index.yaml", Buffer.from(index));
    server.faults.override.set("webapp-1.0.0.tgz", truncated);
    await writeConfig(platform, { url: server.url, auth: AUTH }, { webapp: { repository: "remote", version: "1.0.0", namespace: "web" } });
    const result = await cli(platform, ["lock"], ENV);
    expect(result.errors).toContain("ARCHIVE_INVALID");
  });

  it("names the line of a malformed index.yaml", async () => {
    const { server, platform } = await setup(4);
    server.faults.override.set("index.yaml", Buffer.from('apiVersion: v1\nentries:\n  webapp:\n    - version: "1.0.0\n'));
    await writeConfig(platform, { url: server.url, auth: AUTH }, { webapp: { repository: "remote", version: "^1.0.0", namespace: "web" } });
    const result = await cli(platform, ["lock"], ENV);
    expect(result.errors).toContain("INDEX_INVALID");
    expect(result.errors).toMatch(/index\.yaml:\d+:\d+/);
  });

  it("lists what exists when no version satisfies the range", async () => {
    const { server, platform } = await setup(4);
    await writeConfig(platform, { url: server.url, auth: AUTH }, { webapp: { repository: "remote", version: "^5.0.0", namespace: "web" } });
    const result = await cli(platform, ["lock"], ENV);
    expect(result.errors).toContain("VERSION_NOT_FOUND");
    expect(result.errors).toContain("available: 1.1.0, 1.0.1, 1.0.0");
  });

  it("suggests the nearest chart when the name is unknown", async () => {
    const { server, platform } = await setup(4);
    await writeConfig(platform, { url: server.url, auth: AUTH }, { web: { repository: "remote", chart: "webap", version: "^1", namespace: "web" } });
    const result = await cli(platform, ["lock"], ENV);
    expect(result.errors).toContain('UNKNOWN_CHART: chart "webap" is not in');
    expect(result.errors).toContain('did you mean "webapp"');
  });

  it("follows absolute archive URLs to another origin without sending credentials there", async () => {
    const dir = await tempDir();
    const cdnRoot = await helmRepository(4, dir, [["webapp", "1.0.0"]]);
    const cdn = await serveRepository(cdnRoot, {});
    const indexDir = join(dir, "index-only");
    await import("node:fs/promises").then((fs) => fs.mkdir(indexDir));
    const index = (await readFile(join(cdnRoot, "index.yaml"), "utf8")).replace("- webapp-1.0.0.tgz", `- ${cdn.url}/webapp-1.0.0.tgz`);
    await writeFile(join(indexDir, "index.yaml"), index);
    const origin = await serveRepository(indexDir, { basic: { username: "platform", password: PASSWORD } });
    await writeConfig(dir, { url: origin.url, auth: AUTH }, { webapp: { repository: "remote", version: "1.0.0", namespace: "web" } });
    const result = await cli(dir, ["lock"], ENV);
    expect(result.errors).toBe("");
    const lock = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8"));
    expect(lock.charts.webapp.url).toBe(`${cdn.url}/webapp-1.0.0.tgz`);
    expect(cdn.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });
});

describe("Retry-After", () => {
  it("waits as long as the server asks (within the bound), then succeeds", async () => {
    let calls = 0;
    const server = await startServer((_, res) => {
      calls++;
      if (calls === 1) res.writeHead(503, { "retry-after": "1" }).end("busy");
      else res.writeHead(200).end("ok");
    });
    const started = Date.now();
    const response = await getWithRetry({ url: `${server.url}/index.yaml`, headers: {}, timeoutMs: 2000 }, { attempts: 3, backoffMs: 10 });
    expect([response.status, calls]).toStrictEqual([200, 2]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("reads seconds and HTTP dates", () => {
    expect(retryAfterMs("120")).toBe(120_000);
    expect(retryAfterMs("Wed, 21 Oct 2026 07:28:00 GMT", Date.parse("Wed, 21 Oct 2026 07:27:00 GMT"))).toBe(60_000);
    expect(retryAfterMs("soon")).toBeUndefined();
  });
});
