// An upgrade reviewed by chartroom, then deployed to a real API server: the
// engine plans what the diff said, for both engines, changes what it said,
// and fails where it said it would.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DiffReport } from "../../src/diff/model.js";
import type { Cluster } from "../helpers/cluster.js";
import { ENGINE_TEST_MS, ExampleProject, type PreviewStep, previewSteps } from "../helpers/engine.js";
import { deployedExample, mustPass, providerWrites } from "../helpers/live.js";
import { displayOfStep, predictSteps } from "../helpers/predict.js";

const PASSWORD = "planted-upgrade-secret-0419";
const CHARTS = ["storefront", "webapp", "widgets-operator"];
const RELEASE = "**kubernetes:helm.sh/v3:Release::ledger";

async function editConfig(project: ExampleProject, edit: (text: string) => string): Promise<void> {
  const file = join(project.dir, "chartroom.config.ts");
  await writeFile(file, edit(await readFile(file, "utf8")));
}

describe("an upgrade against a real API server, as chartroom reviewed it", () => {
  let cluster: Cluster;
  let project: ExampleProject;

  beforeAll(async () => {
    ({ cluster, project } = await deployedExample("chartroom-live-upgrade-", PASSWORD));
  }, ENGINE_TEST_MS);

  afterAll(async () => {
    await project?.remove();
    await cluster?.stop();
  });

  it(
    "changes, under helm.v3.Release, the objects chartroom's diff listed and runs the upgrade hook",
    async () => {
      await editConfig(project, (text) => text.replace('ledger: { repository: "local", version: "^0.1.0"', 'ledger: { repository: "local", version: "^0.2.0"'));
      const diff = await project.chartroom(["diff", "ledger", "--to", "wanted", "--stack", "dev", "--format", "json"]);
      const report = (JSON.parse(diff.stdout) as DiffReport).charts[0];
      expect(report?.engine).toBe("release");
      const listed = (report?.objects ?? []).map((object) => `${object.display} ${object.step}`);
      expect(listed).toStrictEqual(["Deployment.apps ledger/ledger update", "Job.batch ledger/ledger-migrate update"]);
      expect((await project.chartroom(["upgrade", "ledger"])).stdout).toContain("upgraded: ledger 0.1.0 → 0.2.0");
      const since = new Date().toISOString();
      // The Release alone: every other up of the example fails on the storefront's random Secret (see the example's test).
      await mustPass(project, ["up", "--yes", "--skip-preview", "--target", RELEASE], cluster);
      const writes = providerWrites(await cluster.audit(), "ledger", since).filter(
        (write) => !write.includes(" secrets sh.helm.release.v1.") && !write.includes(" events "),
      );
      // The hook Job is deleted and created again (before-hook-creation, then hook-succeeded); of the release's own objects only the Deployment is patched.
      expect(writes).toStrictEqual(["delete jobs ledger-migrate", "create jobs ledger-migrate", "delete jobs ledger-migrate", "patch deployments ledger"]);
      const image = await cluster.kubectl(["get", "deployment", "ledger", "-n", "ledger", "-o", "jsonpath={.spec.template.spec.containers[0].image}"]);
      expect(image.stdout).toBe("registry.example.test/ledger:3.3.0");
    },
    ENGINE_TEST_MS,
  );

  it(
    "plans with a refreshed preview the step chartroom's diff named for every helm.v4.Chart child, and fails the up where it said",
    async () => {
      await editConfig(project, (text) => text.replace('webapp: { repository: "local", version: "~1.0.0"', 'webapp: { repository: "local", version: "~1.1.0"'));
      const lock = JSON.parse(await readFile(join(project.dir, "charts.lock.json"), "utf8")) as { charts: Record<string, { version: string }> };
      const { predicted, reports } = await predictSteps(
        project,
        "dev",
        CHARTS.map((chart) => (chart === "webapp" ? { chart, to: "wanted", values: ["code-values.yaml"] } : { chart, to: lock.charts[chart]?.version ?? "" })),
      );
      const upgrade = await project.chartroom(["upgrade", "webapp"]);
      expect(upgrade.stdout).toContain("upgraded: webapp 1.0.1 → 1.1.0");
      const preview = await project.pulumi(["preview", "--refresh", "--json"]);
      expect(preview.code, preview.stderr).toBe(0);
      const planned = previewSteps(preview.stdout).filter((step) => CHARTS.some((chart) => step.name.startsWith(`${chart}:`)));
      // A refreshed preview marks what it read and left alone `refresh`: the same as `same`.
      const op = (step: PreviewStep) => (step.op === "refresh" ? "same" : step.op);
      expect(Object.fromEntries(planned.map((step) => [displayOfStep(step), op(step)]))).toStrictEqual(
        Object.fromEntries(planned.map((step) => [displayOfStep(step), predicted.get(displayOfStep(step)) ?? "same"])),
      );
      const config = reports
        .flatMap((report) => report.charts)
        .flatMap((chart) => chart.objects)
        .find((object) => object.display === "ConfigMap web/webapp-config");
      expect(config?.replacement?.order).toBe("create-first");
      expect(config?.replacement?.consequences.chart).toContain("server-side apply refuses it");
      const since = new Date().toISOString();
      const up = await project.pulumi(["up", "--yes", "--skip-preview"]);
      expect(up.code).not.toBe(0);
      const said = `${up.stdout}${up.stderr}`;
      expect(said).toContain("kubernetes:core/v1:ConfigMap webapp:web/webapp-config creating replacement");
      // The labels the new version changes are the original's manager's.
      expect(said).toMatch(
        /Apply failed with 2 conflicts: conflicts with "pulumi-kubernetes-[0-9a-f]{8}":\s+- \.metadata\.labels\.app\.kubernetes\.io\/version\s+- \.metadata\.labels\.helm\.sh\/chart/,
      );
      const writes = providerWrites(await cluster.audit(), "web", since).filter((write) => write.includes(" configmaps webapp-config"));
      // Server-side apply creates with a patch: refused (409), and nothing deleted first.
      expect(writes).toStrictEqual(["patch configmaps webapp-config"]);
    },
    ENGINE_TEST_MS,
  );

  it(
    "fails helm upgrade on an immutable field, as chartroom's diff said the Release engine would",
    async () => {
      const release = await ExampleProject.create("chartroom-immutable-");
      try {
        // The web app alone, in its own namespace, deployed as a Release.
        await editConfig(release, (text) =>
          text
            .replace(
              'webapp: { repository: "local", version: "~1.0.0", namespace: "web" }',
              'webapp: { repository: "local", version: "~1.0.0", namespace: "imm", engine: "release" }',
            )
            .split("\n")
            .filter((line) => !/^ {4}(ledger|"widgets-operator"|storefront): \{/.test(line))
            .join("\n"),
        );
        // The platform's policy exceptions name the charts left out.
        await rm(join(release.dir, "policies"), { recursive: true });
        const locked = await release.chartroom(["lock"]);
        expect(locked.code, locked.stderr).toBe(0);
        await release.initStack("dev", PASSWORD, cluster.kubeconfig());
        await mustPass(release, ["up", "--yes", "--skip-preview"], cluster);
        await editConfig(release, (text) => text.replace('version: "~1.0.0", namespace: "imm"', 'version: "^2.0.0", namespace: "imm"'));
        const diff = await release.chartroom(["diff", "webapp", "--to", "wanted", "--stack", "dev", "--format", "json"]);
        const deployment = (JSON.parse(diff.stdout) as DiffReport).charts[0]?.objects.find((object) => object.display === "Deployment.apps imm/webapp");
        expect(deployment?.step).toBe("fails");
        expect(deployment?.replacement?.consequences.release).toBe(
          'helm.v3.Release: `helm upgrade` fails with "field is immutable"; the object must be deleted first',
        );
        expect((await release.chartroom(["upgrade", "webapp"])).stdout).toContain("upgraded: webapp 1.0.1 → 2.0.0");
        const up = await release.pulumi(["up", "--yes", "--skip-preview"]);
        expect(up.code).not.toBe(0);
        expect(`${up.stdout}${up.stderr}`).toMatch(/Deployment\.apps "webapp" is invalid: spec\.selector: Invalid value: .*: field is immutable/);
      } finally {
        await release.remove();
      }
    },
    ENGINE_TEST_MS,
  );
});
