import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChartroomError } from "../../src/errors/index.js";
import { openProject } from "../../src/project/project.js";
import { deploymentPlans } from "../../src/workflows/deployments.js";
import { runHelm } from "../helpers/helm.js";
import { cli, snapshot } from "../helpers/platform.js";
import { freePort, pushImage, startRegistry, startTokenProxy, type Registry } from "../helpers/registry.js";
import { tempDir } from "../helpers/tmp.js";

// Images locked by digest against real registries on loopback: Debian's
// docker-registry (distribution 2.8) twice, one open behind a Bearer-token
// front that records every request, one private behind htpasswd.

const BUSYBOX = "docker.io/library/busybox@sha256:1111111111111111111111111111111111111111111111111111111111111111";
const SECRET = { username: "imagebot", password: "s3cret-image-pass" };

let open: Registry;
let front: Awaited<ReturnType<typeof startTokenProxy>>;
let privy: Registry;
let home: string;
const digests: Record<string, string> = {};

beforeAll(async () => {
  const { mkdtemp } = await import("node:fs/promises");
  home = await mkdtemp(join((await import("node:os")).tmpdir(), "chartroom-images-"));
  await mkdir(join(home, "open"));
  await mkdir(join(home, "private"));
  open = await startRegistry(join(home, "open"));
  privy = await startRegistry(join(home, "private"), { htpasswd: SECRET });
  front = await startTokenProxy(open.base);
  digests.api = await pushImage(open.base, "acme/api", "1.0");
  digests.migrate = await pushImage(open.base, "acme/migrate", "1.0", { platforms: ["linux/amd64", "linux/arm64"] });
  digests.widget = await pushImage(open.base, "acme/widget", "2");
  digests.report = await pushImage(privy.base, "acme/report", "1.0", { basic: SECRET });
}, 120_000);

afterAll(async () => {
  await front?.stop();
  await open?.stop();
  await privy?.stop();
  await (await import("node:fs/promises")).rm(home, { recursive: true, force: true });
});

/** A chart whose images sit where operators and batch charts put them: init containers, a CronJob, a hook Job, a custom resource's field. */
async function jobsChart(dir: string, hook: boolean): Promise<string> {
  const chart = join(dir, "src", "jobs");
  await mkdir(join(chart, "templates"), { recursive: true });
  await writeFile(join(chart, "Chart.yaml"), "apiVersion: v2\nname: jobs\nversion: 1.0.0\n");
  await writeFile(join(chart, "values.yaml"), `open: ${front.host}\nprivate: ${privy.host}\ntag: "1.0"\n`);
  const deployment = [
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata: { name: api }",
    "spec:",
    "  selector: { matchLabels: { app: api } }",
    "  template:",
    "    metadata: { labels: { app: api } }",
    "    spec:",
    "      initContainers:",
    "        - name: migrate",
    '          image: "{{ .Values.open }}/acme/migrate:{{ .Values.tag }}"',
    "      containers:",
    "        - name: api",
    "          image: {{ .Values.open }}/acme/api:{{ .Values.tag }}",
    "        - name: sidecar",
    `          image: ${BUSYBOX}`,
    "        - name: elsewhere",
    "          image: quay.example.test/acme/tool:3",
  ];
  const cronjob = [
    "apiVersion: batch/v1",
    "kind: CronJob",
    "metadata: { name: report }",
    "spec:",
    '  schedule: "0 * * * *"',
    "  jobTemplate:",
    "    spec:",
    "      template:",
    "        spec:",
    "          restartPolicy: Never",
    "          containers:",
    "            - name: report",
    "              image: '{{ .Values.private }}/acme/report:1.0'",
  ];
  const widget = ["apiVersion: example.test/v1", "kind: Widget", "metadata: { name: main }", "spec:", "  image: {{ .Values.open }}/acme/widget:2"];
  await writeFile(join(chart, "templates", "deployment.yaml"), `${deployment.join("\n")}\n`);
  await writeFile(join(chart, "templates", "cronjob.yaml"), `${cronjob.join("\n")}\n`);
  await writeFile(join(chart, "templates", "widget.yaml"), `${widget.join("\n")}\n`);
  if (hook) {
    const job = [
      "apiVersion: batch/v1",
      "kind: Job",
      "metadata:",
      "  name: pre",
      '  annotations: { "helm.sh/hook": pre-upgrade }',
      "spec:",
      "  template:",
      "    spec:",
      "      restartPolicy: Never",
      "      containers:",
      "        - name: pre",
      "          image: {{ .Values.open }}/acme/api:{{ .Values.tag }}",
    ];
    await writeFile(join(chart, "templates", "hook.yaml"), `${job.join("\n")}\n`);
  }
  const repo = join(dir, "repo");
  await mkdir(repo, { recursive: true });
  await runHelm(4, ["package", chart, "--destination", repo], dir);
  await runHelm(4, ["repo", "index", repo], dir);
  return repo;
}

async function platform(options: { hook?: boolean; pinImages?: boolean; production?: boolean } = {}): Promise<string> {
  const dir = await tempDir("chartroom-images-");
  await jobsChart(dir, options.hook === true);
  const config = {
    repositories: { local: "file://./repo" },
    registries: {
      [front.host]: { plainHttp: true },
      [privy.host]: { plainHttp: true, auth: { usernameEnv: "IMAGE_USER", passwordEnv: "IMAGE_PASS" } },
    },
    charts: {
      jobs: {
        repository: "local",
        version: "1.0.0",
        namespace: "batch",
        imageFields: [{ kind: "Widget", path: "spec.image" }],
        ...(options.pinImages === true ? { pinImages: true } : {}),
      },
    },
    stacks: { prod: { kubeVersion: "1.31.0", ...(options.production === true ? { production: true } : {}) } },
  };
  await writeFile(
    join(dir, "chartroom.config.ts"),
    `import { defineConfig } from "chartroom";\nexport default defineConfig(${JSON.stringify(config, null, 2)});\n`,
  );
  return dir;
}

const git = (cwd: string, args: string[]) => promisify(execFile)("git", args, { cwd });

const ENV = { IMAGE_USER: SECRET.username, IMAGE_PASS: SECRET.password };

async function lockOf(dir: string) {
  return JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8"));
}

function noCredentials(text: string): void {
  expect(text).not.toContain(SECRET.password);
  expect(text).not.toContain(Buffer.from(`${SECRET.username}:${SECRET.password}`).toString("base64"));
}

describe("chartroom lock with images (real registries on loopback)", () => {
  it("locks every image a chart runs by digest: containers, init containers, a CronJob, a custom resource field; an index stays an index", async () => {
    const dir = await platform();
    const asked = front.seen.length;
    const result = await cli(dir, ["lock"], ENV);
    expect(result.errors).toBe("");
    expect(result.exitCode).toBe(0);
    const order = (a: { object: string; container: string }, b: { object: string; container: string }) =>
      `${a.object} ${a.container}`.localeCompare(`${b.object} ${b.container}`);
    const images = [...(await lockOf(dir)).charts.jobs.images.prod].sort(order);
    expect(images).toStrictEqual(
      [
        { object: "CronJob.batch batch/report", container: "containers[report]", image: `${privy.host}/acme/report:1.0`, digest: digests.report },
        {
          object: "Deployment.apps batch/api",
          container: "initContainers[migrate]",
          image: `${front.host}/acme/migrate:1.0`,
          digest: digests.migrate,
          platforms: 2,
        },
        { object: "Deployment.apps batch/api", container: "containers[api]", image: `${front.host}/acme/api:1.0`, digest: digests.api },
        { object: "Deployment.apps batch/api", container: "containers[sidecar]", image: BUSYBOX, digest: BUSYBOX.split("@")[1] },
        {
          object: "Deployment.apps batch/api",
          container: "containers[elsewhere]",
          image: "quay.example.test/acme/tool:3",
          unresolved: "registry not declared",
        },
        { object: "Widget.example.test batch/main", container: "spec.image", image: `${front.host}/acme/widget:2`, digest: digests.widget },
      ].sort(order),
    );
    // The gap is said, never silent.
    expect(result.output).toContain("images: 5 of 6 locked by digest");
    expect(result.output).toContain('registry quay.example.test is not declared (add registries["quay.example.test"] to the config)');
    // Three manifests asked of the open registry through its token front (the digest pin and the undeclared host asked nothing), none with the private one's credentials.
    const manifests = front.seen.slice(asked).filter((entry) => entry.url.includes("/manifests/"));
    expect(new Set(manifests.map((entry) => entry.url))).toStrictEqual(
      new Set(["/v2/acme/migrate/manifests/1.0", "/v2/acme/api/manifests/1.0", "/v2/acme/widget/manifests/2"]),
    );
    for (const entry of front.seen.slice(asked)) expect(entry.authorization ?? "").not.toMatch(/^Basic /);
    noCredentials(await readFile(join(dir, "charts.lock.json"), "utf8"));
    noCredentials(result.output);

    const listed = await cli(dir, ["images", "--format", "json"], ENV);
    expect(listed.exitCode).toBe(0);
    const rows = JSON.parse(listed.output).images as { container: string; digest?: string; platforms?: number; pinned: boolean }[];
    expect(rows.map((row) => [row.container, row.digest, row.platforms ?? null])).toContainEqual(["initContainers[migrate]", digests.migrate, 2]);
    expect(rows.every((row) => row.pinned === false)).toBe(true);
  });

  it("refuses an imageFields kind the chart never renders, or a path that holds no image, with the nearest kind, and writes nothing", async () => {
    const dir = await platform();
    const config = join(dir, "chartroom.config.ts");
    await writeFile(config, (await readFile(config, "utf8")).replace('"kind": "Widget"', '"kind": "Widgte"'));
    const misspelt = await cli(dir, ["lock"], ENV);
    expect(misspelt.exitCode).toBe(1);
    expect(misspelt.errors).toContain(
      'error CONFIG_INVALID: invalid config: charts.jobs.imageFields.0.kind: jobs renders no Widgte in any stack (did you mean "Widget"?)',
    );
    expect(await snapshot(dir, ["charts.lock.json"])).toStrictEqual({ "charts.lock.json": "<absent>" });
    await writeFile(config, (await readFile(config, "utf8")).replace('"Widgte"', '"Widget"').replace('"spec.image"', '"spec.imgae"'));
    const path = await cli(dir, ["lock"], ENV);
    expect(path.errors).toContain("charts.jobs.imageFields.0.path: no Widget jobs renders has a string at spec.imgae");
  });

  it("asks no registry with --offline, and records each image without a digest and why", async () => {
    const dir = await platform();
    const asked = front.seen.length;
    const result = await cli(dir, ["lock", "--offline"], ENV);
    expect(result.exitCode).toBe(0);
    expect(front.seen.length).toBe(asked);
    const images = (await lockOf(dir)).charts.jobs.images.prod as { unresolved?: string; digest?: string }[];
    expect(
      images
        .filter((image) => image.digest === undefined)
        .map((image) => image.unresolved)
        .sort(),
    ).toStrictEqual(["offline", "offline", "offline", "offline", "registry not declared"]);
    expect(result.output).toContain("images: 1 of 6 locked by digest");
  });

  it("records a registry that refuses the credentials as unresolved, naming the variables, never their values", async () => {
    const dir = await platform();
    const result = await cli(dir, ["lock"], { IMAGE_USER: SECRET.username, IMAGE_PASS: "wrong-password" });
    expect(result.exitCode).toBe(0);
    const report = (await lockOf(dir)).charts.jobs.images.prod.find((image: { container: string }) => image.container === "containers[report]");
    expect(report).toStrictEqual({
      object: "CronJob.batch batch/report",
      container: "containers[report]",
      image: `${privy.host}/acme/report:1.0`,
      unresolved: "HTTP_AUTH",
    });
    expect(result.output).toContain("HTTP_AUTH");
    expect(result.output).toContain("IMAGE_USER, IMAGE_PASS");
    expect(result.output).not.toContain("wrong-password");
  });

  it("records an unreachable registry's images as unresolved and still writes the lock (exit 0), saying so", async () => {
    const dir = await platform();
    const config = join(dir, "chartroom.config.ts");
    const closed = await freePort();
    await writeFile(config, (await readFile(config, "utf8")).replace(`"${privy.host}": {`, `"${privy.host}": { "endpoint": "http://127.0.0.1:${closed}",`));
    const result = await cli(dir, ["lock"], ENV);
    expect(result.exitCode).toBe(0);
    const report = (await lockOf(dir)).charts.jobs.images.prod.find((image: { container: string }) => image.container === "containers[report]");
    expect(report.unresolved).toBe("HTTP_FAILED");
    expect(result.output).toMatch(/not locked \(1 image\): HTTP_FAILED: cannot reach/);
  });

  it("stops lock --frozen and plan on a tag pushed again, and takes the new digest only with --accept-moved-images", async () => {
    const dir = await platform();
    expect((await cli(dir, ["lock"], ENV)).exitCode).toBe(0);
    expect((await cli(dir, ["lock", "--frozen"], ENV)).exitCode).toBe(0);
    const before = await snapshot(dir, ["charts.lock.json", "chartroom.config.ts"]);
    const moved = await pushImage(open.base, "acme/widget", "2", { salt: "pushed again" });
    expect(moved).not.toBe(digests.widget);
    try {
      const frozen = await cli(dir, ["lock", "--frozen"], ENV);
      expect(frozen.exitCode).toBe(1);
      expect(frozen.errors).toContain("error IMAGE_MOVED:");
      expect(frozen.errors).toContain(`${front.host}/acme/widget:2 (jobs, stack prod) now names ${moved}; charts.lock.json locks ${digests.widget}`);
      const planned = await cli(dir, ["plan", "--format", "json"], ENV);
      expect(planned.exitCode).toBe(1);
      expect(JSON.parse(planned.output).charts[0].problems).toStrictEqual([
        `IMAGE_MOVED: ${front.host}/acme/widget:2 (jobs, stack prod) now names ${moved}; charts.lock.json locks ${digests.widget}`,
      ]);
      // A plain lock keeps what was reviewed: it asks only for references it has not locked.
      expect((await cli(dir, ["lock"], ENV)).exitCode).toBe(0);
      expect(await snapshot(dir, ["charts.lock.json", "chartroom.config.ts"])).toStrictEqual(before);
      const accepted = await cli(dir, ["lock", "--accept-moved-images"], ENV);
      expect(accepted.exitCode).toBe(0);
      expect(accepted.output).toContain(`moved: ${front.host}/acme/widget:2 (jobs, prod): ${digests.widget} → ${moved}`);
      const widget = (await lockOf(dir)).charts.jobs.images.prod.find((image: { container: string }) => image.container === "spec.image");
      expect(widget.digest).toBe(moved);
      expect((await cli(dir, ["lock", "--frozen"], ENV)).exitCode).toBe(0);
    } finally {
      digests.widget = await pushImage(open.base, "acme/widget", "2");
    }
  });

  it("passes lock --frozen on a lock an older chartroom wrote (no images), saying so, and asks no registry", async () => {
    const dir = await platform();
    expect((await cli(dir, ["lock"], ENV)).exitCode).toBe(0);
    const file = join(dir, "charts.lock.json");
    const old = await lockOf(dir);
    delete old.charts.jobs.images;
    await writeFile(file, `${JSON.stringify(old, null, 2)}\n`);
    const asked = front.seen.length;
    const frozen = await cli(dir, ["lock", "--frozen"], ENV);
    expect(frozen.exitCode).toBe(0);
    expect(frozen.output).toContain("images not recorded for jobs (locked by an older chartroom): `chartroom lock` records them");
    expect(front.seen.length).toBe(asked);
  });

  it("fails lock --frozen when the values name an image the lock does not record, and lock records it", async () => {
    const dir = await platform();
    expect((await cli(dir, ["lock"], ENV)).exitCode).toBe(0);
    const tag11 = await pushImage(open.base, "acme/api", "1.1");
    await pushImage(open.base, "acme/migrate", "1.1");
    await mkdir(join(dir, "values", "jobs"), { recursive: true });
    await writeFile(join(dir, "values", "jobs", "values.yaml"), 'tag: "1.1"\n');
    const frozen = await cli(dir, ["lock", "--frozen"], ENV);
    expect(frozen.exitCode).toBe(1);
    expect(frozen.errors).toContain("error LOCK_STALE: charts.lock.json does not record every image the charts run (2)");
    expect(frozen.errors).toContain(`jobs (prod): Deployment.apps batch/api containers[api] runs ${front.host}/acme/api:1.1, which the lock does not record`);
    expect((await cli(dir, ["lock"], ENV)).exitCode).toBe(0);
    const api = (await lockOf(dir)).charts.jobs.images.prod.find((image: { container: string }) => image.container === "containers[api]");
    expect(api).toMatchObject({ image: `${front.host}/acme/api:1.1`, digest: tag11 });
    expect((await cli(dir, ["lock", "--frozen"], ENV)).exitCode).toBe(0);
  });
});

describe("images in review and policy", () => {
  it("flags each image run by tag in a production stack with the exact reference to use, and none once the chart pins them", async () => {
    const dir = await platform({ production: true });
    expect((await cli(dir, ["lock"], ENV)).exitCode).toBe(0);
    const checked = JSON.parse((await cli(dir, ["check", "--format", "json"], ENV)).output);
    const found = checked.findings.filter((finding: { rule: string }) => finding.rule === "image-digest");
    expect(found.map((finding: { object: string; path: string; hint: string }) => [finding.object, finding.path, finding.hint])).toContainEqual([
      "Deployment.apps batch/api",
      "spec.template.spec.containers[0].image",
      `use ${front.host}/acme/api:1.0@${digests.api}: set pinImages: true on jobs, and chartroom deploys it so`,
    ]);
    expect(found.some((finding: { path: string }) => finding.path.endsWith("containers[1].image"))).toBe(false); // busybox is given by digest
    const elsewhere = found.find((finding: { path: string }) => finding.path.endsWith("containers[2].image"));
    expect(elsewhere.hint).toContain('declare registries["quay.example.test"]');

    const pinned = await platform({ production: true, pinImages: true });
    expect((await cli(pinned, ["lock"], ENV)).exitCode).toBe(0);
    const after = JSON.parse((await cli(pinned, ["check", "--format", "json"], ENV)).output);
    // Only the image no registry could lock stays a finding.
    expect(
      after.findings.filter((finding: { rule: string }) => finding.rule === "image-digest").map((finding: { path: string }) => finding.path),
    ).toStrictEqual(["spec.template.spec.containers[2].image"]);
  });

  it("renders and diffs the pinned references when pinImages is on, hooks included under helm.v4.Chart", async () => {
    const dir = await platform({ pinImages: true });
    expect((await cli(dir, ["lock"], ENV)).exitCode).toBe(0);
    const rendered = await cli(dir, ["render", "jobs", "--stack", "prod"], ENV);
    expect(rendered.exitCode).toBe(0);
    expect(rendered.output).toContain(`image: ${front.host}/acme/api:1.0@${digests.api}`);
    expect(rendered.output).toContain(`image: ${front.host}/acme/migrate:1.0@${digests.migrate}`);
    expect(rendered.output).toContain(`image: ${privy.host}/acme/report:1.0@${digests.report}`);
    expect(rendered.output).toContain(`image: ${front.host}/acme/widget:2@${digests.widget}`);
    expect(rendered.output).toContain("image: quay.example.test/acme/tool:3\n");
    // A pull request that moves a tag: the review shows the image change, digest to digest, and the pinned references.
    await git(dir, ["init", "-q"]);
    await git(dir, ["add", "-A"]);
    await git(dir, ["-c", "user.name=t", "-c", "user.email=t@example.test", "commit", "-qm", "base"]);
    const next = await pushImage(open.base, "acme/api", "1.1");
    await pushImage(open.base, "acme/migrate", "1.1");
    await mkdir(join(dir, "values", "jobs"), { recursive: true });
    await writeFile(join(dir, "values", "jobs", "values.yaml"), 'tag: "1.1"\n');
    expect((await cli(dir, ["lock"], ENV)).exitCode).toBe(0);
    const diffed = await cli(dir, ["diff", "--base", "HEAD", "--format", "json", "--detailed-exitcode"], ENV);
    expect(diffed.exitCode).toBe(2);
    const images = JSON.parse(diffed.output).charts[0].images;
    expect(images).toContainEqual({
      object: "Deployment.apps batch/api",
      container: "containers[api]",
      change: "changed",
      from: { image: `${front.host}/acme/api:1.0@${digests.api}`, digest: digests.api },
      to: { image: `${front.host}/acme/api:1.1@${next}`, digest: next },
    });
    const text = await cli(dir, ["diff", "--base", "HEAD"], ENV);
    expect(text.output).toContain(
      `  images:\n    ~ Deployment.apps batch/api containers[api]: ${front.host}/acme/api:1.0@${digests.api} → ${front.host}/acme/api:1.1@${next}`,
    );
  });

  it("stops a pinned deploy before anything is registered when an image has no locked digest, and plan says so", async () => {
    const dir = await platform({ pinImages: true });
    expect((await cli(dir, ["lock"], ENV)).exitCode).toBe(0);
    const project = await openProject({ dir, env: { ...process.env, ...ENV, CHARTROOM_CACHE: join(dir, ".cache") } });
    const error = await deploymentPlans(project, { stack: "prod" }).catch((caught: unknown) => caught);
    expect(ChartroomError.isInstance(error) && [error.code, error.message, error.details]).toStrictEqual([
      "IMAGE_UNLOCKED",
      "jobs pins its images (pinImages), and charts.lock.json has no digest for 1 of them in stack prod",
      ["Deployment.apps batch/api containers[elsewhere]: quay.example.test/acme/tool:3 (registry not declared)"],
    ]);
    const planned = JSON.parse((await cli(dir, ["plan", "--format", "json"], ENV)).output);
    expect(planned.charts[0].problems).toStrictEqual([
      'IMAGE_UNLOCKED: quay.example.test/acme/tool:3 (prod) has no locked digest, and the chart pins its images: registry quay.example.test is not declared (add registries["quay.example.test"] to the config)',
    ]);
  });

  it("keeps hook images as rendered under helm.v3.Release, whose Helm post-renders no hook", async () => {
    const dir = await platform({ hook: true, pinImages: true });
    expect((await cli(dir, ["lock"], ENV)).exitCode).toBe(0);
    expect((await lockOf(dir)).charts.jobs.engine.name).toBe("release");
    const rendered = await cli(dir, ["render", "jobs", "--stack", "prod", "--format", "json"], ENV);
    const objects = JSON.parse(rendered.output).objects as {
      kind: string;
      name: string;
      body: { spec: { template: { spec: { containers: { image: string }[] } } } };
    }[];
    const hook = objects.find((object) => object.kind === "Job" && object.name === "pre");
    const api = objects.find((object) => object.kind === "Deployment");
    expect(hook?.body.spec.template.spec.containers[0]?.image).toBe(`${front.host}/acme/api:1.0`);
    expect(api?.body.spec.template.spec.containers[0]?.image).toBe(`${front.host}/acme/api:1.0@${digests.api}`);
  });
});
