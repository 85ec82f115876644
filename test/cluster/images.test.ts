// pinImages deployed for real: the example's images pushed to a loopback
// registry (declared as registry.example.test's endpoint), locked by
// digest, then `pulumi up` against the test cluster. Every pod template the
// provider writes (helm.v4.Chart children by a transform, the ledger's
// helm.v3.Release through the post-renderer) carries the locked digest.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../helpers/cluster.js";
import { ENGINE_TEST_MS, ExampleProject } from "../helpers/engine.js";
import { helm, mustPass } from "../helpers/live.js";
import { pushImage, startRegistry, type Registry } from "../helpers/registry.js";

const PASSWORD = "planted-images-secret-5521";

interface PodOwner {
  kind: string;
  metadata: { name: string; namespace: string };
  spec: { template: { spec: { containers: { name: string; image: string }[]; initContainers?: { image: string }[] } } };
}

describe("pinImages, deployed to a real API server under both engines", () => {
  let cluster: Cluster;
  let project: ExampleProject;
  let registry: Registry;
  let store: string;
  const digests: Record<string, string> = {};
  let lock: { charts: Record<string, { engine: { name: string }; images: Record<string, { image: string; digest?: string; object: string }[]> }> };

  beforeAll(async () => {
    cluster = await startCluster();
    project = await ExampleProject.create("chartroom-images-cluster-");
    store = join(project.dir, ".registry");
    await mkdir(store);
    registry = await startRegistry(store);
    digests["webapp:1.4.1"] = await pushImage(registry.base, "webapp", "1.4.1", { platforms: ["linux/amd64", "linux/arm64"] });
    digests["ledger:3.2.0"] = await pushImage(registry.base, "ledger", "3.2.0");
    digests["widgets-operator:0.9.0"] = await pushImage(registry.base, "widgets-operator", "0.9.0");
    digests["curl:8"] = await pushImage(registry.base, "curl", "8");
    const config = join(project.dir, "chartroom.config.ts");
    const text = await readFile(config, "utf8");
    await writeFile(
      config,
      text.replace("  stacks: {", `  registries: { "registry.example.test": { endpoint: "http://${registry.host}" } },\n  pinImages: true,\n  stacks: {`),
    );
    const locked = await project.chartroom(["lock"]);
    if (locked.code !== 0) throw new Error(`chartroom lock failed:\n${locked.stdout}${locked.stderr}`);
    lock = JSON.parse(await readFile(join(project.dir, "charts.lock.json"), "utf8"));
    await project.initStack("dev", PASSWORD, cluster.kubeconfig());
    await mustPass(project, ["up", "--yes", "--skip-preview"], cluster);
  }, ENGINE_TEST_MS);

  afterAll(async () => {
    await registry?.stop();
    await rm(store ?? "/nonexistent", { recursive: true, force: true });
    await project?.remove();
    await cluster?.stop();
  });

  it("locks every image of the example by digest, through the endpoint the config names", () => {
    for (const pin of Object.values(lock.charts)) {
      for (const image of pin.images.dev ?? []) {
        expect(image.digest, image.image).toBe(digests[image.image.replace("registry.example.test/", "")]);
      }
    }
    expect(lock.charts.ledger?.engine.name).toBe("release");
    expect(lock.charts.webapp?.engine.name).toBe("chart");
  });

  it("runs every Deployment of both engines at its locked digest", async () => {
    const deployments = JSON.parse((await cluster.kubectl(["get", "deployments", "-A", "-o", "json"])).stdout) as { items: PodOwner[] };
    const images = deployments.items
      .filter((item) => ["web", "ledger", "widgets", "shop"].includes(item.metadata.namespace))
      .flatMap((item) => item.spec.template.spec.containers.map((container) => `${item.metadata.namespace}/${item.metadata.name} ${container.image}`))
      .sort();
    expect(images).toStrictEqual(
      [
        `ledger/ledger registry.example.test/ledger:3.2.0@${digests["ledger:3.2.0"]}`,
        `shop/shop-webapp registry.example.test/webapp:1.4.1@${digests["webapp:1.4.1"]}`,
        `web/webapp registry.example.test/webapp:1.4.1@${digests["webapp:1.4.1"]}`,
        `widgets/widgets-operator registry.example.test/widgets-operator:0.9.0@${digests["widgets-operator:0.9.0"]}`,
      ].sort(),
    );
  });

  it("gives the Release a post-renderer by a path relative to the program, and Helm's record holds the pinned manifest; hooks stay as rendered", async () => {
    const state = JSON.parse((await mustPass(project, ["stack", "export"], cluster)) || "{}") as {
      deployment: { resources: { type: string; inputs?: { postrender?: string } }[] };
    };
    const release = state.deployment.resources.find((resource) => resource.type === "kubernetes:helm.sh/v3:Release");
    // Relative to the program's folder, as the archive is (the example's program runs in pulumi/).
    expect(release?.inputs?.postrender).toMatch(/^\.\.\/\.chartroom\/post-render\/ledger-[0-9a-f]{12}\.mjs$/);
    const manifest = await helm(cluster, ["get", "manifest", "ledger", "-n", "ledger"]);
    expect(manifest.stdout).toContain(`image: "registry.example.test/ledger:3.2.0@${digests["ledger:3.2.0"]}"`);
    expect(manifest.stdout).toContain("# Source: ledger/templates/deployment.yaml");
    const hooks = await helm(cluster, ["get", "hooks", "ledger", "-n", "ledger"]);
    expect(hooks.stdout).toContain("registry.example.test/ledger:3.2.0");
    expect(hooks.stdout).not.toContain("@sha256:");
  });

  it("shows the same pinned references in chartroom's render, so the review is of what runs", async () => {
    const rendered = await project.chartroom(["render", "ledger", "--stack", "dev"]);
    expect(rendered.code).toBe(0);
    expect(rendered.stdout).toContain(`registry.example.test/ledger:3.2.0@${digests["ledger:3.2.0"]}`);
    const preview = await project.pulumi(["preview", "--diff"]);
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    // Nothing to do once deployed: the transform and the post-renderer give the same bytes every run.
    expect(preview.stdout).not.toMatch(/[~+-] \d+ to (update|create|delete|replace)/);
  });
});
