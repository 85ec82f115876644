// Secrets through the real engine: a password in a values file given to a
// helm.v3.Release, and a secret given in code that a chart writes outside a
// Secret in nine forms (escaped, encoded, cased, one line of a multi-line
// value, inside base64). None of them may reach a preview or the state.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packChart } from "../helpers/pack.js";
import { ExampleProject, type Outcome, ENGINE_TEST_MS } from "../helpers/engine.js";
import { runHelm } from "../helpers/helm.js";

const RELEASE_PASSWORD = "Planted-Release-Password-3390";
const TOKEN = 'Probe"Token&Mixed/Case-8812';
const PEM =
  "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nbW9yZS1wcm9iZS1rZXktbWF0ZXJpYWwtZm9yLXRoZS10ZXN0\n-----END PRIVATE KEY-----";

function ok(outcome: Outcome, what: string): Outcome {
  if (outcome.code !== 0) throw new Error(`${what} failed (${outcome.code}):\n${outcome.stdout}${outcome.stderr}`);
  return outcome;
}

/** A chart that writes the token into a ConfigMap in nine forms. */
const PROBES = `apiVersion: v1
kind: ConfigMap
metadata:
  name: probes
  annotations:
    probe/upper: {{ .Values.token | upper | quote }}
data:
  exact: {{ .Values.token | quote }}
  b64: {{ .Values.token | b64enc | quote }}
  json: {{ .Values | toJson | quote }}
  url: {{ .Values.token | urlquery | quote }}
  indented: |
{{ .Values.pem | indent 4 }}
  basic: {{ printf "%s:%s" .Values.user .Values.token | b64enc | quote }}
  lower: {{ .Values.token | lower | quote }}
  embedded: {{ printf "prefix-%s-suffix" .Values.token | quote }}
  b64json: {{ dict "password" .Values.token | toJson | b64enc | quote }}
`;

/** Every form the planted values may take, as they would stand in the state's JSON. */
function forms(): string[] {
  const raw = [
    RELEASE_PASSWORD,
    TOKEN,
    TOKEN.toUpperCase(),
    TOKEN.toLowerCase(),
    encodeURIComponent(TOKEN),
    Buffer.from(TOKEN).toString("base64"),
    Buffer.from(`admin:${TOKEN}`).toString("base64"),
    Buffer.from(JSON.stringify({ password: TOKEN })).toString("base64"),
    Buffer.from(RELEASE_PASSWORD).toString("base64"),
    Buffer.from(PEM).toString("base64"),
    ...PEM.split("\n").filter((line) => line.length > 20),
  ];
  return [...new Set(raw.flatMap((form) => [form, JSON.stringify(form).slice(1, -1), JSON.stringify(JSON.stringify(form).slice(1, -1)).slice(1, -1)]))];
}

function planted(text: string): string[] {
  return forms().filter((form) => text.includes(form));
}

describe("secrets through the real engine", () => {
  let project: ExampleProject;
  let previewJson: Outcome;
  let previewDiff: Outcome;
  let up: Outcome;

  beforeAll(async () => {
    project = await ExampleProject.create("chartroom-engine-secrets-");
    // The Release chart (ledger) gets a password from its values file.
    await writeFile(join(project.dir, "values", "ledger", "values.yaml"), `database:\n  host: postgres.data.svc\n  password: ${RELEASE_PASSWORD}\n`);
    // The probes chart, in a repository of its own, as helm.v4.Chart.
    const archive = await packChart(
      "probes",
      new Map([
        ["Chart.yaml", Buffer.from("apiVersion: v2\nname: probes\nversion: 1.0.0\n")],
        ["values.yaml", Buffer.from('token: ""\npem: ""\nuser: admin\n')],
        ["templates/cm.yaml", Buffer.from(PROBES)],
      ]),
      new Date(0),
    );
    await mkdir(join(project.dir, "probes"));
    await writeFile(join(project.dir, "probes", "probes-1.0.0.tgz"), archive);
    await runHelm(4, ["repo", "index", join(project.dir, "probes")], project.dir);
    const config = join(project.dir, "chartroom.config.ts");
    await writeFile(
      config,
      (await readFile(config, "utf8"))
        .replace('local: "file://./charts",', 'local: "file://./charts",\n    probes: "file://./probes",')
        .replace("charts: {", 'charts: {\n    probes: { repository: "probes", version: "1.0.0", namespace: "web" },'),
    );
    const program = join(project.dir, "pulumi", "index.ts");
    await writeFile(
      program,
      (await readFile(program, "utf8")).replace(
        "  values: {",
        '  values: {\n    probes: { token: settings.requireSecret("probeToken"), pem: settings.requireSecret("probePem") },',
      ),
    );
    ok(await project.chartroom(["lock"]), "chartroom lock");
    ok(await project.chartroom(["types"]), "chartroom types");
    await project.initStack("dev", "planted-engine-secret-0001");
    ok(await project.pulumi(["config", "set", "--secret", "probeToken", TOKEN]), "config set probeToken");
    // A value starting with dashes is read as an option: given base64-encoded, decoded by the program.
    ok(await project.pulumi(["config", "set", "--secret", "probePem", Buffer.from(PEM).toString("base64")]), "config set probePem");
    previewJson = await project.pulumi(["preview", "--json"]);
    previewDiff = await project.pulumi(["preview", "--diff"]);
    up = await project.pulumi(["up", "--yes", "--exclude", "**kubernetes:helm.sh/v3:Release**"]);
  }, ENGINE_TEST_MS);

  afterAll(() => project?.remove());

  it("previews the Release with its values kept secret: no planted password in --json or --diff", () => {
    expect(previewJson.code, previewJson.stderr).toBe(0);
    expect(previewDiff.code, previewDiff.stderr).toBe(0);
    expect(previewDiff.stdout).toContain("kubernetes:helm.sh/v3:Release");
    expect(planted(previewJson.stdout + previewJson.stderr)).toStrictEqual([]);
    expect(planted(previewDiff.stdout + previewDiff.stderr)).toStrictEqual([]);
  });

  it("keeps every form of a code-given secret that a chart writes outside a Secret out of the state", async () => {
    expect(up.code, up.stderr + up.stdout).toBe(0);
    expect(up.stdout).toContain("probes:web/probes puts a secret given in code outside a Secret");
    for (const field of [
      "data.exact",
      "data.b64",
      "data.json",
      "data.url",
      "data.indented",
      "data.basic",
      "data.lower",
      "data.embedded",
      "data.b64json",
      "metadata.annotations.probe/upper",
    ])
      expect(up.stdout).toContain(field);
    const state = ok(await project.pulumi(["stack", "export"]), "pulumi stack export").stdout;
    const files = await readdir(join(project.dir, ".state"), { recursive: true, withFileTypes: true });
    const onDisk = (await Promise.all(files.filter((file) => file.isFile()).map((file) => readFile(join(file.parentPath, file.name), "utf8")))).join("\n");
    expect(planted(state)).toStrictEqual([]);
    expect(planted(onDisk)).toStrictEqual([]);
    // The object itself holds the secret in the clear, as the cluster would: the probes are real.
    const written = await readFile(
      join(project.rendered, "1-manifest", (await readdir(join(project.rendered, "1-manifest"))).find((name) => name.includes("probes")) ?? ""),
      "utf8",
    );
    expect(written).toContain(TOKEN.toUpperCase());
  });
});
