import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, loadChartFiles } from "../../scripts/fixtures.js";
import { packChart } from "../helpers/pack.js";
import { HELM_CHART_MEDIA_TYPE } from "../../src/sources/oci/reference.js";
import { writeConfig } from "../helpers/chart-repo.js";
import { cli, ROOT, snapshot } from "../helpers/platform.js";
import { helmPush, pushArtifact, startRegistry, startTokenProxy, type Registry } from "../helpers/registry.js";
import { tempDir } from "../helpers/tmp.js";

const archive = (name: string) => join(ROOT, "charts", name);

/** A fixture chart packed with a different description: same version, other bytes. */
async function repackaged(dir: string, name: string, version: string, note: string): Promise<string> {
  const files = await loadChartFiles(join(FIXTURES, name, version));
  const chartYaml = (files.get("Chart.yaml") ?? Buffer.alloc(0)).toString().replace(/^description: .*$/m, `description: ${note}`);
  files.set("Chart.yaml", Buffer.from(chartYaml));
  const path = join(dir, `${name}-${version}-${note.replace(/\W/g, "")}.tgz`);
  await writeFile(path, await packChart(name, files, new Date(0)));
  return path;
}

async function withBuildMetadata(dir: string): Promise<string> {
  const files = new Map([["Chart.yaml", Buffer.from("apiVersion: v2\nname: builds\nversion: 1.2.0+build.7\n")]]);
  const path = join(dir, "builds-1.2.0+build.7.tgz");
  await writeFile(path, await packChart("builds", files, new Date(0)));
  return path;
}

let registry: Registry;
let home: string;
const pushed: Record<string, string> = {};

beforeAll(async () => {
  const { mkdtemp } = await import("node:fs/promises");
  home = await mkdtemp(join((await import("node:os")).tmpdir(), "chartroom-oci-"));
  registry = await startRegistry(home);
  const target = `oci://${registry.host}/charts`;
  // Both Helm majors push, as users of either would.
  const pushes: [3 | 4, string][] = [
    [4, archive("webapp-1.0.0.tgz")],
    [3, archive("webapp-1.0.1.tgz")],
    [4, archive("webapp-1.1.0.tgz")],
    [3, archive("webapp-2.0.0.tgz")],
    [4, archive("ledger-0.1.0.tgz")],
    [3, await withBuildMetadata(home)],
  ];
  for (const [major, file] of pushes) {
    const out = await helmPush(major, file, target, { dir: home, plainHttp: true });
    pushed[file.split("/").pop() ?? ""] = /Digest: (sha256:[0-9a-f]{64})/.exec(out)?.[1] ?? "";
  }
});

afterAll(async () => {
  await registry?.stop();
  await (await import("node:fs/promises")).rm(home, { recursive: true, force: true });
});

const charts = (version = "~1.0.0") => ({ webapp: { repository: "remote", version, namespace: "web" } });

describe("an OCI registry (distribution 2.8 on loopback, charts pushed by Helm 3 and 4)", () => {
  it("locks a chart with the manifest digest and the archive digest in separate fields", async () => {
    const dir = await tempDir();
    await writeConfig(
      dir,
      { url: `oci://${registry.host}/charts`, plainHttp: true },
      { ...charts(), ledger: { repository: "remote", version: "^0.1.0", namespace: "ledger" } },
    );
    const result = await cli(dir, ["lock"]);
    expect(result.errors).toBe("");
    const lock = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8"));
    const committed = JSON.parse(await readFile(join(ROOT, "charts.lock.json"), "utf8"));
    expect(lock.charts.webapp).toMatchObject({
      version: "1.0.1",
      manifestDigest: pushed["webapp-1.0.1.tgz"],
      digest: committed.charts.webapp.digest,
      url: "webapp:1.0.1",
      repository: `oci://${registry.host}/charts`,
    });
    expect(lock.charts.webapp.manifestDigest).not.toBe(lock.charts.webapp.digest);
    expect(lock.charts.ledger.engine.name).toBe("release");
  });

  it("reads tags as versions, mapping Helm's _ back to +", async () => {
    const dir = await tempDir();
    await writeConfig(dir, { url: `oci://${registry.host}/charts`, plainHttp: true }, { builds: { repository: "remote", version: "^1.0.0", namespace: "b" } });
    expect((await cli(dir, ["lock"])).errors).toBe("");
    const lock = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8"));
    expect(lock.charts.builds).toMatchObject({ version: "1.2.0+build.7", url: "builds:1.2.0_build.7", manifestDigest: pushed["builds-1.2.0+build.7.tgz"] });
  });

  it("shows outdated and plan for OCI charts as for HTTP ones", async () => {
    const dir = await tempDir();
    await writeConfig(dir, { url: `oci://${registry.host}/charts`, plainHttp: true }, charts());
    await cli(dir, ["lock"]);
    const outdated = await cli(dir, ["outdated", "--detailed-exitcode"]);
    expect(outdated.exitCode).toBe(2);
    expect(outdated.output).toMatch(/webapp\s+1\.0\.1\s+1\.0\.1\s+2\.0\.0\s+major/);
    const plan = await cli(dir, ["plan"]);
    expect(plan.exitCode).toBe(0);
    expect(plan.output).toMatch(/webapp\s+web\s+~1\.0\.0\s+1\.0\.1\s+[0-9a-f]{12}\s+yes/);
  });

  it("pins by manifest digest and refuses a digest the registry does not have", async () => {
    const dir = await tempDir();
    const digest = pushed["webapp-1.0.0.tgz"] ?? "";
    await writeConfig(dir, { url: `oci://${registry.host}/charts`, plainHttp: true }, charts(`1.0.0@${digest}`));
    expect((await cli(dir, ["lock"])).errors).toBe("");
    const lock = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8"));
    expect(lock.charts.webapp).toMatchObject({ version: "1.0.0", manifestDigest: digest, pinnedDigest: digest });
    await writeConfig(dir, { url: `oci://${registry.host}/charts`, plainHttp: true }, charts(`1.0.0@sha256:${"0".repeat(64)}`));
    const stale = await cli(dir, ["lock", "--frozen"]);
    expect(stale.errors).toContain("digest pin changed");
    const result = await cli(dir, ["lock"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain("VERSION_NOT_FOUND");
  });

  it("refuses a tag re-pushed with other content, in lock --frozen and in plan, naming both digests", async () => {
    const dir = await tempDir();
    const target = `oci://${registry.host}/moving`;
    const first = /Digest: (sha256:\S+)/.exec(await helmPush(4, archive("webapp-1.0.1.tgz"), target, { dir: home, plainHttp: true }))?.[1];
    await writeConfig(dir, { url: target, plainHttp: true }, charts());
    expect((await cli(dir, ["lock"])).errors).toBe("");
    const second = /Digest: (sha256:\S+)/.exec(
      await helmPush(3, await repackaged(dir, "webapp", "1.0.1", "republished"), target, { dir: home, plainHttp: true }),
    )?.[1];
    expect(second).not.toBe(first);
    const before = await snapshot(dir, ["charts.lock.json"]);
    const frozen = await cli(dir, ["lock", "--frozen"]);
    expect(frozen.exitCode).toBe(1);
    expect(frozen.errors).toContain("DIGEST_MISMATCH: tag 1.0.1 of webapp moved");
    expect(frozen.errors).toContain(first);
    expect(frozen.errors).toContain(second);
    const plan = await cli(dir, ["plan"]);
    expect(plan.exitCode).toBe(1);
    expect(plan.output).toContain("moved");
    expect(await snapshot(dir, ["charts.lock.json"])).toStrictEqual(before);
  });

  it("reports a repository path the registry does not know (404 on tags)", async () => {
    const dir = await tempDir();
    await writeConfig(dir, { url: `oci://${registry.host}/nowhere`, plainHttp: true }, charts());
    const result = await cli(dir, ["lock"]);
    expect(result.errors).toContain('UNKNOWN_CHART: chart "webapp" is not in');
  });

  it("refuses an artifact that is not a Helm chart", async () => {
    const dir = await tempDir();
    await pushArtifact(registry.base, "charts/notachart", "1.0.0", "application/vnd.oci.image.config.v1+json", {
      mediaType: HELM_CHART_MEDIA_TYPE,
      data: await readFile(archive("webapp-1.0.0.tgz")),
    });
    await writeConfig(
      dir,
      { url: `oci://${registry.host}/charts`, plainHttp: true },
      { notachart: { repository: "remote", version: "1.0.0", namespace: "x" } },
    );
    const result = await cli(dir, ["lock"]);
    expect(result.errors).toContain("is not a Helm chart: its config media type is application/vnd.oci.image.config.v1+json");
  });
});

describe("an OCI registry behind the token flow", () => {
  it("gets an anonymous token from the realm the 401 names, then retries", async () => {
    const proxy = await startTokenProxy(registry.base);
    try {
      const dir = await tempDir();
      await writeConfig(dir, { url: `oci://${proxy.host}/charts`, plainHttp: true }, charts());
      expect((await cli(dir, ["lock"])).errors).toBe("");
      expect(proxy.seen.some((r) => r.url.startsWith("/token?") && r.url.includes("scope=repository%3Acharts%2Fwebapp%3Apull"))).toBe(true);
      expect(proxy.seen.filter((r) => r.authorization?.startsWith("Bearer ")).length).toBeGreaterThan(1);
    } finally {
      await proxy.stop();
    }
  });

  it("sends Basic credentials to the token endpoint, and says so without the password when they are wrong", async () => {
    const proxy = await startTokenProxy(registry.base, { basic: { username: "ci", password: "s3cret-registry-pass" } });
    try {
      const dir = await tempDir();
      await writeConfig(dir, { url: `oci://${proxy.host}/charts`, plainHttp: true, auth: { usernameEnv: "REG_USER", passwordEnv: "REG_PASS" } }, charts());
      expect((await cli(dir, ["lock"], { REG_USER: "ci", REG_PASS: "s3cret-registry-pass" })).errors).toBe("");
      const lock = await readFile(join(dir, "charts.lock.json"), "utf8");
      expect(lock).not.toContain("s3cret");
      const wrong = await cli(dir, ["lock", "--frozen"], { REG_USER: "ci", REG_PASS: "not-the-password", CHARTROOM_CACHE: await tempDir() });
      expect(wrong.errors).toContain("HTTP_AUTH");
      expect(wrong.errors).toContain("REG_USER, REG_PASS");
      expect(wrong.errors).not.toContain("not-the-password");
    } finally {
      await proxy.stop();
    }
  });

  it("follows Link pagination of the tag list", async () => {
    const proxy = await startTokenProxy(registry.base);
    proxy.faults.tagPageSize = 1;
    try {
      const dir = await tempDir();
      await writeConfig(dir, { url: `oci://${proxy.host}/charts`, plainHttp: true }, charts("^1.0.0"));
      expect((await cli(dir, ["lock"])).errors).toBe("");
      expect(JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")).charts.webapp.version).toBe("1.1.0");
      expect(proxy.seen.filter((r) => r.url.includes("/tags/list")).length).toBeGreaterThanOrEqual(4);
    } finally {
      await proxy.stop();
    }
  });

  it("fetches each archive once per run: plan verifies the pin and renders the next version without asking twice", async () => {
    const proxy = await startTokenProxy(registry.base);
    try {
      const dir = await tempDir();
      await writeConfig(dir, { url: `oci://${proxy.host}/charts`, plainHttp: true }, charts());
      expect((await cli(dir, ["lock"])).errors).toBe("");
      proxy.seen.length = 0;
      const plan = await cli(dir, ["plan"]);
      expect(plan.exitCode).toBe(0);
      expect(plan.output).toContain("webapp 1.0.1 → 2.0.0");
      const authorised = proxy.seen.filter((r) => r.authorization !== undefined);
      // The pin: one manifest request, however many steps (verify, render, values contract) need it.
      expect(authorised.filter((r) => r.url.endsWith("/manifests/1.0.1"))).toHaveLength(1);
      // The next version: one manifest and one chart download, shared by rendering and the contract.
      expect(authorised.filter((r) => r.url.endsWith("/manifests/2.0.0"))).toHaveLength(1);
      expect(authorised.filter((r) => r.url.includes("/blobs/"))).toHaveLength(1);
    } finally {
      await proxy.stop();
    }
  });

  it("retries a 500 and then succeeds", async () => {
    const proxy = await startTokenProxy(registry.base);
    proxy.faults.failures = 1;
    try {
      const dir = await tempDir();
      await writeConfig(dir, { url: `oci://${proxy.host}/charts`, plainHttp: true }, charts());
      expect((await cli(dir, ["lock"])).errors).toBe("");
    } finally {
      await proxy.stop();
    }
  });

  it("times out on a registry that hangs", async () => {
    const proxy = await startTokenProxy(registry.base);
    proxy.faults.hang = true;
    try {
      const dir = await tempDir();
      await writeConfig(dir, { url: `oci://${proxy.host}/charts`, plainHttp: true, timeoutMs: 200 }, charts());
      const result = await cli(dir, ["lock"]);
      expect(result.errors).toContain("HTTP_TIMEOUT");
    } finally {
      await proxy.stop();
    }
  });

  it("refuses a layer whose bytes do not match the manifest, writing nothing", async () => {
    const proxy = await startTokenProxy(registry.base);
    proxy.faults.corruptBlobs = true;
    try {
      const dir = await tempDir();
      await writeConfig(dir, { url: `oci://${proxy.host}/charts`, plainHttp: true }, charts());
      const result = await cli(dir, ["lock"]);
      expect(result.errors).toContain("DIGEST_MISMATCH: the chart layer of");
      await expect(readFile(join(dir, "charts.lock.json"))).rejects.toThrow();
    } finally {
      await proxy.stop();
    }
  });
});
