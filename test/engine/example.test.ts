// The example Pulumi program run by the real engine: the Pulumi CLI, its
// Node.js language host and the Kubernetes provider built from their Go
// modules (engine/build.sh), a local file:// backend, and the provider in
// renderYamlToDirectory mode, so no cluster is needed.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExampleProject, previewSteps, writtenObjects, type Outcome, type PreviewStep, ENGINE_TEST_MS } from "../helpers/engine.js";

const PASSWORD = "planted-engine-secret-4417";
const RELEASES = "**kubernetes:helm.sh/v3:Release**";

describe("the example program, as a user runs it on the real engine", () => {
  let project: ExampleProject;
  let preview: Outcome;
  let steps: PreviewStep[];
  let up: Outcome;

  beforeAll(async () => {
    project = await ExampleProject.create();
    await project.initStack("dev", PASSWORD);
    preview = await project.pulumi(["preview", "--json"]);
    steps = previewSteps(preview.stdout);
    // Offline, a helm.v3.Release cannot be created (see the test below): `up` the rest.
    up = await project.pulumi(["up", "--yes", "--exclude", RELEASES]);
  }, ENGINE_TEST_MS);

  afterAll(() => project?.remove());

  it("previews a resource for every object of each helm.v4.Chart, one Release, and the namespaces", () => {
    expect(preview.code, preview.stderr).toBe(0);
    const created = (type: string) =>
      steps
        .filter((step) => step.op === "create" && step.type === type)
        .map((step) => step.name)
        .sort();
    expect(created("kubernetes:core/v1:Namespace")).toStrictEqual(["namespace-ledger", "namespace-shop", "namespace-web", "namespace-widgets"]);
    expect(created("kubernetes:helm.sh/v4:Chart")).toStrictEqual(["storefront", "webapp", "widgets-operator"]);
    expect(created("kubernetes:helm.sh/v3:Release")).toStrictEqual(["ledger"]);
    expect(created("kubernetes:apps/v1:Deployment")).toStrictEqual([
      "storefront:shop/shop-webapp",
      "webapp:web/webapp",
      "widgets-operator:widgets/widgets-operator",
    ]);
    expect(created("kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition")).toStrictEqual(["widgets-operator:widgets.example.com"]);
  });

  it("writes every object of the helm.v4.Chart charts with pulumi up", async () => {
    expect(up.code, up.stderr + up.stdout).toBe(0);
    const written = (await writtenObjects(project.rendered)).map((object) => `${object.kind} ${object.metadata.namespace ?? ""}/${object.metadata.name}`);
    expect(written).toContain("Deployment web/webapp");
    expect(written).toContain("CustomResourceDefinition /widgets.example.com");
    expect(written).toContain("Namespace /shop");
    // Every child the preview planned is written (Chart children and namespaces).
    const planned = steps.filter((step) => step.op === "create" && step.type.startsWith("kubernetes:") && !step.type.startsWith("kubernetes:helm.sh/"));
    expect(written).toHaveLength(planned.length);
  });

  it("plans the Release with the pinned archive, the layered values and the release settings", () => {
    const planned = JSON.parse(preview.stdout) as { steps: { urn: string; newState?: { inputs: Record<string, unknown> } }[] };
    const release = planned.steps.find((step) => step.urn.endsWith("kubernetes:helm.sh/v3:Release::ledger"));
    expect(release?.newState?.inputs).toMatchObject({
      // The verified archive in the project, relative to the program's folder (pulumi/): the same on every machine.
      chart: "../.chartroom/charts/ledger-0.1.0-fe593585f948.tgz",
      allowNullValues: true,
      namespace: "ledger",
      name: "ledger",
      createNamespace: false,
      atomic: true,
      timeout: 600,
      maxHistory: 10,
      waitForJobs: true,
      values: { database: { host: "postgres.data.svc" } },
    });
  });

  it("keeps in state: the explicit provider on every child, retained CRDs, dependsOn between charts, no secret in plain text", async () => {
    const exported = await project.pulumi(["stack", "export"]);
    expect(exported.code, exported.stderr).toBe(0);
    const resources = (JSON.parse(exported.stdout) as { deployment: { resources: StateResource[] } }).deployment.resources;
    const children = resources.filter((r) => r.custom === true && r.type.startsWith("kubernetes:") && !r.type.startsWith("kubernetes:helm.sh/"));
    expect(children.length).toBeGreaterThan(15);
    for (const child of children) expect(child.provider, child.urn).toMatch(/^urn:pulumi:dev::platform::pulumi:providers:kubernetes::cluster::/);
    const retained = children.filter((r) => r.retainOnDelete === true).map((r) => r.type);
    expect(retained).toStrictEqual(["kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition"]);
    // Pulumi records a dependency on a component as one on the resources inside it.
    const storefront = resources.find((r) => r.urn === "urn:pulumi:dev::platform::chartroom:index:ChartDeployment::storefront");
    expect(storefront?.dependencies?.sort()).toStrictEqual([
      "urn:pulumi:dev::platform::chartroom:index:ChartDeployment$kubernetes:helm.sh/v4:Chart::widgets-operator",
      "urn:pulumi:dev::platform::kubernetes:core/v1:Namespace::namespace-shop",
    ]);
    const stateFiles = await readTree(join(project.dir, ".state"));
    for (const text of [exported.stdout, stateFiles]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(Buffer.from(PASSWORD).toString("base64"));
    }
  });

  // Runs last: it changes the stack.
  it("cannot create the helm.v3.Release without a cluster: the provider refuses it, nothing else fails", async () => {
    const full = await project.pulumi(["up", "--yes"]);
    expect(full.code).not.toBe(0);
    const output = full.stdout + full.stderr;
    expect(output).toContain("kubernetes:helm.sh/v3:Release (ledger):");
    expect(output).toContain("can't create Helm Release with unreachable cluster");
    // The Release's error and "update failed"; the whole output on failure, to see what else failed.
    expect(output.match(/^\s+error: /gm), output).toHaveLength(2);
  });

  // Runs after the others: it destroys the stack.
  it("leaves the CRD behind on destroy, and a fresh stack's up takes it over", async () => {
    const crdFolder = join(project.rendered, "0-crd");
    const [crdFile] = await readdir(crdFolder);
    const crd = join(crdFolder, crdFile ?? "(none)");
    const destroyed = await project.pulumi(["destroy", "--yes"]);
    expect(destroyed.code, destroyed.stderr + destroyed.stdout).toBe(0);
    const left = (await writtenObjects(project.rendered)).map((object) => `${object.kind} ${object.metadata.name}`);
    // retainOnDelete: the engine never asks the provider to delete it; everything else is gone.
    expect(left).toStrictEqual(["CustomResourceDefinition widgets.example.com"]);
    const before = await readFile(crd, "utf8");
    // A new stack of the same platform (the next environment, or this one rebuilt):
    // the provider this project builds applies server-side, so creating an object
    // that exists takes it over. Providers from v4.29 create client-side and
    // refuse it (AlreadyExists) unless the Provider has upsertExistingObjects: true.
    await project.initStack("prod", PASSWORD);
    const fresh = await project.pulumi(["up", "--yes", "--exclude", RELEASES]);
    expect(fresh.code, fresh.stderr + fresh.stdout).toBe(0);
    const exported = JSON.parse((await project.pulumi(["stack", "export"])).stdout) as { deployment: { resources: StateResource[] } };
    const taken = exported.deployment.resources.find((r) => r.type === "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition");
    expect(taken?.retainOnDelete).toBe(true);
    expect(await readFile(crd, "utf8")).toBe(before);
  });
});

interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  provider?: string;
  retainOnDelete?: boolean;
  dependencies?: string[];
}

/** Every file under a folder, concatenated: the backend's state as it sits on disk. */
async function readTree(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(entries.filter((entry) => entry.isFile()).map((entry) => readFile(join(entry.parentPath, entry.name), "utf8")));
  return texts.join("\n");
}
