import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeConfig } from "../helpers/chart-repo.js";
import { cli, ROOT } from "../helpers/platform.js";
import { helmLogin, helmPush, makeCertificates, startRegistry, type Registry } from "../helpers/registry.js";
import { tempDir } from "../helpers/tmp.js";

const USER = "platform-ci";
const PASSWORD = "tls-registry-password-42";
const ENV = { REG_USER: USER, REG_PASS: PASSWORD };

let registry: Registry;
let home: string;
let certs: { ca: string; cert: string; key: string };

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "chartroom-oci-tls-"));
  certs = await makeCertificates(home);
  registry = await startRegistry(home, { tls: certs, htpasswd: { username: USER, password: PASSWORD } });
  // Helm 4 only: Helm 3.17 speaks plain HTTP to any loopback host whatever
  // --ca-file says, so it cannot push to a TLS registry on 127.0.0.1. Its
  // pushes are covered by the plain-HTTP registry tests.
  await helmLogin(4, registry.host, USER, PASSWORD, { dir: home, caFile: certs.ca });
  for (const file of ["webapp-1.0.0.tgz", "webapp-1.0.1.tgz"]) {
    await helmPush(4, join(ROOT, "charts", file), `oci://${registry.host}/private`, { dir: home, caFile: certs.ca });
  }
});

afterAll(async () => {
  await registry?.stop();
  await rm(home, { recursive: true, force: true });
});

const charts = { webapp: { repository: "remote", version: "^1.0.0", namespace: "web" } };
const auth = { usernameEnv: "REG_USER", passwordEnv: "REG_PASS" };

async function everyFile(dir: string): Promise<string> {
  let text = "";
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), "latin1");
  }
  return text;
}

describe("an OCI registry with htpasswd auth behind TLS", () => {
  it("resolves and fetches with the declared CA and Basic credentials, and stores no credential", async () => {
    const dir = await tempDir();
    await writeConfig(dir, { url: `oci://${registry.host}/private`, caFile: certs.ca, auth }, charts);
    const result = await cli(dir, ["lock"], ENV);
    expect(result.errors).toBe("");
    const lock = await readFile(join(dir, "charts.lock.json"), "utf8");
    expect(JSON.parse(lock).charts.webapp).toMatchObject({ version: "1.0.1", manifestDigest: expect.stringMatching(/^sha256:/) });
    const stored = lock + (await everyFile(join(dir, ".cache")));
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(Buffer.from(`${USER}:${PASSWORD}`).toString("base64"));
    expect((await cli(dir, ["plan"], ENV)).exitCode).toBe(0);
  });

  it("explains an untrusted certificate when no CA is declared", async () => {
    const dir = await tempDir();
    await writeConfig(dir, { url: `oci://${registry.host}/private`, auth }, charts);
    const result = await cli(dir, ["lock"], ENV);
    expect(result.errors).toContain("HTTP_TLS: the certificate of");
    expect(result.errors).not.toContain("attempts");
    expect(result.errors).toContain("set caFile on the repository");
  });

  it("refuses a wrong password with the variable names and without the password", async () => {
    const dir = await tempDir();
    await writeConfig(dir, { url: `oci://${registry.host}/private`, caFile: certs.ca, auth }, charts);
    const result = await cli(dir, ["lock"], { REG_USER: USER, REG_PASS: "wrong-password-value" });
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain("HTTP_AUTH: authentication failed (401)");
    expect(result.errors).toContain("REG_USER, REG_PASS");
    expect(result.errors).not.toContain("wrong-password-value");
    expect(result.errors).not.toContain(Buffer.from(`${USER}:wrong-password-value`).toString("base64"));
  });

  it("names an unreadable CA file", async () => {
    const dir = await tempDir();
    await writeConfig(dir, { url: `oci://${registry.host}/private`, caFile: "missing-ca.pem", auth }, charts);
    const result = await cli(dir, ["lock"], ENV);
    expect(result.errors).toContain("error FILE_UNREADABLE: the CA file of repository remote does not exist:");
    expect(result.errors).toContain("repositories.remote.caFile");
  });
});
