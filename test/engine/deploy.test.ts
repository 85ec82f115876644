// What the engine deploys is what was reviewed: the verified archive from the
// project, without the network; an apiVersion move as an update; secrets
// given in code kept out of the state wherever the chart puts them.
import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DiffReport } from "../../src/diff/model.js";
import { helmRepository, serveRepository } from "../helpers/chart-repo.js";
import { engineBin, ExampleProject, previewSteps, type Outcome, ENGINE_TEST_MS } from "../helpers/engine.js";

const run = promisify(execFile);

async function edit(path: string, change: (text: string) => string): Promise<void> {
  const before = await readFile(path, "utf8");
  const after = change(before);
  if (after === before) throw new Error(`the edit of ${path} changed nothing`);
  await writeFile(path, after);
}

function ok(outcome: Outcome, what: string): Outcome {
  if (outcome.code !== 0) throw new Error(`${what} failed (${outcome.code}):\n${outcome.stdout}${outcome.stderr}`);
  return outcome;
}

describe("a chart from an HTTP repository with credentials, deployed after the repository is gone", () => {
  const PASSWORD = "repo-password-planted-6610";
  let project: ExampleProject;
  let state: string;
  let planned: { urn: string; newState?: { inputs?: Record<string, unknown> } }[];
  let archive: string;

  beforeAll(async () => {
    project = await ExampleProject.create("chartroom-http-deploy-");
    const repo = await helmRepository(4, project.dir, [
      ["webapp", "1.0.1"],
      ["webapp", "1.1.0"],
    ]);
    const server = await serveRepository(repo, { basic: { username: "deployer", password: PASSWORD } });
    await writeFile(
      join(project.dir, "chartroom.config.ts"),
      `import { defineConfig } from "chartroom";\nexport default defineConfig({\n  repositories: { remote: { url: "${server.url}", auth: { usernameEnv: "REPO_USER", passwordEnv: "REPO_PASS" } } },\n  charts: { webapp: { repository: "remote", version: "~1.1.0", namespace: "web" } },\n  stacks: { dev: { kubeVersion: "1.31.0" } },\n});\n`,
    );
    ok(await project.chartroom(["lock"], { REPO_USER: "deployer", REPO_PASS: PASSWORD }), "chartroom lock");
    await server.close();
    archive = (await readdir(join(project.dir, ".chartroom", "charts")))[0] ?? "";
    await project.initStack("dev", "planted-http-secret-2207");
    planned = (JSON.parse(ok(await project.pulumi(["preview", "--json"]), "pulumi preview").stdout) as { steps: typeof planned }).steps;
    ok(await project.pulumi(["up", "--yes"]), "pulumi up");
    state = ok(await project.pulumi(["stack", "export"]), "pulumi stack export").stdout;
  }, ENGINE_TEST_MS);

  afterAll(() => project?.remove());

  it("finds the verified archive in the project, named by chart, version and digest", () => {
    expect(archive).toMatch(/^webapp-1\.1\.0-[0-9a-f]{12}\.tgz$/);
  });

  it("deploys it with the repository gone: no repository, version or credential reaches the engine or its state", () => {
    // pulumi up succeeded after the server closed: the provider rendered the project's archive.
    expect(planned.some((step) => step.urn.endsWith("kubernetes:helm.sh/v4:Chart::webapp"))).toBe(true);
    for (const text of [JSON.stringify(planned), state]) {
      expect(text).not.toContain("repositoryOpts");
      expect(text).not.toContain("127.0.0.1");
      expect(text).not.toContain(PASSWORD);
    }
  });

  it("checks the archive's digest again when the program starts, and stops on other bytes", async () => {
    const path = join(project.dir, ".chartroom", "charts", archive);
    await writeFile(path, Buffer.concat([await readFile(path), Buffer.from("tampered")]));
    // An empty cache: nothing can stand in for the project's copy.
    const preview = await project.pulumi(["preview"], { CHARTROOM_CACHE: join(project.dir, "empty-cache") });
    expect(preview.code).not.toBe(0);
    expect(preview.stdout + preview.stderr).toContain("LOCK_MISSING");
    expect(preview.stdout + preview.stderr).toContain("run `chartroom lock --frozen`");
  });
});

/** A chart whose HorizontalPodAutoscaler moves from autoscaling/v2beta2 (1.0.0) to autoscaling/v2 (1.1.0). */
async function scalerRepository(dir: string, helm: string): Promise<void> {
  for (const [version, api] of [
    ["1.0.0", "autoscaling/v2beta2"],
    ["1.1.0", "autoscaling/v2"],
  ] as const) {
    const source = join(dir, "scaler-src", version, "scaler");
    await mkdir(join(source, "templates"), { recursive: true });
    await writeFile(join(source, "Chart.yaml"), `apiVersion: v2\nname: scaler\nversion: ${version}\n`);
    await writeFile(
      join(source, "templates", "hpa.yaml"),
      `apiVersion: ${api}\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: scaler\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  minReplicas: 2\n  maxReplicas: 5\n`,
    );
    await run(helm, ["package", source, "--destination", join(dir, "scalers")]);
  }
  await run(helm, ["repo", "index", join(dir, "scalers")]);
}

const ALIAS_PROGRAM = `import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { deployCharts } from "chartroom/pulumi";
import config from "../chartroom.config.js";

const settings = new pulumi.Config();
const provider = new k8s.Provider("cluster", { renderYamlToDirectory: settings.require("renderYamlToDirectory") });
export const charts = deployCharts(config, { provider, aliasApiVersions: settings.getBoolean("aliases") ?? true }).then((d) => Object.keys(d));
`;

describe("an apiVersion move under helm.v4.Chart", () => {
  let project: ExampleProject;
  const planned: Record<string, { op: string; type: string }[]> = {};
  let predicted: string | undefined;

  beforeAll(async () => {
    project = await ExampleProject.create("chartroom-aliases-");
    const helm = join(await engineBin(), "helm");
    await scalerRepository(project.dir, helm);
    const config = (version: string) =>
      `import { defineConfig } from "chartroom";\nexport default defineConfig({\n  repositories: { local: "file://./scalers" },\n  charts: { scaler: { repository: "local", version: "${version}", namespace: "apps" } },\n  stacks: { dev: { kubeVersion: "1.31.0" } },\n});\n`;
    await writeFile(join(project.dir, "chartroom.config.ts"), config("1.0.0"));
    await writeFile(join(project.dir, "pulumi", "index.ts"), ALIAS_PROGRAM);
    await edit(join(project.dir, "Pulumi.yaml"), (text) => text.replace(/config:\n[\s\S]*$/, ""));
    await writeFile(join(project.dir, "chartroom.types.ts"), "export {};\n");
    // The example's policies name its charts, which this platform does not have.
    await rm(join(project.dir, "policies"), { recursive: true });
    ok(await project.chartroom(["lock"]), "chartroom lock");
    for (const args of [
      ["stack", "init", "dev"],
      ["config", "set", "renderYamlToDirectory", project.rendered],
    ])
      ok(await project.pulumi(args), `pulumi ${args.join(" ")}`);
    ok(await project.pulumi(["up", "--yes"]), "pulumi up at 1.0.0");
    const diff = await project.chartroom(["diff", "scaler", "--to", "1.1.0", "--stack", "dev", "--format", "json"]);
    predicted = (JSON.parse(diff.stdout) as DiffReport).charts[0]?.objects.find(
      (object) => object.display === "HorizontalPodAutoscaler.autoscaling apps/scaler",
    )?.step;
    await writeFile(join(project.dir, "chartroom.config.ts"), config("1.1.0"));
    ok(await project.chartroom(["lock"]), "chartroom lock at 1.1.0");
    for (const aliases of ["false", "true"]) {
      ok(await project.pulumi(["config", "set", "aliases", aliases]), "pulumi config set aliases");
      const preview = ok(await project.pulumi(["preview", "--json"]), `pulumi preview (aliases ${aliases})`);
      planned[aliases] = previewSteps(preview.stdout)
        .filter((step) => step.type.endsWith(":HorizontalPodAutoscaler"))
        .map(({ op, type }) => ({ op, type }));
    }
  }, ENGINE_TEST_MS);

  afterAll(() => project?.remove());

  it("without aliases: the engine creates the object under its new type and deletes the old", () => {
    expect(planned.false).toStrictEqual([
      { op: "create", type: "kubernetes:autoscaling/v2:HorizontalPodAutoscaler" },
      { op: "delete", type: "kubernetes:autoscaling/v2beta2:HorizontalPodAutoscaler" },
    ]);
  });

  it("with chartroom's aliases: the engine updates it, as chartroom's diff predicted", () => {
    expect(planned.true).toStrictEqual([{ op: "update", type: "kubernetes:autoscaling/v2:HorizontalPodAutoscaler" }]);
    expect(predicted).toBe("update");
  });
});

describe("a secret given in code that the chart puts outside a Secret", () => {
  const PASSWORD = "planted-annotation-secret-5120";
  let project: ExampleProject;
  let up: Outcome;

  beforeAll(async () => {
    project = await ExampleProject.create("chartroom-secret-");
    // The web app's chart copies podAnnotations onto the Deployment's pods.
    await edit(join(project.dir, "pulumi", "index.ts"), (text) =>
      text.replace(
        'podAnnotations: { "example.test/stack": stack },',
        'podAnnotations: { "example.test/stack": stack, "example.test/token": settings.requireSecret("webappPassword") },',
      ),
    );
    await project.initStack("dev", PASSWORD);
    up = await project.pulumi(["up", "--yes", "--exclude", "**kubernetes:helm.sh/v3:Release**"]);
  }, ENGINE_TEST_MS);

  afterAll(() => project?.remove());

  it("is named in a warning on the chart's component, with the field", () => {
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain("webapp:web/webapp puts a secret given in code outside a Secret (spec.template.metadata.annotations.example.test/token)");
  });

  it("never reaches the state in plain text or base64", async () => {
    const state = ok(await project.pulumi(["stack", "export"]), "pulumi stack export").stdout;
    const files = await readdir(join(project.dir, ".state"), { recursive: true, withFileTypes: true });
    const onDisk = (await Promise.all(files.filter((f) => f.isFile()).map((f) => readFile(join(f.parentPath, f.name), "utf8")))).join("\n");
    for (const text of [state, onDisk]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(Buffer.from(PASSWORD).toString("base64"));
    }
  });
});
