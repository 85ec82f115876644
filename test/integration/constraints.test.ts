// Version constraints as Helm reads them: a table of constraints, each
// resolved by chartroom and by `helm show chart --version` (Helm 3 and 4)
// against the same repository on loopback.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packChart } from "../helpers/pack.js";
import { resolveVersion } from "../../src/versions/resolve.js";
import { serveRepository } from "../helpers/chart-repo.js";
import { helm, runHelm } from "../helpers/helm.js";
import type { TestServer } from "../helpers/http-server.js";

const run = promisify(execFile);
const VERSIONS = ["0.1.0", "0.2.0", "0.2.3", "1.0.0", "1.0.1", "1.1.0", "1.2.0-rc.1", "1.2.0", "1.10.0", "2.0.0"];
const CONSTRAINTS = [
  ">=1.0.0, <2.0.0",
  ">= 1.0.0, < 1.1.0",
  ">=1.0.0 <1.1.0",
  "^1.0.0",
  "^0.2",
  "~1.0",
  "~> 1.0",
  "~1",
  "1.x",
  "1.0.x",
  "*",
  ">1.1",
  "<=1.1",
  "<1",
  "1.0.0 - 1.1.0",
  "^0.1.0 || ^2.0.0",
  "=1.0.1",
  "v1.0.1",
  "1.0.1",
  ">2.0.0",
  ">=1.2.0-0",
  "1.2.0-rc.1",
];

describe("version constraints, against Helm's own choice", () => {
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "chartroom-constraints-"));
    const repo = join(dir, "repo");
    await mkdir(repo);
    for (const version of VERSIONS) {
      const files = new Map([["Chart.yaml", Buffer.from(`apiVersion: v2\nname: pick\nversion: ${version}\n`)]]);
      await writeFile(join(repo, `pick-${version}.tgz`), await packChart("pick", files, new Date(0)));
    }
    await runHelm(4, ["repo", "index", repo], dir);
    server = await serveRepository(repo);
  });

  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const helmChoice = async (major: 3 | 4, constraint: string): Promise<string> => {
    try {
      const { stdout } = await run(await helm(major), ["show", "chart", "pick", "--repo", server.url, "--version", constraint], {
        env: { ...process.env, HELM_CACHE_HOME: join(dir, `.h${major}`), HELM_CONFIG_HOME: join(dir, `.h${major}`) },
      });
      return /^version: (.*)$/m.exec(stdout)?.[1] ?? "?";
    } catch {
      return "none";
    }
  };

  it.each(CONSTRAINTS)("%s", async (constraint) => {
    const listed = VERSIONS.map((version) => ({ name: "pick", version, urls: [`pick-${version}.tgz`] }));
    let ours: string;
    try {
      ours = resolveVersion({ key: "pick", chart: "pick", range: constraint, prerelease: false, repository: server.url }, listed).version;
    } catch {
      ours = "none";
    }
    const [three, four] = await Promise.all([helmChoice(3, constraint), helmChoice(4, constraint)]);
    expect({ ours, helm3: three, helm4: four }).toStrictEqual({ ours: four, helm3: four, helm4: four });
  });
});
