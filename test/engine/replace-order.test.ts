// Two things the engine does offline (renderYamlToDirectory) that chartroom
// predicts before `pulumi preview` does: the order of a helm.v4.Chart
// replacement (create the replacement, then delete the original: the delete
// removes the file just written, the provider's behaviour), and a chart whose
// kubeVersion the provider's offline Kubernetes v1.20.0 does not meet.
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packChart } from "../helpers/pack.js";
import type { DiffReport } from "../../src/diff/model.js";
import { ExampleProject, type Outcome, ENGINE_TEST_MS } from "../helpers/engine.js";
import { runHelm } from "../helpers/helm.js";

const PROGRAM = `import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { deployCharts } from "chartroom/pulumi";
import config from "../chartroom.config.js";
const settings = new pulumi.Config();
const provider = new k8s.Provider("cluster", { renderYamlToDirectory: settings.require("renderYamlToDirectory") });
export const charts = deployCharts(config, { provider }).then((d) => Object.keys(d));
`;

/** A Deployment with a fixed name whose selector (a field the provider replaces on) moves, and a ConfigMap whose data does. */
function orderChart(version: string, selector: string): Map<string, Buffer> {
  const deployment = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: fixed\nspec:\n  selector:\n    matchLabels: { app: ${selector} }\n  template:\n    metadata:\n      labels: { app: ${selector} }\n    spec:\n      containers: [{ name: web, image: registry.example.test/web:1.0.0 }]\n`;
  const configMap = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  version: "${version}"\n`;
  return new Map([
    ["Chart.yaml", Buffer.from(`apiVersion: v2\nname: order\nversion: ${version}\n`)],
    ["templates/deployment.yaml", Buffer.from(deployment)],
    ["templates/cm.yaml", Buffer.from(configMap)],
  ]);
}

const config = (order: string, extra = "") =>
  `import { defineConfig } from "chartroom";\nexport default defineConfig({\n  repositories: { local: "file://./order" },\n  charts: { order: { repository: "local", version: "${order}", namespace: "default" }${extra} },\n  stacks: { dev: { kubeVersion: "1.31.0", offline: true } },\n});\n`;

function ok(outcome: Outcome, what: string): Outcome {
  if (outcome.code !== 0) throw new Error(`${what} failed (${outcome.code}):\n${outcome.stdout}${outcome.stderr}`);
  return outcome;
}

describe("helm.v4.Chart without a cluster, predicted", () => {
  let project: ExampleProject;
  let predicted: DiffReport;
  let up: Outcome;
  let written: string[];

  beforeAll(async () => {
    project = await ExampleProject.create("chartroom-offline-");
    const repository = join(project.dir, "order");
    await mkdir(repository);
    await writeFile(join(repository, "order-1.0.0.tgz"), await packChart("order", orderChart("1.0.0", "web"), new Date(0)));
    await writeFile(join(repository, "order-1.1.0.tgz"), await packChart("order", orderChart("1.1.0", "web2"), new Date(0)));
    await writeFile(
      join(repository, "modern-1.0.0.tgz"),
      await packChart(
        "modern",
        new Map([
          ["Chart.yaml", Buffer.from('apiVersion: v2\nname: modern\nversion: 1.0.0\nkubeVersion: ">=1.23.0-0"\n')],
          ["templates/cm.yaml", Buffer.from("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: modern\n")],
        ]),
        new Date(0),
      ),
    );
    await runHelm(4, ["repo", "index", repository], project.dir);
    await writeFile(join(project.dir, "chartroom.config.ts"), config("1.0.0"));
    await writeFile(join(project.dir, "pulumi", "index.ts"), PROGRAM);
    await writeFile(join(project.dir, "Pulumi.yaml"), (await readFile(join(project.dir, "Pulumi.yaml"), "utf8")).replace(/config:\n[\s\S]*$/, ""));
    await writeFile(join(project.dir, "chartroom.types.ts"), "export {};\n");
    await rm(join(project.dir, "policies"), { recursive: true });
    ok(await project.chartroom(["lock"]), "chartroom lock");
    for (const args of [
      ["stack", "init", "dev"],
      ["config", "set", "renderYamlToDirectory", project.rendered],
    ])
      ok(await project.pulumi(args), `pulumi ${args.join(" ")}`);
    ok(await project.pulumi(["up", "--yes"]), "pulumi up at 1.0.0");
    const diff = await project.chartroom(["diff", "order", "--to", "1.1.0", "--stack", "dev", "--format", "json"]);
    predicted = JSON.parse(diff.stdout) as DiffReport;
    await writeFile(join(project.dir, "chartroom.config.ts"), config("1.1.0"));
    ok(await project.chartroom(["lock"]), "chartroom lock at 1.1.0");
    up = ok(await project.pulumi(["up", "--yes"]), "pulumi up at 1.1.0");
    written = await readdir(join(project.rendered, "1-manifest"));
  }, ENGINE_TEST_MS);

  afterAll(() => project?.remove());

  it("replaces create-first, as chartroom said, and the original's delete removes the file just written", () => {
    const replaced = predicted.charts[0]?.objects.filter((object) => object.action === "replace").map((object) => [object.display, object.replacement?.order]);
    expect(replaced).toStrictEqual([
      ["ConfigMap default/settings", "create-first"],
      ["Deployment.apps default/fixed", "create-first"],
    ]);
    for (const name of ["Deployment order:default/fixed", "ConfigMap order:default/settings"]) {
      const [kind, resource] = name.split(" ");
      const created = up.stdout.search(new RegExp(`${kind}[^\\n]* ${resource} created replacement`));
      const deleted = up.stdout.search(new RegExp(`${kind}[^\\n]* ${resource} deleted original`));
      expect(created, `${name} created`).toBeGreaterThan(-1);
      expect(deleted, `${name} deleted after`).toBeGreaterThan(created);
    }
    // The provider's own file handling: both objects are gone from the render folder.
    expect(written.filter((name) => name.includes("fixed") || name.includes("settings"))).toStrictEqual([]);
    expect(predicted.charts[0]?.objects.find((object) => object.display === "Deployment.apps default/fixed")?.replacement?.consequences.chart).toContain(
      "missing from the render folder",
    );
  });

  it(
    "refuses, as chartroom said first, a chart whose kubeVersion the provider's offline v1.20.0 does not meet",
    async () => {
      await writeFile(join(project.dir, "chartroom.config.ts"), config("1.1.0", ', modern: { repository: "local", version: "1.0.0", namespace: "default" }'));
      // chartroom renders the offline stack as the provider does: the lock refuses the chart at once.
      const locked = await project.chartroom(["lock"]);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toContain("error HELM_FAILED:");
      // Declared for a cluster, chartroom locks it and names it: the engine, offline, then refuses it.
      await writeFile(
        join(project.dir, "chartroom.config.ts"),
        config("1.1.0", ', modern: { repository: "local", version: "1.0.0", namespace: "default" }').replace(", offline: true", ""),
      );
      ok(await project.chartroom(["lock"]), "chartroom lock for a cluster");
      const plan = await project.chartroom(["plan"]);
      expect(plan.stdout).toContain("modern: the chart requires Kubernetes >=1.23.0-0; without a cluster");
      const preview = await project.pulumi(["preview"]);
      expect(preview.code).not.toBe(0);
      expect(preview.stdout + preview.stderr).toMatch(/chart requires kubeVersion: >=1\.23\.0-0 which is incompatible with Kubernetes v1\.20\.0/);
    },
    ENGINE_TEST_MS,
  );
});
