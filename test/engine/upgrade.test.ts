// chartroom's diff of a change predicts what the engine does: for every
// child of every helm.v4.Chart, the step chartroom names is the step
// `pulumi preview` plans.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExampleProject, previewSteps, type PreviewStep, ENGINE_TEST_MS } from "../helpers/engine.js";
import { displayOfStep, predictSteps } from "../helpers/predict.js";

const PASSWORD = "planted-upgrade-secret-5813";
const RELEASES = "**kubernetes:helm.sh/v3:Release**";
const CHARTS = ["storefront", "webapp", "widgets-operator"];

describe("an upgrade, predicted by chartroom and planned by the engine", () => {
  let project: ExampleProject;
  let predicted: Map<string, string>;
  let planned: PreviewStep[];

  beforeAll(async () => {
    project = await ExampleProject.create("chartroom-upgrade-");
    await project.initStack("dev", PASSWORD);
    const up = await project.pulumi(["up", "--yes", "--exclude", RELEASES]);
    if (up.code !== 0) throw new Error(`pulumi up failed:\n${up.stdout}${up.stderr}`);
    // The program gives the web app these in code; chartroom gets them as a values file.
    await project.writeCodeValues(PASSWORD);
    const config = join(project.dir, "chartroom.config.ts");
    await writeFile(
      config,
      (await readFile(config, "utf8")).replace('webapp: { repository: "local", version: "~1.0.0"', 'webapp: { repository: "local", version: "~1.1.0"'),
    );
    const lock = JSON.parse(await readFile(join(project.dir, "charts.lock.json"), "utf8")) as { charts: Record<string, { version: string }> };
    ({ predicted } = await predictSteps(
      project,
      "dev",
      CHARTS.map((chart) => (chart === "webapp" ? { chart, to: "wanted", values: ["code-values.yaml"] } : { chart, to: lock.charts[chart]?.version ?? "" })),
    ));
    const upgrade = await project.chartroom(["upgrade", "webapp"]);
    expect(upgrade.stdout).toContain("upgraded: webapp 1.0.1 → 1.1.0");
    const preview = await project.pulumi(["preview", "--json"]);
    if (preview.code !== 0) throw new Error(`pulumi preview failed:\n${preview.stderr}`);
    planned = previewSteps(preview.stdout).filter((step) => CHARTS.some((chart) => step.name.startsWith(`${chart}:`)));
  }, ENGINE_TEST_MS);

  afterAll(() => project?.remove());

  it("plans, for every child of every helm.v4.Chart, the step chartroom's diff named (same where it named none)", () => {
    const actual = Object.fromEntries(planned.map((step) => [displayOfStep(step), step.op]));
    const expected = Object.fromEntries(planned.map((step) => [displayOfStep(step), predicted.get(displayOfStep(step)) ?? "same"]));
    expect(actual).toStrictEqual(expected);
  });

  it("sees the engine replace the ConfigMap whose data changed, and update the rest of the web app", () => {
    const webapp = Object.fromEntries(planned.filter((step) => step.name.startsWith("webapp:")).map((step) => [displayOfStep(step), step.op]));
    expect(webapp).toStrictEqual({
      "webapp ConfigMap web/webapp-config": "replace",
      "webapp Deployment.apps web/webapp": "update",
      "webapp Ingress.networking.k8s.io web/webapp": "update",
      "webapp Secret web/webapp-auth": "update",
      "webapp Service web/webapp": "update",
    });
  });

  it("sees the engine replace the storefront's random Secret although nothing about it changed, as chartroom said", () => {
    expect(predicted.get("storefront Secret shop/shop-webapp-auth")).toBe("replace");
    expect(planned.find((step) => step.name === "storefront:shop/shop-webapp-auth")?.op).toBe("replace");
  });
});
