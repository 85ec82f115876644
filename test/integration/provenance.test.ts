// Provenance as Helm signs it (`helm package --sign`, keys made by Debian's
// gnupg) checked before a chart is pinned: from a file repository, over HTTP
// and from an OCI registry; a tampered .prov, a .prov for other bytes, an
// unsigned version, a key the keyring lacks, and another signer later are
// each refused with PROVENANCE_INVALID, changing nothing.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { materialise, serveRepository } from "../helpers/chart-repo.js";
import { helm } from "../helpers/helm.js";
import { cli, copyPlatformTo, editFile, snapshot } from "../helpers/platform.js";
import { helmPush, startRegistry, type Registry } from "../helpers/registry.js";
import { tempDir } from "../helpers/tmp.js";

const run = promisify(execFile);

let work: string;
let gnupg: string;
const fingerprints: Record<"alice" | "bob", string> = { alice: "", bob: "" };

async function gpg(...args: string[]): Promise<string> {
  const { stdout } = await run("gpg", ["--batch", "--pinentry-mode", "loopback", "--passphrase", "", ...args], { env: { ...process.env, GNUPGHOME: gnupg } });
  return stdout;
}

/** webapp 1.0.1 signed by Alice, 1.1.0 by Bob, 1.0.0 unsigned, as `helm package --sign` leaves them. */
async function signedRepository(dir: string): Promise<void> {
  const helm4 = await helm(4);
  for (const [version, signer] of [
    ["1.0.0", undefined],
    ["1.0.1", "alice"],
    ["1.1.0", "bob"],
  ] as const) {
    const chart = await materialise("webapp", version, join(work, "src", version));
    const sign =
      signer === undefined ? [] : ["--sign", "--key", signer === "alice" ? "Alice Publisher" : "Bob Publisher", "--keyring", join(work, "secring.gpg")];
    await run(helm4, ["package", chart, "--destination", dir, ...sign]);
  }
  await run(helm4, ["repo", "index", dir]);
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "chartroom-provenance-"));
  gnupg = join(work, "gnupg");
  await mkdir(gnupg, { mode: 0o700 });
  // RSA: the signing code of Helm 3 reads no other kind.
  for (const [name, who] of [
    ["alice", "Alice Publisher <alice@example.test>"],
    ["bob", "Bob Publisher <bob@example.test>"],
  ] as const) {
    await gpg("--quick-gen-key", who, "rsa2048", "sign", "never");
    await writeFile(
      join(work, `${name}.gpg`),
      Buffer.from(await run("gpg", ["--export", who], { env: { ...process.env, GNUPGHOME: gnupg }, encoding: "buffer" }).then((out) => out.stdout)),
    );
    fingerprints[name] = /^fpr:+([0-9A-F]{40}):/m.exec(await gpg("--with-colons", "--fingerprint", who))?.[1] ?? "";
  }
  await writeFile(join(work, "both.gpg"), Buffer.concat([await readFile(join(work, "alice.gpg")), await readFile(join(work, "bob.gpg"))]));
  await writeFile(
    join(work, "secring.gpg"),
    Buffer.from((await run("gpg", ["--export-secret-keys"], { env: { ...process.env, GNUPGHOME: gnupg }, encoding: "buffer" })).stdout),
  );
  await signedRepository(join(work, "signed"));
});

afterAll(() => rm(work, { recursive: true, force: true }));

/** The example platform with webapp from the signed repository, verified against `keyring`. */
async function platform(options: { keyring?: string; version?: string; url?: string; chartVerify?: string } = {}): Promise<string> {
  const dir = await tempDir("chartroom-provenance-platform-");
  await copyPlatformTo(dir);
  await cp(join(work, "signed"), join(dir, "signed"), { recursive: true });
  await cp(join(work, options.keyring ?? "alice.gpg"), join(dir, "keyring.gpg"));
  const url = options.url ?? "file://./signed";
  await editFile(join(dir, "chartroom.config.ts"), (text) =>
    text
      .replace('local: "file://./charts",', `local: "file://./charts",\n    signed: { url: "${url}", verify: { keyring: "keyring.gpg" } },`)
      .replace(
        'webapp: { repository: "local", version: "~1.0.0"',
        `webapp: { repository: "signed", version: "${options.version ?? "1.0.1"}"${options.chartVerify ?? ""}`,
      ),
  );
  return dir;
}

const FILES = ["charts.lock.json", "chartroom.config.ts"];

async function refused(dir: string, argv: string[], says: string): Promise<void> {
  const before = await snapshot(dir, FILES);
  const result = await cli(dir, argv);
  expect(result.exitCode, result.output).toBe(1);
  expect(result.errors).toContain("error PROVENANCE_INVALID:");
  expect(result.errors).toContain(says);
  expect(result.errors, "no stack trace").not.toMatch(/^\s+at .+[:(]\d+/m);
  expect(await snapshot(dir, FILES)).toStrictEqual(before);
}

describe("provenance checked before a chart is pinned", () => {
  it("pins a version signed by a key of the keyring, recording the signer", async () => {
    const dir = await platform();
    const result = await cli(dir, ["lock"]);
    expect(result.errors).toBe("");
    const pin = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")).charts.webapp;
    expect(pin.version).toBe("1.0.1");
    expect(pin.signer).toStrictEqual({ fingerprint: fingerprints.alice, user: "Alice Publisher <alice@example.test>" });
  });

  it("refuses a tampered provenance file", async () => {
    const dir = await platform();
    await editFile(join(dir, "signed", "webapp-1.0.1.tgz.prov"), (text) => text.replace("A small web application", "A small web applicatiom"));
    await refused(dir, ["lock"], "does not verify");
  });

  it("refuses a provenance file that vouches for other bytes", async () => {
    const dir = await platform();
    // The 1.0.1 signature beside an archive with other content (same name and version).
    const other = await materialise("webapp", "1.0.1", join(await tempDir(), "other"));
    await editFile(join(other, "values.yaml"), (text) => `${text}\n# changed after signing\n`);
    await run(await helm(4), ["package", other, "--destination", join(dir, "repackaged")]);
    await cp(join(dir, "repackaged", "webapp-1.0.1.tgz"), join(dir, "signed", "webapp-1.0.1.tgz"));
    await run(await helm(4), ["repo", "index", join(dir, "signed")]);
    await refused(dir, ["lock"], "vouches for archive sha256:");
  });

  it("refuses a version without a provenance file", async () => {
    await refused(await platform({ version: "1.0.0" }), ["lock"], "has no provenance file");
  });

  it("refuses a signature by a key the keyring does not hold", async () => {
    await refused(await platform({ version: "1.1.0" }), ["lock"], "which the keyring");
  });

  it("refuses another signer than the lock records, unless told to accept it", async () => {
    const dir = await platform({ keyring: "both.gpg" });
    expect((await cli(dir, ["lock"])).errors).toBe("");
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('version: "1.0.1"', 'version: "1.1.0"'));
    await refused(dir, ["lock"], `but charts.lock.json records Alice Publisher <alice@example.test> (${fingerprints.alice})`);
    expect((await cli(dir, ["lock", "webapp", "--accept-new-signer"])).errors).toBe("");
    expect(JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")).charts.webapp.signer.fingerprint).toBe(fingerprints.bob);
  });

  it("takes a chart unchecked when its declaration says verify: false", async () => {
    const dir = await platform({ version: "1.0.0", chartVerify: ", verify: false" });
    expect((await cli(dir, ["lock"])).errors).toBe("");
  });

  it("counts a lock made before verify was declared as stale in lock --frozen", async () => {
    const dir = await platform();
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace(', verify: { keyring: "keyring.gpg" }', ""));
    expect((await cli(dir, ["lock"])).errors).toBe("");
    await editFile(join(dir, "chartroom.config.ts"), (text) =>
      text.replace('signed: { url: "file://./signed"', 'signed: { url: "file://./signed", verify: { keyring: "keyring.gpg" }'),
    );
    const frozen = await cli(dir, ["lock", "--frozen"]);
    expect(frozen.errors).toContain("error LOCK_STALE:");
    expect(frozen.errors).toContain("webapp: provenance to be verified");
  });

  it("reads the provenance beside the archive over HTTP", async () => {
    const server = await serveRepository(join(work, "signed"));
    const dir = await platform({ url: `${server.url}/` });
    expect((await cli(dir, ["lock"])).errors).toBe("");
    expect(server.requests.some((request) => request.url.endsWith("webapp-1.0.1.tgz.prov"))).toBe(true);
    server.faults.override.set(
      "webapp-1.0.1.tgz.prov",
      Buffer.from((await readFile(join(work, "signed", "webapp-1.0.1.tgz.prov"), "utf8")).replace("A small web application", "A small web applicatiom")),
    );
    await refused(dir, ["lock", "webapp", "--accept-republished"], "does not verify");
  });

  describe("from an OCI registry", () => {
    let registry: Registry;
    let home: string;

    beforeAll(async () => {
      home = await mkdtemp(join(tmpdir(), "chartroom-provenance-oci-"));
      registry = await startRegistry(home);
      // helm push sends the .prov beside the archive as a layer of its own.
      for (const version of ["1.0.1", "1.0.0"])
        await helmPush(4, join(work, "signed", `webapp-${version}.tgz`), `oci://${registry.host}/charts`, { dir: home, plainHttp: true });
    });

    afterAll(async () => {
      await registry?.stop();
      await rm(home, { recursive: true, force: true });
    });

    it("verifies the provenance layer, and refuses a version pushed without one", async () => {
      const dir = await platform();
      await editFile(join(dir, "chartroom.config.ts"), (text) =>
        text.replace('signed: { url: "file://./signed"', `signed: { url: "oci://${registry.host}/charts", plainHttp: true`),
      );
      const result = await cli(dir, ["lock"]);
      expect(result.errors).toBe("");
      expect(JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")).charts.webapp.signer.fingerprint).toBe(fingerprints.alice);
      await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('version: "1.0.1"', 'version: "1.0.0"'));
      await refused(dir, ["lock"], "has no provenance file");
    });
  });
});
