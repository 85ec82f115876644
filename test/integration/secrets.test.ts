// A secret audit: distinctive secrets planted in values (one of which the
// chart also puts in a `fail` message) and in repository credentials; every
// command in every format, failing runs included; then stdout, stderr, the
// lock, the cache folder and temporary files are searched for each secret,
// plain, base64 and URL-encoded.
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FORMATS, formatsOf } from "../../src/report/formats.js";
import { materialise, serveRepository } from "../helpers/chart-repo.js";
import { runHelm } from "../helpers/helm.js";
import { cli, copyPlatform, editFile } from "../helpers/platform.js";

const VALUES_SECRET = "Planted-Values-Secret-7731";
/** Only ever in the chart's fail message: the values file's key is all that marks it secret. */
const TOKEN = "Planted-Api-Token-6604";
const USER = "planted-user-5520";
const PASSWORD = "Planted-Repo-Password-4419";
const SECRETS = [VALUES_SECRET, TOKEN, USER, PASSWORD];

function forms(secret: string): string[] {
  return [secret, Buffer.from(secret).toString("base64"), encodeURIComponent(secret), Buffer.from(`${USER}:${PASSWORD}`).toString("base64")];
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

describe("a secret audit of every command", () => {
  it("finds no planted secret in any output, the lock, the cache or temporary files", async () => {
    const dir = await copyPlatform();
    // webapp 1.0.2 refuses to render at debug level, naming the password in its message.
    const chart = await materialise("webapp", "1.0.1", join(dir, ".work"));
    await editFile(join(chart, "Chart.yaml"), (text) => text.replace("version: 1.0.1", "version: 1.0.2"));
    await writeFile(
      join(chart, "templates", "refuse.yaml"),
      '{{- if eq .Values.config.logLevel "debug" }}{{ fail (printf "will not run at debug with the password %s and the token %s" .Values.auth.password .Values.auth.apiToken) }}{{- end }}\n',
    );
    await runHelm(4, ["package", chart, "--destination", join(dir, "charts")], dir);
    await runHelm(4, ["repo", "index", join(dir, "charts"), "--merge", join(dir, "charts", "index.yaml")], dir);
    // The same charts behind Basic auth, webapp from there.
    const server = await serveRepository(join(dir, "charts"), { basic: { username: USER, password: PASSWORD } });
    await editFile(join(dir, "chartroom.config.ts"), (text) =>
      text
        .replace(
          'local: "file://./charts",',
          `local: "file://./charts",\n    remote: { url: "${server.url}/", auth: { usernameEnv: "CHARTS_USER", passwordEnv: "CHARTS_PASSWORD" } },`,
        )
        .replace('webapp: { repository: "local", version: "~1.0.0"', 'webapp: { repository: "remote", version: "1.0.1"'),
    );
    await writeFile(join(dir, "values", "webapp", "dev.yaml"), `auth:\n  password: ${VALUES_SECRET}\n  apiToken: ${TOKEN}\nconfig:\n  logLevel: debug\n`);
    const env = { CHARTS_USER: USER, CHARTS_PASSWORD: PASSWORD };
    const tempBefore = new Set(await readdir(tmpdir()));
    const outputs: string[] = [];
    const run = async (argv: string[], extra: NodeJS.ProcessEnv = {}) => {
      const result = await cli(dir, argv, { ...env, ...extra });
      outputs.push(`$ chartroom ${argv.join(" ")}\n${result.output}\n${result.errors}`);
      return result;
    };
    const locked = await run(["lock", "webapp"]);
    expect(locked.exitCode, locked.errors).toBe(0);
    const commands: [string, string[]][] = [
      ["lock", ["lock"]],
      ["verify", ["lock", "--frozen"]],
      ["plan", ["plan"]],
      ["outdated", ["outdated"]],
      ["check", ["check"]],
      ["render", ["render", "webapp", "--stack", "prod"]],
      ["diff", ["diff", "webapp", "--to", "1.0.2", "--stack", "prod"]],
      ["explain", ["explain", "webapp"]],
      ["upgrade", ["upgrade", "--dry-run"]],
      ["types", ["types", "--check"]],
    ];
    for (const [kind, argv] of commands) {
      for (const format of FORMATS.filter((item) => formatsOf(kind as never).includes(item))) await run([...argv, "--format", format]);
    }
    // Failing runs: the chart's fail message, a render failing on it, a refused password.
    const failing = await run(["diff", "webapp", "--to", "1.0.2", "--stack", "dev"]);
    expect(failing.errors).toContain("will not run at debug with the password *** and the token ***");
    await run(["render", "webapp", "--stack", "dev", "--no-cache"]);
    await run(["lock", "webapp"], { CHARTS_PASSWORD: `${PASSWORD}-wrong` });
    expect(outputs.length).toBeGreaterThan(30);
    const places: Record<string, string> = {
      "stdout and stderr": outputs.join("\n"),
      "charts.lock.json": await readFile(join(dir, "charts.lock.json"), "utf8"),
    };
    for (const file of await filesUnder(join(dir, ".cache"))) places[file] = (await readFile(file)).toString("latin1");
    for (const file of await filesUnder(join(dir, ".chartroom"))) places[file] = (await readFile(file)).toString("latin1");
    for (const name of (await readdir(tmpdir())).filter((item) => !tempBefore.has(item) && item.startsWith("chartroom-"))) {
      const path = join(tmpdir(), name);
      for (const file of (await stat(path)).isDirectory() ? await filesUnder(path) : [path]) places[file] = (await readFile(file)).toString("latin1");
    }
    const found = Object.entries(places).flatMap(([place, text]) =>
      SECRETS.flatMap((secret) =>
        forms(secret)
          .filter((form) => text.includes(form))
          .map((form) => `${place}: ${form}`),
      ),
    );
    expect(found).toStrictEqual([]);
    // The audit reads what it claims to: the cache holds the renders, sealed.
    expect(Object.keys(places).some((place) => place.includes(join(".cache", "render")))).toBe(true);
  }, 240_000);

  it("finds no planted secret in any escaped, encoded or partial form, in every format", async () => {
    const dir = await copyPlatform();
    // Secrets a JSON, HTML, markdown or YAML renderer would escape; one over several lines; a 3-character one;
    // keys the scrubber must know (dbPass, tls.key, apikey).
    const tricky = 'Tr1cky"Quote\\Back<Angle>&Amp';
    const pem = "-----BEGIN PRIVATE KEY-----\nQXVkaXRLZXlNYXRlcmlhbExpbmVPbmVYWVo=\nQXVkaXRLZXlNYXRlcmlhbExpbmVUd29YWVo=\n-----END PRIVATE KEY-----";
    const short = "q7z";
    const dbPass = "Audit-Db-Pass-8821";
    const chart = await materialise("webapp", "1.0.1", join(dir, ".work"));
    await editFile(join(chart, "Chart.yaml"), (text) => text.replace("version: 1.0.1", "version: 1.0.2"));
    await writeFile(
      join(chart, "templates", "refuse.yaml"),
      '{{- if eq .Values.config.logLevel "debug" }}{{ fail (printf "refusing: %s" (b64enc .Values.auth.password)) }}{{- end }}\n',
    );
    await runHelm(4, ["package", chart, "--destination", join(dir, "charts")], dir);
    await runHelm(4, ["repo", "index", join(dir, "charts"), "--merge", join(dir, "charts", "index.yaml")], dir);
    const yaml = (text: string) => JSON.stringify(text);
    await writeFile(
      join(dir, "values", "webapp", "prod.yaml"),
      `auth:\n  password: ${yaml(tricky)}\npodAnnotations:\n  example.test/dbPass: ${yaml(dbPass)}\n  tls.key: ${yaml(pem)}\n  apikey: ${short}\n`,
    );
    await writeFile(join(dir, "values", "webapp", "dev.yaml"), `auth:\n  password: ${yaml(tricky)}\nconfig:\n  logLevel: debug\n`);
    const outputs: string[] = [];
    for (const format of FORMATS) {
      for (const argv of [
        ["render", "webapp", "--stack", "prod"],
        ["diff", "webapp", "--to", "1.0.2", "--stack", "prod"],
        ["check", "webapp"],
      ]) {
        if (!formatsOf(argv[0] as never).includes(format)) continue;
        const result = await cli(dir, [...argv, "--format", format]);
        outputs.push(`$ ${argv.join(" ")} --format ${format}\n${result.output}\n${result.errors}`);
      }
    }
    const failing = await cli(dir, ["diff", "webapp", "--to", "1.0.2", "--stack", "dev"]);
    expect(failing.errors).toContain("refusing: ***");
    outputs.push(failing.errors);
    const text = outputs.join("\n");
    // The annotations are there (masked): the audit reads what it claims to.
    expect(text).toContain("example.test/dbPass");
    const html = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    const forms = [
      tricky,
      JSON.stringify(tricky).slice(1, -1),
      html(tricky),
      html(JSON.stringify(tricky).slice(1, -1)),
      tricky.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"),
      Buffer.from(tricky).toString("base64"),
      encodeURIComponent(tricky),
      dbPass,
      Buffer.from(dbPass).toString("base64"),
      ...pem.split("\n"),
      JSON.stringify(pem).slice(1, -1),
    ];
    expect(forms.filter((form) => text.includes(form))).toStrictEqual([]);
    expect(text).not.toMatch(new RegExp(`(?<![A-Za-z0-9_])${short}(?![A-Za-z0-9_])`));
  }, 240_000);
});
