import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { readChartArchive } from "../../src/chart/archive.js";
import { inspectArchive } from "../../src/chart/inspect.js";
import { ChartroomError } from "../../src/errors/index.js";
import { HELM_YAML } from "../../src/util/helm-yaml.js";
import { ROOT } from "../helpers/platform.js";
import { MINIMAL_CHART_YAML, tarball } from "../helpers/tarball.js";

async function refusal(data: Buffer, limits?: Parameters<typeof readChartArchive>[2]): Promise<ChartroomError> {
  const error = await readChartArchive(data, "tiny-0.1.0", limits).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ChartroomError.isInstance(error)) throw new Error(`expected a ChartroomError, got ${String(error)}`);
  return error;
}

const chart = (extra: Parameters<typeof tarball>[0]) => tarball([{ name: "tiny/Chart.yaml", content: MINIMAL_CHART_YAML }, ...extra]);

describe("readChartArchive refuses hostile archives", () => {
  it.each([
    ["a ../ entry", [{ name: "tiny/../../etc/evil", content: "x" }], "`..` path segments"],
    ["an absolute path", [{ name: "/etc/evil", content: "x" }], "absolute paths"],
    ["a symlink escaping the chart", [{ name: "tiny/templates/link", type: "symlink" as const, linkname: "../../../etc/passwd" }], "escapes the chart"],
    ["an absolute symlink", [{ name: "tiny/templates/link", type: "symlink" as const, linkname: "/etc/passwd" }], "escapes the chart"],
    ["a hard link escaping", [{ name: "tiny/templates/hard", type: "link" as const, linkname: "../outside" }], "escapes the chart"],
    ["a character device", [{ name: "tiny/dev", type: "character-device" as const }], "character-device"],
    ["a FIFO", [{ name: "tiny/pipe", type: "fifo" as const }], "fifo"],
    ["a second top folder", [{ name: "other/Chart.yaml", content: "x" }], "under one folder"],
  ])("refuses %s", async (_, entries, reason) => {
    const error = await refusal(await chart(entries));
    expect(error.code).toBe("ARCHIVE_UNSAFE");
    expect(error.message).toContain(reason);
    expect(error.place.chart).toBe("tiny-0.1.0");
  });

  it("refuses a file over the per-file cap", async () => {
    const error = await refusal(await chart([{ name: "tiny/big.bin", content: Buffer.alloc(2048) }]), { maxFileBytes: 1024, maxTotalBytes: 1 << 20 });
    expect(error.code).toBe("ARCHIVE_TOO_LARGE");
    expect(error.message).toContain("tiny/big.bin");
  });

  it("refuses an archive that unpacks past the total cap (a gzip bomb)", async () => {
    const bomb = gzipSync(Buffer.alloc(4 << 20));
    const error = await refusal(bomb, { maxFileBytes: 1 << 30, maxTotalBytes: 1 << 20 });
    expect(error.code).toBe("ARCHIVE_TOO_LARGE");
  });

  it("calls a truncated archive invalid", async () => {
    const whole = await readFile(join(ROOT, "charts", "webapp-1.0.1.tgz"));
    const error = await refusal(whole.subarray(0, Math.floor(whole.length / 2)));
    expect(error.code).toBe("ARCHIVE_INVALID");
    expect(error.message).toMatch(/truncated|unexpected end/i);
  });

  it("calls something that is not gzip invalid", async () => {
    expect((await refusal(Buffer.from("<html>404</html>"))).code).toBe("ARCHIVE_INVALID");
  });

  it("keeps links that stay inside the chart out of the file map", async () => {
    const files = await readChartArchive(await chart([{ name: "tiny/templates/a.yaml", type: "symlink", linkname: "b.yaml" }]), "tiny");
    expect([...files.files.keys()]).toStrictEqual(["Chart.yaml"]);
  });
});

describe("inspectArchive", () => {
  it("tells a chart that renders the same every time from one that calls random or time, subcharts included", async () => {
    const chart = (template: string, files: { name: string; content: string }[] = []) =>
      tarball([{ name: "c/Chart.yaml", content: MINIMAL_CHART_YAML }, { name: "c/templates/cm.yaml", content: template }, ...files]);
    expect((await inspectArchive(await chart("kind: ConfigMap\ndata: { a: {{ .Values.a | quote }} }\n"), "c")).deterministic).toBe(true);
    for (const call of ["randAlphaNum 16", "uuidv4", 'genCA "x" 365', 'now | date "2006"']) {
      expect((await inspectArchive(await chart(`data: { a: {{ ${call} }} }\n`), "c")).deterministic, call).toBe(false);
    }
    // tpl renders the values: deterministic unless what it can render from the chart's own files calls such a function.
    const tpl = "data: { a: {{ tpl .Values.t . }} }\n";
    expect(await inspectArchive(await chart(tpl), "c")).toMatchObject({ deterministic: true, evaluatesValues: true, readsClock: false });
    expect(await inspectArchive(await chart(tpl, [{ name: "c/values.yaml", content: "t: '{{ randAlphaNum 8 }}'\n" }]), "c")).toMatchObject({
      deterministic: false,
      evaluatesValues: true,
    });
    expect(await inspectArchive(await chart(tpl, [{ name: "c/files/banner.txt", content: 'at {{ now | date "15:04" }}\n' }]), "c")).toMatchObject({
      deterministic: false,
      readsClock: true,
    });
    // Without tpl, the same files are only data.
    expect(await inspectArchive(await chart("data: { a: b }\n", [{ name: "c/values.yaml", content: "t: '{{ randAlphaNum 8 }}'\n" }]), "c")).toMatchObject({
      deterministic: true,
      evaluatesValues: false,
    });
    // Words outside actions call nothing: NOTES.txt prose (prometheus-node-exporter's "Metrics endpoints is now HTTPS"), comments, file names.
    expect(
      await inspectArchive(
        await chart("# rendered once for now; see _helpers.tpl\n{{/* rotate with randAlphaNum later */}}data: { a: {{ .Values.a | quote }} }\n", [
          { name: "c/templates/NOTES.txt", content: "- Metrics endpoints is now HTTPS\n{{ .Release.Name }} is running now\n" },
        ]),
        "c",
      ),
    ).toMatchObject({ deterministic: true, readsClock: false, roundsClock: false, evaluatesValues: false });
    // `ago` and `durationRound` of a time give the time since then, rounded: they read the clock, and need renders a whole second apart.
    for (const call of ['ago (toDate "2006-01-02" "2020-01-01")', "durationRound .Values.since"]) {
      const found = await inspectArchive(await chart(`data: { a: {{ ${call} | quote }} }\n`), "c");
      expect(found, call).toMatchObject({ deterministic: false, readsClock: true, roundsClock: true });
    }
    expect(await inspectArchive(await chart('data: { a: {{ now | date "2006" }} }\n'), "c")).toMatchObject({ readsClock: true, roundsClock: false });
    // storefront packs webapp, whose Secret defaults to randAlphaNum.
    expect((await inspectArchive(await readFile(join(ROOT, "charts", "storefront-0.1.0.tgz")), "storefront")).deterministic).toBe(false);
    expect((await inspectArchive(await readFile(join(ROOT, "charts", "ledger-0.1.0.tgz")), "ledger")).deterministic).toBe(true);
  });

  it("reads the web app: schema with its dialect, no hooks, no CRDs", async () => {
    const inspection = await inspectArchive(await readFile(join(ROOT, "charts", "webapp-1.0.1.tgz")), "webapp-1.0.1");
    expect(inspection).toMatchObject({ apiVersion: "v2", name: "webapp", version: "1.0.1", appVersion: "1.4.1", type: "application", crds: [], hooks: {} });
    expect(inspection.schema?.dialect).toBe("http://json-schema.org/draft-07/schema#");
    expect(inspection.schema?.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(inspection.defaults).toMatchObject({ replicaCount: 2, service: { port: 80 } });
    expect(inspection.templates).toContain("templates/deployment.yaml");
  });

  it("lists the CRDs of subcharts, packed and unpacked, and the versions the archive vendors", async () => {
    const crd = (name: string) => `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ${name}\n`;
    const operator = await tarball([
      { name: "operator/Chart.yaml", content: "apiVersion: v2\nname: operator\nversion: 2.3.4\n" },
      { name: "operator/crds/things.yaml", content: crd("things.example.com") },
    ]);
    const parent = await tarball([
      {
        name: "stack/Chart.yaml",
        content:
          "apiVersion: v2\nname: stack\nversion: 1.0.0\ndependencies:\n  - name: operator\n    version: ^2.0.0\n    repository: https://charts.example.test\n",
      },
      { name: "stack/crds/own.yaml", content: crd("own.example.com") },
      { name: "stack/charts/operator-2.3.4.tgz", content: operator },
      { name: "stack/charts/plain/Chart.yaml", content: "apiVersion: v2\nname: plain\nversion: 0.1.0\n" },
      { name: "stack/charts/plain/crds/plain.yaml", content: crd("plain.example.com") },
    ]);
    const inspection = await inspectArchive(parent, "stack-1.0.0");
    expect(inspection.crds).toStrictEqual(["own.example.com", "plain.example.com", "things.example.com"]);
    expect(inspection.dependencies).toStrictEqual([
      { name: "operator", version: "^2.0.0", repository: "https://charts.example.test", vendored: true, vendoredVersion: "2.3.4" },
    ]);
  });

  it("finds hook events and keeps test hooks apart by event name", async () => {
    const inspection = await inspectArchive(await readFile(join(ROOT, "charts", "ledger-0.1.0.tgz")), "ledger");
    expect(inspection.hooks).toStrictEqual({
      "pre-install": ["templates/migrate-job.yaml"],
      "pre-upgrade": ["templates/migrate-job.yaml"],
      test: ["templates/tests/test-connection.yaml"],
    });
  });

  it("lists the CRDs shipped in crds/", async () => {
    const inspection = await inspectArchive(await readFile(join(ROOT, "charts", "widgets-operator-1.0.0.tgz")), "widgets");
    expect(inspection.crds).toStrictEqual(["widgets.example.com"]);
  });

  it("lists an umbrella chart's vendored dependency", async () => {
    const inspection = await inspectArchive(await readFile(join(ROOT, "charts", "storefront-0.1.0.tgz")), "storefront");
    expect(inspection.dependencies).toStrictEqual([
      { name: "webapp", version: "1.0.1", repository: "file://../../webapp/1.0.1", vendored: true, vendoredVersion: "1.0.1" },
    ]);
  });

  it("reads a v1 chart's dependencies from requirements.yaml", async () => {
    const data = await tarball([
      { name: "old/Chart.yaml", content: "apiVersion: v1\nname: old\nversion: 0.3.0\n" },
      {
        name: "old/requirements.yaml",
        content: "dependencies:\n  - name: redis\n    version: ~10\n    repository: https://charts.example.test\n    condition: redis.enabled\n",
      },
    ]);
    const inspection = await inspectArchive(data, "old");
    expect(inspection.apiVersion).toBe("v1");
    expect(inspection.dependencies).toStrictEqual([
      { name: "redis", version: "~10", repository: "https://charts.example.test", condition: "redis.enabled", vendored: false },
    ]);
  });

  it("reads a chart's defaults as Helm does (YAML 1.1), plain block YAML or not, and names values.yaml when it is broken", async () => {
    const defaults = async (content: string) => (await inspectArchive(await chart([{ name: "tiny/values.yaml", content }]), "tiny")).defaults;
    const plain = 'a: yes\nb: 0x1F\nc: "x\\ty"\nd: [1, on]\ne:\n  - 1_000\nf: ~\n';
    const anchors = "p: &a yes\nq: *a\nz: 0x1F\n";
    expect(await defaults(plain)).toStrictEqual(parseYaml(plain, HELM_YAML));
    expect(await defaults(plain)).toStrictEqual({ a: true, b: 31, c: "x\ty", d: [1, true], e: [1000], f: null });
    expect(await defaults(anchors)).toStrictEqual({ p: true, q: true, z: 31 });
    expect(await defaults("- a\n- b\n")).toStrictEqual({});
    expect(await defaults("")).toStrictEqual({});
    const error = await defaults("a: [unclosed\n").catch((e: unknown) => e);
    expect(ChartroomError.isInstance(error) && [error.code, error.place.file]).toStrictEqual(["ARCHIVE_INVALID", "values.yaml"]);
  });

  // Helm fetches a `$ref` out of the schema (Helm 3 and 4), and a meta-schema it does not carry that a `$schema` names (Helm 4).
  it("tells what Helm would fetch validating values: a reference, or an unknown meta-schema, in the chart's schema or a subchart's", async () => {
    const withSchema = async (schema: object, where = "c/values.schema.json", packed = false) => {
      const files = [{ name: where, content: JSON.stringify(schema) }];
      const sub = [
        { name: "sub/Chart.yaml", content: "apiVersion: v2\nname: sub\nversion: 0.1.0\n" },
        ...files.map((f) => ({ ...f, name: "sub/values.schema.json" })),
      ];
      const entries = packed ? [{ name: "c/charts/sub-0.1.0.tgz", content: await tarball(sub) }] : files;
      const found = await inspectArchive(await tarball([{ name: "c/Chart.yaml", content: MINIMAL_CHART_YAML }, ...entries]), "c");
      return [found.schemaReachesOut, found.schemaNamesUnknownMeta];
    };
    expect(await withSchema({ properties: { a: { $ref: "https://x.test/a.json" } } })).toStrictEqual([true, false]);
    expect(await withSchema({ $schema: "https://x.test/meta.json" })).toStrictEqual([false, true]);
    // vault's spelling, which Helm carries.
    expect(await withSchema({ $schema: "https://json-schema.org/draft-07/schema#", properties: { a: { type: "string" } } })).toStrictEqual([false, false]);
    expect(await withSchema({ $schema: "https://x.test/meta.json" }, "c/charts/sub/values.schema.json")).toStrictEqual([false, true]);
    expect(await withSchema({ properties: { a: { $ref: "other.json" } } }, "c/charts/sub/values.schema.json")).toStrictEqual([true, false]);
    expect(await withSchema({ $schema: "https://x.test/meta.json" }, "", true)).toStrictEqual([false, true]);
    expect(await withSchema({ properties: { a: { $ref: "other.json" } } }, "", true)).toStrictEqual([true, false]);
  });

  it("names the file when Chart.yaml is broken", async () => {
    const error = await inspectArchive(await tarball([{ name: "bad/Chart.yaml", content: "name: [unclosed\n" }]), "bad").catch((e: unknown) => e);
    expect(ChartroomError.isInstance(error) && error.code).toBe("ARCHIVE_INVALID");
    expect((error as ChartroomError).place.file).toBe("Chart.yaml");
  });

  it("refuses a chart without Chart.yaml", async () => {
    const error = await inspectArchive(await tarball([{ name: "x/values.yaml", content: "a: 1\n" }]), "x").catch((e: unknown) => e);
    expect((error as ChartroomError).message).toContain("no Chart.yaml");
  });
});
