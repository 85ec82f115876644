// What changes on every render is noise, not change: random object names,
// values derived from the clock (even when two renders fall in the same
// second), and none of it reaches the lock.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packChart } from "../helpers/pack.js";
import { countingHelm, runHelm } from "../helpers/helm.js";
import { cli } from "../helpers/platform.js";
import { tempDir } from "../helpers/tmp.js";

function noisyChart(version: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const put = (path: string, text: string) => files.set(path, Buffer.from(text));
  put("Chart.yaml", `apiVersion: v2\nname: noisy\nversion: ${version}\n`);
  put("values.yaml", "greeting: hello\n");
  // A one-off job's config, named afresh at every render.
  put(
    "templates/run-config.yaml",
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-run-{{ randAlphaNum 6 | lower }}\ndata:\n  greeting: {{ .Values.greeting | quote }}\n",
  );
  // A test hook Pod with a random suffix.
  put(
    "templates/tests/ping.yaml",
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Release.Name }}-ping-{{ randAlphaNum 5 | lower }}\n  annotations:\n    helm.sh/hook: test\nspec:\n  restartPolicy: Never\n  containers:\n    - { name: ping, image: "busybox:1.36" }\n',
  );
  // A modification time, to the second.
  put(
    "templates/secret.yaml",
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Release.Name }}-stamp\ndata:\n  modified: {{ now | date "2006-01-02T15:04:05" | b64enc }}\n',
  );
  return files;
}

async function project(): Promise<string> {
  const dir = await tempDir("chartroom-noise-");
  await mkdir(join(dir, "charts"));
  for (const version of ["1.0.0", "1.0.1"])
    await writeFile(join(dir, "charts", `noisy-${version}.tgz`), await packChart("noisy", noisyChart(version), new Date(0)));
  await runHelm(4, ["repo", "index", join(dir, "charts")], dir);
  await writeFile(
    join(dir, "chartroom.config.ts"),
    'import { defineConfig } from "chartroom";\nexport default defineConfig({\n  repositories: { local: "file://./charts" },\n  charts: { noisy: { repository: "local", version: "1.0.0", namespace: "apps" } },\n  stacks: { dev: { kubeVersion: "1.31.0" } },\n});\n',
  );
  return dir;
}

interface JsonDiff {
  changed: boolean;
  summary: { rename: number; add: number; delete: number };
  charts: { objects: { display: string; action: string }[]; unstable: { paths: string[] } }[];
}

describe("render noise", () => {
  it("matches objects with random names by template, and marks a clock-derived field as noise", async () => {
    const dir = await project();
    expect((await cli(dir, ["lock"])).errors).toBe("");
    const result = await cli(dir, ["diff", "noisy", "--to", "1.0.1", "--format", "json"]);
    expect(result.errors).toBe("");
    const report = JSON.parse(result.output) as JsonDiff;
    expect([report.summary.rename, report.summary.add, report.summary.delete]).toStrictEqual([0, 0, 0]);
    expect(report.charts[0]?.objects.filter((object) => object.action !== "update")).toStrictEqual([]);
    expect(report.charts[0]?.unstable.paths).toContain("Secret apps/noisy-stamp: data.modified");
    expect(report.changed).toBe(false);
  });

  it("writes a lock with nothing random in it: locking again with an empty cache gives the same bytes", async () => {
    const dir = await project();
    expect((await cli(dir, ["lock"])).errors).toBe("");
    const first = await readFile(join(dir, "charts.lock.json"), "utf8");
    expect(first).toContain('"Pod apps/noisy-ping-*"');
    await rm(join(dir, ".cache"), { recursive: true, force: true });
    await rm(join(dir, "charts.lock.json"));
    expect((await cli(dir, ["lock"])).errors).toBe("");
    expect(await readFile(join(dir, "charts.lock.json"), "utf8")).toBe(first);
  });

  it("renders a noisy chart once for a reader of its objects (check, render), and never hands that rendering to a diff", async () => {
    const dir = await project();
    const counting = await countingHelm(dir);
    const wrapper = counting.path;
    // Each count is of the renders since the one before.
    const renders = async () => {
      const count = await counting.renders();
      await counting.clear();
      return count;
    };
    expect((await cli(dir, ["lock"], { HELM_BIN: wrapper })).errors).toBe("");
    // The lock asked which fields change: two renders, a second apart (the chart reads the clock).
    expect(await renders()).toBe(2);
    const fresh = { HELM_BIN: wrapper, CHARTROOM_CACHE: join(dir, ".cache-once") };
    expect((await cli(dir, ["check", "noisy"], fresh)).errors).toBe("");
    expect(await renders()).toBe(1);
    const shown = await cli(dir, ["render", "noisy", "--format", "json"], { ...fresh, CHARTROOM_CACHE: join(dir, ".cache-render") });
    expect(shown.errors).toBe("");
    expect(await renders()).toBe(1);
    expect((JSON.parse(shown.output) as { objects: { name: string }[] }).objects.map((object) => object.name)).toContainEqual(
      expect.stringMatching(/^noisy-ping-[a-z0-9]{5}$/),
    );
    // The lock's rendering, made with the second render, serves a check as well.
    expect((await cli(dir, ["check", "noisy"], { HELM_BIN: wrapper })).errors).toBe("");
    expect(await renders()).toBe(0);
    // A diff does not take the check's one render as its own: both sides are rendered twice, and the noise is still told apart.
    const diff = await cli(dir, ["diff", "noisy", "--to", "1.0.1", "--format", "json"], fresh);
    expect(diff.errors).toBe("");
    expect(await renders()).toBe(4);
    const report = JSON.parse(diff.output) as JsonDiff;
    expect([report.summary.rename, report.summary.add, report.summary.delete]).toStrictEqual([0, 0, 0]);
    expect(report.charts[0]?.unstable.paths).toContain("Secret apps/noisy-stamp: data.modified");
    expect(report.changed).toBe(false);
  });

  it("explains the churn of an object named at random by its pattern, with the step the engine takes", async () => {
    const dir = await tempDir("chartroom-churn-");
    await mkdir(join(dir, "charts"));
    // A ConfigMap named afresh at every render, whose data holds the time: helm.v4.Chart's provider replaces it on every run.
    const files = new Map<string, Buffer>([
      ["Chart.yaml", Buffer.from("apiVersion: v2\nname: stamped\nversion: 1.0.0\n")],
      [
        "templates/cm.yaml",
        Buffer.from(
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-run-{{ randAlphaNum 6 | lower }}\ndata:\n  stamp: {{ now | date "2006-01-02T15:04:05" | quote }}\n',
        ),
      ],
    ]);
    await writeFile(join(dir, "charts", "stamped-1.0.0.tgz"), await packChart("stamped", files, new Date(0)));
    await runHelm(4, ["repo", "index", join(dir, "charts")], dir);
    await writeFile(
      join(dir, "chartroom.config.ts"),
      'import { defineConfig } from "chartroom";\nexport default defineConfig({\n  repositories: { local: "file://./charts" },\n  charts: { stamped: { repository: "local", version: "1.0.0", namespace: "apps" } },\n  stacks: { dev: { kubeVersion: "1.31.0" } },\n});\n',
    );
    expect((await cli(dir, ["lock"])).errors).toBe("");
    expect(await readFile(join(dir, "charts.lock.json"), "utf8")).toContain('"ConfigMap apps/stamped-run-*: data.stamp"');
    const explained = await cli(dir, ["explain", "stamped", "--format", "json"]);
    expect(explained.errors).toBe("");
    expect((JSON.parse(explained.output) as { churn: unknown }).churn).toStrictEqual({
      dev: [{ object: "ConfigMap apps/stamped-run-*", fields: ["data.stamp"], step: "replace" }],
    });
  });

  it("renders a chart that only calls tpl once per side, unless the values it renders call something random", async () => {
    const dir = await twoVersions("banner", {
      "values.yaml": 'banner: "hello from {{ .Release.Name }}"\n',
      "templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  banner: {{ tpl .Values.banner . | quote }}\n",
    });
    // A helm that writes down every render it is asked for.
    const counting = await countingHelm(dir);
    const wrapper = counting.path;
    const renders = counting.renders;
    expect((await cli(dir, ["lock"], { HELM_BIN: wrapper })).errors).toBe("");
    await counting.clear();
    const quiet = await cli(dir, ["diff", "banner", "--to", "1.0.1", "--format", "json"], { HELM_BIN: wrapper, CHARTROOM_CACHE: join(dir, ".cache-quiet") });
    expect(await renders()).toBe(2);
    expect((JSON.parse(quiet.output) as JsonDiff).charts[0]?.unstable.paths).toStrictEqual([]);
    // The platform's values now give tpl something random to render: both sides are rendered twice, and the field is noise.
    await mkdir(join(dir, "values", "banner"), { recursive: true });
    await writeFile(join(dir, "values", "banner", "values.yaml"), 'banner: "{{ randAlphaNum 8 }}"\n');
    await counting.clear();
    const noisy = await cli(dir, ["diff", "banner", "--to", "1.0.1", "--format", "json"], { HELM_BIN: wrapper, CHARTROOM_CACHE: join(dir, ".cache-noisy") });
    expect(await renders()).toBe(4);
    expect((JSON.parse(noisy.output) as JsonDiff).charts[0]?.unstable.paths).toStrictEqual(["ConfigMap apps/banner: data.banner"]);
  });

  it("renders the pinned side once when the lock recorded its fields for the same inputs, and holds no secret in that record", async () => {
    const dir = await twoVersions("keyed", {
      "values.yaml": 'auth:\n  password: ""\ngreeting: hello\n',
      "templates/secret.yaml":
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Release.Name }}-auth\ndata:\n  password: {{ .Values.auth.password | default (randAlphaNum 16) | b64enc | quote }}\n",
      "templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  greeting: {{ .Values.greeting | quote }}\n",
    });
    const counting = await countingHelm(dir);
    const env = (cache: string) => ({ HELM_BIN: counting.path, CHARTROOM_CACHE: join(dir, cache) });
    const lockFile = join(dir, "charts.lock.json");
    const record = async () =>
      (JSON.parse(await readFile(lockFile, "utf8")) as { charts: Record<string, { renderInputs?: Record<string, { digest: string; secretPaths: string[] }> }> })
        .charts.keyed?.renderInputs?.dev;
    expect((await cli(dir, ["lock"], env(".cache"))).errors).toBe("");
    expect(await counting.renders()).toBe(2);
    expect(await record()).toStrictEqual({ digest: expect.stringMatching(/^[0-9a-f]{64}$/), secretPaths: [] });
    const diff = async (cache: string) => {
      await counting.clear();
      const result = await cli(dir, ["diff", "keyed", "--to", "1.0.1", "--format", "json"], env(cache));
      expect(result.errors).toBe("");
      const report = JSON.parse(result.output) as JsonDiff;
      return { renders: await counting.renders(), unstable: report.charts[0]?.unstable.paths, changed: report.changed };
    };
    // Three helm runs, not four: the pin's fields that change on every render come from the lock.
    const noise = { unstable: ["Secret apps/keyed-auth: data.password"], changed: false };
    expect(await diff(".cache-1")).toStrictEqual({ renders: 3, ...noise });
    // A value changed since the lock: the record is of other inputs, and the pin is probed again.
    const values = join(dir, "values", "keyed");
    await mkdir(values, { recursive: true });
    await writeFile(join(values, "values.yaml"), "greeting: hi\n");
    expect(await diff(".cache-2")).toStrictEqual({ renders: 4, ...noise });
    // A password set where the chart generated one: probed again, and nothing changes at every render now.
    await writeFile(join(values, "values.yaml"), "greeting: hi\nauth:\n  password: hunter2-first\n");
    expect(await diff(".cache-3")).toStrictEqual({ renders: 4, unstable: [], changed: false });
    // Locked with the password set, the record leaves it out: the lock holds the path, not the value in any form,
    // and a lock made with another password records the same digest.
    expect((await cli(dir, ["lock", "keyed"], env(".cache-4"))).errors).toBe("");
    const withFirst = await record();
    expect(withFirst?.secretPaths).toStrictEqual(['["auth","password"]']);
    const text = await readFile(lockFile, "utf8");
    for (const form of ["hunter2-first", Buffer.from("hunter2-first").toString("base64")]) expect(text).not.toContain(form);
    await writeFile(join(values, "values.yaml"), "greeting: hi\nauth:\n  password: hunter2-second\n");
    expect((await cli(dir, ["lock", "keyed"], env(".cache-5"))).errors).toBe("");
    expect(await record()).toStrictEqual(withFirst);
    expect(await diff(".cache-6")).toStrictEqual({ renders: 3, unstable: [], changed: false });
  });

  it("renders once per side a chart that says `now` only in its prose, and twice a second apart one that calls `ago`", async () => {
    // prometheus-node-exporter's NOTES.txt says "Metrics endpoints is now HTTPS"; it calls nothing random.
    const dir = await twoVersions("exporter", {
      "templates/NOTES.txt": "- Metrics endpoints is now HTTPS\n{{ .Release.Name }} is running now\n",
      "templates/cm.yaml": '# rendered the same for now\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  port: "9100"\n',
    });
    const counting = await countingHelm(dir);
    expect((await cli(dir, ["lock"], { HELM_BIN: counting.path })).errors).toBe("");
    expect(await counting.renders()).toBe(1);
    await counting.clear();
    const diff = await cli(dir, ["diff", "exporter", "--to", "1.0.1", "--format", "json"], {
      HELM_BIN: counting.path,
      CHARTROOM_CACHE: join(dir, ".cache-cold"),
    });
    expect(diff.errors).toBe("");
    expect(await counting.renders()).toBe(2);
    // The time since a date changes from one second to the next: found by two renders a second apart, and noise in a diff.
    const aged = await twoVersions("aged", {
      "values.yaml": "since: 2020-01-01T00:00:00Z\n",
      "templates/cm.yaml":
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  age: {{ ago (toDate "2006-01-02T15:04:05Z07:00" .Values.since) | quote }}\n',
    });
    expect((await cli(aged, ["lock"])).errors).toBe("");
    expect(await readFile(join(aged, "charts.lock.json"), "utf8")).toContain('"ConfigMap apps/aged: data.age"');
    const report = JSON.parse((await cli(aged, ["diff", "aged", "--to", "1.0.1", "--format", "json"])).output) as JsonDiff;
    expect(report.charts[0]?.unstable.paths).toStrictEqual(["ConfigMap apps/aged: data.age"]);
    expect(report.changed).toBe(false);
  });
});

/** A platform of one chart, `name`, with versions 1.0.0 and 1.0.1 of the same files in a local repository; locked at 1.0.0. */
async function twoVersions(name: string, templates: Record<string, string>): Promise<string> {
  const dir = await tempDir(`chartroom-${name}-`);
  await mkdir(join(dir, "charts"));
  for (const version of ["1.0.0", "1.0.1"]) {
    const files = new Map<string, Buffer>([["Chart.yaml", Buffer.from(`apiVersion: v2\nname: ${name}\nversion: ${version}\n`)]]);
    for (const [path, text] of Object.entries(templates)) files.set(path, Buffer.from(text));
    await writeFile(join(dir, "charts", `${name}-${version}.tgz`), await packChart(name, files, new Date(0)));
  }
  await runHelm(4, ["repo", "index", join(dir, "charts")], dir);
  await writeFile(
    join(dir, "chartroom.config.ts"),
    `import { defineConfig } from "chartroom";\nexport default defineConfig({\n  repositories: { local: "file://./charts" },\n  charts: { ${name}: { repository: "local", version: "1.0.0", namespace: "apps" } },\n  stacks: { dev: { kubeVersion: "1.31.0" } },\n});\n`,
  );
  return dir;
}
