// About a hundred bad inputs, each on a fresh copy of the example platform:
// the run fails with its coded error (or exits 2 with the finding's rule),
// prints no stack trace, and leaves every file of the platform byte-identical.
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createServer as createHttpsServer } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, copyPlatform, editFile, ROOT } from "../helpers/platform.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { makeCertificates } from "../helpers/registry.js";
import { tarball } from "../helpers/tarball.js";
import { addChart, CONFIGMAP } from "../helpers/hostile.js";

interface Context {
  http: string;
  https: string;
  ca: string;
}

interface Case {
  /** The error code (exit 1 unless `exit` says), or the finding's rule when exit is 2. */
  code: string;
  argv: string[];
  setup?: (dir: string, context: Context) => Promise<void>;
  env?: NodeJS.ProcessEnv;
  exit?: 1 | 2;
}

const WEBAPP_101 = "webapp-1.0.1.tgz";

/** Every file of the platform (the test's own cache aside), by content digest. */
async function fingerprint(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (relative(dir, path) === ".cache") continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile())
        out[relative(dir, path)] = createHash("sha256")
          .update(await readFile(path))
          .digest("hex");
      else out[relative(dir, path)] = entry.isFIFO() ? "fifo" : "other";
    }
  };
  await walk(dir);
  return out;
}

const config = (dir: string, edit: (text: string) => string) => editFile(join(dir, "chartroom.config.ts"), edit);
const values = (dir: string, file: string, text: string | Buffer) => writeFile(join(dir, "values", file), text);
const index = (dir: string, edit: (text: string) => string) => editFile(join(dir, "charts", "index.yaml"), edit);

/** webapp from the fault server's `mode`, 1.0.1, with a short timeout. */
function remoteWebapp(base: (context: Context) => string, mode: string, extra = "") {
  return async (dir: string, context: Context) =>
    config(dir, (text) =>
      text
        .replace('local: "file://./charts",', `local: "file://./charts",\n    remote: { url: "${base(context)}/${mode}/", timeoutMs: 400${extra} },`)
        .replace('webapp: { repository: "local", version: "~1.0.0"', 'webapp: { repository: "remote", version: "1.0.1"'),
    );
}
const http = (mode: string, extra = "") => remoteWebapp((context) => context.http, mode, extra);

/** A file repository `bad/` holding one archive as webapp 1.0.2, listed with its true digest. */
function badArchive(data: () => Promise<Buffer>, listedVersion = "1.0.2") {
  return async (dir: string) => {
    const archive = await data();
    const digest = createHash("sha256").update(archive).digest("hex");
    await mkdir(join(dir, "bad"));
    await writeFile(join(dir, "bad", "webapp-1.0.2.tgz"), archive);
    await writeFile(
      join(dir, "bad", "index.yaml"),
      `apiVersion: v1\nentries:\n  webapp:\n    - name: webapp\n      version: ${listedVersion}\n      digest: ${digest}\n      urls:\n        - webapp-1.0.2.tgz\n`,
    );
    await config(dir, (text) =>
      text
        .replace('local: "file://./charts",', 'local: "file://./charts",\n    bad: "file://./bad",')
        .replace('webapp: { repository: "local", version: "~1.0.0"', `webapp: { repository: "bad", version: "${listedVersion}"`),
    );
  };
}

const chartYaml = (name = "webapp", version = "1.0.2") => `apiVersion: v2\nname: ${name}\nversion: ${version}\n`;
const ALIAS_BOMB =
  'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n';

const CASES: Record<string, Case> = {
  // Usage
  "an unknown command": { code: "USAGE", argv: ["frobnicate"] },
  "no command at all": { code: "USAGE", argv: [] },
  "an unknown option": { code: "USAGE", argv: ["plan", "--frob"] },
  "a misspelt option": { code: "USAGE", argv: ["check", "--stak", "dev"] },
  "a format the command does not print": { code: "USAGE", argv: ["plan", "--format", "yaml"] },
  "--format without a value": { code: "USAGE", argv: ["plan", "--format"] },
  "--to and --base together": { code: "USAGE", argv: ["diff", "webapp", "--to", "1.0.1", "--base", "HEAD"] },
  "diff -f without --to": { code: "USAGE", argv: ["diff", "-f", "values/webapp/values.yaml"] },
  "several stacks, render without --stack": { code: "USAGE", argv: ["render", "webapp"] },
  "CHARTROOM_TODAY that is not a date": { code: "USAGE", argv: ["check", "webapp", "--stack", "dev"], env: { CHARTROOM_TODAY: "tomorrow" } },
  // Names
  "a misspelt chart in plan": { code: "UNKNOWN_CHART", argv: ["plan", "webap"] },
  "a misspelt chart in outdated": { code: "UNKNOWN_CHART", argv: ["outdated", "webap"] },
  "a misspelt chart in check": { code: "UNKNOWN_CHART", argv: ["check", "webap"] },
  "a misspelt chart in upgrade": { code: "UNKNOWN_CHART", argv: ["upgrade", "webap", "--dry-run"] },
  "a misspelt chart in explain": { code: "UNKNOWN_CHART", argv: ["explain", "webap"] },
  "a misspelt chart in lock": { code: "UNKNOWN_CHART", argv: ["lock", "webap"] },
  "a misspelt chart in render": { code: "UNKNOWN_CHART", argv: ["render", "webap", "--stack", "dev"] },
  "a misspelt chart in diff --to": { code: "UNKNOWN_CHART", argv: ["diff", "webap", "--to", "latest"] },
  "an unknown stack in check": { code: "UNKNOWN_STACK", argv: ["check", "--stack", "prd"] },
  "an unknown stack in diff": { code: "UNKNOWN_STACK", argv: ["diff", "webapp", "--to", "latest", "--stack", "prd"] },
  "an unknown stack in render": { code: "UNKNOWN_STACK", argv: ["render", "webapp", "--stack", "prd"] },
  "an unknown stack in upgrade": { code: "UNKNOWN_STACK", argv: ["upgrade", "--dry-run", "--stack", "prd"] },
  "a version that does not exist": { code: "VERSION_NOT_FOUND", argv: ["diff", "webapp", "--to", "9.9.9"] },
  // Config
  "a config file that is not there": { code: "CONFIG_NOT_FOUND", argv: ["plan", "-c", "nowhere.config.ts"] },
  "a syntax error in the config": {
    code: "CONFIG_LOAD_FAILED",
    argv: ["plan"],
    setup: (dir) => config(dir, (text) => text.replace("charts: {", "charts: {{")),
  },
  "a config that throws": { code: "CONFIG_LOAD_FAILED", argv: ["plan"], setup: (dir) => config(dir, (text) => `throw new Error("boom");\n${text}`) },
  "a config exporting nothing": { code: "CONFIG_INVALID", argv: ["plan"], setup: (dir) => writeFile(join(dir, "chartroom.config.ts"), "export default 42;\n") },
  "an unknown key in the config": {
    code: "CONFIG_INVALID",
    argv: ["plan"],
    setup: (dir) => config(dir, (text) => text.replace('namespace: "web" }', 'namespace: "web", replicas: 2 }')),
  },
  "a range that is not a range": { code: "CONFIG_INVALID", argv: ["plan"], setup: (dir) => config(dir, (text) => text.replace('"~1.0.0"', '"one point oh"')) },
  "a chart naming an undeclared repository": {
    code: "CONFIG_INVALID",
    argv: ["plan"],
    setup: (dir) => config(dir, (text) => text.replace('webapp: { repository: "local"', 'webapp: { repository: "lokal"')),
  },
  "dependsOn naming an undeclared chart": {
    code: "CONFIG_INVALID",
    argv: ["plan"],
    setup: (dir) => config(dir, (text) => text.replace('dependsOn: ["widgets-operator"]', 'dependsOn: ["widget-operator"]')),
  },
  "dependsOn in a cycle": {
    code: "CONFIG_INVALID",
    argv: ["plan"],
    setup: (dir) =>
      config(dir, (text) =>
        text.replace(
          '"widgets-operator": { repository: "local", version: "1.0.x", namespace: "widgets" }',
          '"widgets-operator": { repository: "local", version: "1.0.x", namespace: "widgets", dependsOn: ["storefront"] }',
        ),
      ),
  },
  "an engine that does not exist": {
    code: "CONFIG_INVALID",
    argv: ["plan"],
    setup: (dir) => config(dir, (text) => text.replace('namespace: "ledger" }', 'namespace: "ledger", engine: "helmfile" }')),
  },
  "a kubeVersion that is not a version": {
    code: "CONFIG_INVALID",
    argv: ["plan"],
    setup: (dir) => config(dir, (text) => text.replace('kubeVersion: "1.31.0"', 'kubeVersion: "latest"')),
  },
  "a repository with an ftp URL": {
    code: "CONFIG_INVALID",
    argv: ["plan"],
    setup: (dir) => config(dir, (text) => text.replace('"file://./charts"', '"ftp://charts.example.test"')),
  },
  "a config file that is a folder": { code: "FILE_UNREADABLE", argv: ["plan", "-c", "folder.config.ts"], setup: (dir) => mkdir(join(dir, "folder.config.ts")) },
  // The lock
  "a lock that is not JSON": { code: "LOCK_INVALID", argv: ["plan"], setup: (dir) => writeFile(join(dir, "charts.lock.json"), "{ not json") },
  "a lock of the wrong shape": {
    code: "LOCK_INVALID",
    argv: ["plan"],
    setup: (dir) => writeFile(join(dir, "charts.lock.json"), '{"lockfileVersion": 1, "charts": []}\n'),
  },
  "a lock from a newer chartroom": {
    code: "LOCK_TOO_NEW",
    argv: ["plan"],
    setup: (dir) => editFile(join(dir, "charts.lock.json"), (text) => text.replace('"lockfileVersion": "1.0"', '"lockfileVersion": "99.0"')),
  },
  "a lock that is a folder": {
    code: "FILE_UNREADABLE",
    argv: ["plan"],
    setup: async (dir) => {
      await rm(join(dir, "charts.lock.json"));
      await mkdir(join(dir, "charts.lock.json"));
    },
  },
  "no lock, then render": { code: "LOCK_MISSING", argv: ["render", "webapp", "--stack", "dev"], setup: (dir) => rm(join(dir, "charts.lock.json")) },
  "a stale lock under --frozen": {
    code: "LOCK_STALE",
    argv: ["lock", "--frozen"],
    setup: (dir) => config(dir, (text) => text.replace('"~1.0.0"', '"^1.0.0"')),
  },
  "a pinned digest edited in the lock": {
    code: "DIGEST_MISMATCH",
    argv: ["lock", "--frozen"],
    setup: (dir) =>
      editFile(join(dir, "charts.lock.json"), (text) => text.replace("7722913d9a0d96c71a3f8b759550e04f706c451e29eca0794f228a7c8850f5a8", "0".repeat(64))),
  },
  "a lock url leaving the repository": {
    code: "INDEX_INVALID",
    argv: ["lock", "--frozen"],
    setup: async (dir) => {
      await editFile(join(dir, "charts.lock.json"), (text) => text.replace(`"url": "${WEBAPP_101}"`, '"url": "../../../etc/passwd"'));
      await index(dir, (text) => text.replace(/\n {4}- apiVersion: v2\n(?: {6}.*\n)*? {6}version: 1\.0\.1\n/, "\n"));
    },
  },
  "another writer holding the lock": {
    code: "LOCK_BUSY",
    argv: ["lock"],
    env: { CHARTROOM_LOCK_WAIT_MS: "300" },
    setup: async (dir) => {
      const holder = spawn("sleep", ["30"], { stdio: "ignore" });
      after.push(() => holder.kill());
      await mkdir(join(dir, ".chartroom"), { recursive: true });
      await writeFile(
        join(dir, ".chartroom", "writer.lock"),
        JSON.stringify({ pid: holder.pid, host: execFileSync("hostname").toString().trim(), command: "chartroom lock", started: Date.now(), token: "other" }),
      );
    },
  },
  // The repository index
  "an index that is not YAML": {
    code: "INDEX_INVALID",
    argv: ["lock", "webapp"],
    setup: (dir) => writeFile(join(dir, "charts", "index.yaml"), "entries: [unclosed\n"),
  },
  "an index without entries": {
    code: "INDEX_INVALID",
    argv: ["lock", "webapp"],
    setup: (dir) => writeFile(join(dir, "charts", "index.yaml"), "apiVersion: v1\n"),
  },
  "an index that is a folder": {
    code: "FILE_UNREADABLE",
    argv: ["lock", "webapp"],
    setup: async (dir) => {
      await rm(join(dir, "charts", "index.yaml"));
      await mkdir(join(dir, "charts", "index.yaml"));
    },
  },
  "no index at all": { code: "INDEX_INVALID", argv: ["lock", "webapp"], setup: (dir) => rm(join(dir, "charts", "index.yaml")) },
  "a duplicate key in the index": {
    code: "INDEX_INVALID",
    argv: ["lock", "webapp"],
    setup: (dir) => index(dir, (text) => text.replace("      version: 0.2.0\n", "      version: 0.2.0\n      version: 0.2.1\n")),
  },
  "an alias bomb in the index": {
    code: "INDEX_INVALID",
    argv: ["lock", "webapp"],
    setup: (dir) => writeFile(join(dir, "charts", "index.yaml"), `apiVersion: v1\n${ALIAS_BOMB}entries: *a\n`),
  },
  "an archive url leaving the folder": {
    code: "INDEX_INVALID",
    argv: ["lock", "webapp"],
    setup: (dir) => index(dir, (text) => text.replace(`- ${WEBAPP_101}`, "- ../../outside.tgz")),
  },
  "an archive listed and missing": { code: "HTTP_NOT_FOUND", argv: ["lock", "webapp"], setup: (dir) => rm(join(dir, "charts", WEBAPP_101)) },
  "an archive whose digest differs from the index": {
    code: "DIGEST_MISMATCH",
    argv: ["lock", "webapp"],
    setup: (dir) => writeFile(join(dir, "charts", WEBAPP_101), Buffer.from("not the chart")),
  },
  "the pinned version gone from the index": {
    code: "VERSION_NOT_FOUND",
    argv: ["lock"],
    setup: (dir) => index(dir, (text) => text.replace(/\n {4}- apiVersion: v2\n(?: {6}.*\n)*? {6}version: 1\.0\.1\n/, "\n")),
  },
  "the pinned version republished with other bytes": {
    code: "DIGEST_MISMATCH",
    argv: ["lock", "webapp"],
    setup: async (dir) => {
      const other = await readFile(join(dir, "charts", "webapp-1.0.0.tgz"));
      const fake = await tarball([
        { name: "webapp/Chart.yaml", content: chartYaml("webapp", "1.0.1") },
        { name: "webapp/values.yaml", content: "x: 1\n" },
      ]);
      await writeFile(join(dir, "charts", WEBAPP_101), fake);
      const digest = createHash("sha256").update(fake).digest("hex");
      await index(dir, (text) => text.replace("7722913d9a0d96c71a3f8b759550e04f706c451e29eca0794f228a7c8850f5a8", digest));
      expect(other.length).toBeGreaterThan(0);
    },
  },
  // Archives
  "an archive that is not gzip": { code: "ARCHIVE_INVALID", argv: ["lock", "webapp"], setup: badArchive(async () => Buffer.from("plain text, not a tarball")) },
  "an archive with an entry climbing out": {
    code: "ARCHIVE_UNSAFE",
    argv: ["lock", "webapp"],
    setup: badArchive(() =>
      tarball([
        { name: "webapp/Chart.yaml", content: chartYaml() },
        { name: "webapp/../../evil.yaml", content: "x" },
      ]),
    ),
  },
  "an archive with an absolute path": {
    code: "ARCHIVE_UNSAFE",
    argv: ["lock", "webapp"],
    setup: badArchive(() =>
      tarball([
        { name: "webapp/Chart.yaml", content: chartYaml() },
        { name: "/etc/evil", content: "x" },
      ]),
    ),
  },
  "an archive with a symbolic link": {
    code: "ARCHIVE_UNSAFE",
    argv: ["lock", "webapp"],
    setup: badArchive(() =>
      tarball([
        { name: "webapp/Chart.yaml", content: chartYaml() },
        { name: "webapp/templates/link.yaml", type: "symlink", linkname: "/etc/passwd" },
      ]),
    ),
  },
  "an archive with a device": {
    code: "ARCHIVE_UNSAFE",
    argv: ["lock", "webapp"],
    setup: badArchive(() =>
      tarball([
        { name: "webapp/Chart.yaml", content: chartYaml() },
        { name: "webapp/dev", type: "character-device" },
      ]),
    ),
  },
  "an archive without Chart.yaml": {
    code: "ARCHIVE_INVALID",
    argv: ["lock", "webapp"],
    setup: badArchive(() => tarball([{ name: "webapp/values.yaml", content: "a: 1\n" }])),
  },
  "an archive whose Chart.yaml is not YAML": {
    code: "ARCHIVE_INVALID",
    argv: ["lock", "webapp"],
    setup: badArchive(() => tarball([{ name: "webapp/Chart.yaml", content: "name: [unclosed\n" }])),
  },
  "an archive holding another chart than listed": {
    code: "ARCHIVE_INVALID",
    argv: ["lock", "webapp"],
    setup: badArchive(() => tarball([{ name: "webapp/Chart.yaml", content: chartYaml("evil", "1.0.2") }])),
  },
  "an archive holding another version than listed": {
    code: "ARCHIVE_INVALID",
    argv: ["lock", "webapp"],
    setup: badArchive(() => tarball([{ name: "webapp/Chart.yaml", content: chartYaml("webapp", "6.6.6") }])),
  },
  "an archive with a file over 5 MB": {
    code: "ARCHIVE_TOO_LARGE",
    argv: ["lock", "webapp"],
    setup: badArchive(() =>
      tarball([
        { name: "webapp/Chart.yaml", content: chartYaml() },
        { name: "webapp/big.bin", content: Buffer.alloc(6 << 20) },
      ]),
    ),
  },
  // Values files
  "a values file that is not YAML": {
    code: "VALUES_FILE_INVALID",
    argv: ["check", "webapp"],
    setup: (dir) => values(dir, "webapp/dev.yaml", "image: [unclosed\n"),
  },
  "a values file holding a list": { code: "VALUES_FILE_INVALID", argv: ["check", "webapp"], setup: (dir) => values(dir, "webapp/dev.yaml", "- a\n- b\n") },
  "a values file that is a folder": { code: "FILE_UNREADABLE", argv: ["check", "webapp"], setup: (dir) => mkdir(join(dir, "values", "webapp", "dev.yaml")) },
  "a values file that is a pipe": {
    code: "FILE_UNREADABLE",
    argv: ["check", "webapp"],
    setup: async (dir) => void execFileSync("mkfifo", [join(dir, "values", "webapp", "dev.yaml")]),
  },
  "a values file that is not UTF-8": {
    code: "FILE_NOT_UTF8",
    argv: ["check", "webapp"],
    setup: (dir) => values(dir, "webapp/dev.yaml", Buffer.from([0x61, 0x3a, 0x20, 0xff, 0xfe, 0x0a])),
  },
  "a control character in a values file (Helm refuses it)": {
    code: "VALUES_FILE_INVALID",
    argv: ["check", "webapp"],
    setup: (dir) => values(dir, "webapp/dev.yaml", 'replicaCount: 1\nimage:\n  tag: "x\u0001y"\n'),
  },
  "a duplicate key in a values file": {
    code: "VALUES_FILE_INVALID",
    argv: ["check", "webapp"],
    setup: (dir) => values(dir, "webapp/dev.yaml", "replicaCount: 1\nreplicaCount: 2\n"),
  },
  "an alias bomb in a values file": { code: "INPUT_TOO_LARGE", argv: ["check", "webapp"], setup: (dir) => values(dir, "webapp/dev.yaml", ALIAS_BOMB) },
  "a values file over the size limit": {
    code: "INPUT_TOO_LARGE",
    argv: ["check", "webapp"],
    env: { CHARTROOM_MAX_FILE_BYTES: "1024" },
    setup: (dir) => values(dir, "webapp/dev.yaml", `podAnnotations:\n${Array.from({ length: 400 }, (_, i) => `  a${i}: b\n`).join("")}`),
  },
  "a value of the wrong type": { code: "type", exit: 2, argv: ["check", "webapp"], setup: (dir) => values(dir, "webapp/dev.yaml", 'replicaCount: "three"\n') },
  "a value outside its enum": {
    code: "enum",
    exit: 2,
    argv: ["check", "webapp"],
    setup: (dir) => values(dir, "webapp/dev.yaml", "config:\n  logLevel: loud\n"),
  },
  "a misspelt values key": { code: "unknown-key", exit: 2, argv: ["check", "webapp"], setup: (dir) => values(dir, "webapp/dev.yaml", "replicaCont: 2\n") },
  "values for an undeclared chart, --strict": {
    code: "values-file-unread",
    exit: 2,
    argv: ["check", "--strict"],
    setup: async (dir) => {
      await mkdir(join(dir, "values", "webap"));
      await values(dir, "webap/values.yaml", "a: 1\n");
    },
  },
  "values for an undeclared stack, --strict": {
    code: "values-file-unread",
    exit: 2,
    argv: ["check", "--strict"],
    setup: (dir) => values(dir, "webapp/production.yaml", "replicaCount: 3\n"),
  },
  "values files as .yml, --strict": {
    code: "values-file-unread",
    exit: 2,
    argv: ["check", "--strict"],
    setup: (dir) => values(dir, "webapp/dev.yml", "replicaCount: 3\n"),
  },
  "a values file given with -f that is missing": { code: "FILE_UNREADABLE", argv: ["diff", "webapp", "--to", "latest", "-f", "nowhere.yaml"] },
  // Policies
  "a policy file that is not YAML": {
    code: "POLICY_INVALID",
    argv: ["check", "webapp"],
    setup: (dir) => writeFile(join(dir, "policies", "bad.yaml"), "rules: [unclosed\n"),
  },
  "a policy file with an unknown key": {
    code: "POLICY_INVALID",
    argv: ["check", "webapp"],
    setup: (dir) => writeFile(join(dir, "policies", "bad.yaml"), "ruels: {}\n"),
  },
  "a policy file naming an unknown rule": {
    code: "POLICY_INVALID",
    argv: ["check", "webapp"],
    setup: (dir) => writeFile(join(dir, "policies", "bad.yaml"), "rules: { imag-tag: off }\n"),
  },
  "an exception for an undeclared chart": {
    code: "POLICY_INVALID",
    argv: ["check", "webapp"],
    setup: (dir) => writeFile(join(dir, "policies", "bad.yaml"), "exceptions:\n  - { rule: image-tag, chart: webap, reason: x }\n"),
  },
  "an exception without a reason": {
    code: "POLICY_INVALID",
    argv: ["check", "webapp"],
    setup: (dir) => writeFile(join(dir, "policies", "bad.yaml"), "exceptions:\n  - { rule: image-tag, chart: webapp }\n"),
  },
  "a custom rule with a syntax error": {
    code: "CONFIG_LOAD_FAILED",
    argv: ["check", "webapp"],
    setup: (dir) => writeFile(join(dir, "policies", "bad.ts"), "export default {{\n"),
  },
  "a custom rule that is not a rule": {
    code: "POLICY_INVALID",
    argv: ["check", "webapp"],
    setup: (dir) => writeFile(join(dir, "policies", "bad.ts"), "export default { id: 'Bad Id' };\n"),
  },
  "a custom rule reusing a built-in id": {
    code: "POLICY_INVALID",
    argv: ["check", "webapp"],
    setup: (dir) => writeFile(join(dir, "policies", "bad.ts"), 'export default { id: "image-tag", description: "x", severity: "error", check: () => [] };\n'),
  },
  // HTTP repositories
  "a repository answering 401": { code: "HTTP_AUTH", argv: ["lock", "webapp"], setup: http("401") },
  "a repository answering 403": { code: "HTTP_AUTH", argv: ["lock", "webapp"], setup: http("403") },
  "a repository answering 404 for the index": { code: "HTTP_NOT_FOUND", argv: ["lock", "webapp"], setup: http("404") },
  "a repository answering 404 for the archive": { code: "HTTP_NOT_FOUND", argv: ["lock", "webapp"], setup: http("no-archive") },
  "a repository answering 500": { code: "HTTP_FAILED", argv: ["lock", "webapp"], setup: http("500") },
  "a repository answering 503 with a long Retry-After": { code: "HTTP_FAILED", argv: ["lock", "webapp"], setup: http("503") },
  "a repository that stalls": { code: "HTTP_TIMEOUT", argv: ["lock", "webapp"], setup: http("stall") },
  "a repository that truncates the archive": { code: "HTTP_FAILED", argv: ["lock", "webapp"], setup: http("truncate") },
  "a repository serving HTML as its index": { code: "INDEX_INVALID", argv: ["lock", "webapp"], setup: http("html") },
  "a repository redirecting to file://": { code: "HTTP_REDIRECT", argv: ["lock", "webapp"], setup: http("to-file") },
  "a repository redirecting in a loop": { code: "HTTP_FAILED", argv: ["lock", "webapp"], setup: http("loop") },
  "an https repository redirecting to http": {
    code: "HTTP_REDIRECT",
    argv: ["lock", "webapp"],
    setup: async (dir, context) => remoteWebapp((c) => c.https, "to-http", `, caFile: "${context.ca}"`)(dir, context),
  },
  "an https repository with an untrusted certificate": { code: "HTTP_TLS", argv: ["lock", "webapp"], setup: remoteWebapp((c) => c.https, "ok") },
  "a repository nobody listens on": {
    code: "HTTP_FAILED",
    argv: ["lock", "webapp"],
    setup: remoteWebapp(() => "http://127.0.0.1:9", "ok"),
  },
  "credentials named but not set": {
    code: "HTTP_AUTH",
    argv: ["lock", "webapp"],
    setup: http("ok", ', auth: { usernameEnv: "CHARTS_USER", passwordEnv: "CHARTS_PASSWORD" }'),
  },
  // Hostile charts and inputs (the security issue)
  "a schema nested 3,000 deep": {
    code: "ARCHIVE_INVALID",
    argv: ["lock", "hostile"],
    setup: (dir) => hostile(dir, { "values.schema.json": `${'{"properties":{"a":'.repeat(3000)}{}${"}}".repeat(3000)}` }),
  },
  "a schema that is not JSON": { code: "ARCHIVE_INVALID", argv: ["lock", "hostile"], setup: (dir) => hostile(dir, { "values.schema.json": "{ not json" }) },
  "a schema referencing a URL": {
    code: "schema-external-ref",
    exit: 2,
    argv: ["check", "hostile"],
    setup: async (dir) => {
      await hostile(dir, { "values.schema.json": JSON.stringify({ properties: { name: { $ref: "http://127.0.0.1:9/name.json" } } }) });
      await cli(dir, ["lock", "hostile"]);
    },
  },
  "a schema referencing a file": {
    code: "schema-external-ref",
    exit: 2,
    argv: ["check", "hostile"],
    setup: async (dir) => {
      await hostile(dir, { "values.schema.json": JSON.stringify({ properties: { name: { $ref: "file:///etc/passwd" } } }) });
      await cli(dir, ["lock", "hostile"]);
    },
  },
  // Helm refuses such a chart when it renders (check reports schema-invalid for a pin made before).
  "a schema that breaks the meta-schema": {
    code: "HELM_FAILED",
    argv: ["lock", "hostile"],
    setup: (dir) => hostile(dir, { "values.schema.json": JSON.stringify({ properties: { name: { type: "strnig" } } }) }),
  },
  "an object rendered twice": {
    code: "duplicate-object",
    exit: 2,
    argv: ["check", "hostile"],
    setup: async (dir) => {
      await hostile(dir, { "templates/b.yaml": CONFIGMAP });
      await cli(dir, ["lock", "hostile"]);
    },
  },
  "a name over 253 characters": {
    code: "object-name",
    exit: 2,
    argv: ["check", "hostile"],
    setup: async (dir) => {
      await hostile(
        dir,
        {},
        {
          "values.yaml": `name: ok\nlong: ${"n".repeat(260)}\n`,
          "templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.long }}\n",
        },
      );
      await cli(dir, ["lock", "hostile"]);
    },
  },
  "a lock with a __proto__ key": {
    code: "LOCK_INVALID",
    argv: ["plan"],
    setup: (dir) => editFile(join(dir, "charts.lock.json"), (text) => text.replace('"charts": {', '"charts": {\n    "__proto__": { "polluted": true },')),
  },
  "a provenance check with no .prov beside the archive": {
    code: "PROVENANCE_INVALID",
    argv: ["lock", "webapp"],
    setup: async (dir) => {
      await writeFile(join(dir, "keyring.gpg"), "not a key");
      await config(dir, (text) => text.replace('local: "file://./charts",', 'local: { url: "file://./charts", verify: { keyring: "keyring.gpg" } },'));
    },
  },
  "a cache path that is a file": { code: "FILE_UNWRITABLE", argv: ["plan"], env: { CHARTROOM_CACHE: "chartroom.config.ts" } },
};

/** A chart `hostile` (a ConfigMap, and `files` over it) in its own file repository, declared. */
async function hostile(
  dir: string,
  files: Record<string, string>,
  base: Record<string, string> = { "values.yaml": "name: ok\n", "templates/cm.yaml": CONFIGMAP },
): Promise<void> {
  await addChart(dir, "hostile", { ...base, ...files });
}

const after: (() => void)[] = [];

describe("bad input: a coded error, no stack trace, every file unchanged", () => {
  let httpServer: TestServer;
  let httpsClose: () => Promise<void>;
  const context: Context = { http: "", https: "", ca: "" };

  beforeAll(async () => {
    const charts = join(ROOT, "charts");
    httpServer = await startServer((req, res) => void faultyRepository(req, res, charts, () => context.http));
    context.http = httpServer.url;
    const certs = await makeCertificates(await mkdirTemp());
    context.ca = certs.ca;
    const server = createHttpsServer(
      { cert: await readFile(certs.cert), key: await readFile(certs.key) },
      (req, res) => void faultyRepository(req, res, charts, () => context.http),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    context.https = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    httpsClose = () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
  });

  afterAll(async () => {
    for (const stop of after) stop();
    await httpServer?.close();
    await httpsClose?.();
  });

  it("has at least 80 cases", () => {
    expect(Object.keys(CASES).length).toBeGreaterThanOrEqual(80);
  });

  it.each(Object.entries(CASES))("%s", async (_, item) => {
    const dir = await copyPlatform();
    await item.setup?.(dir, context);
    const before = await fingerprint(dir);
    const result = await cli(dir, item.argv, item.env ?? {});
    const printed = `${result.output}\n${result.errors}`;
    expect(printed, "no stack trace").not.toMatch(/^\s+at .+[:(]\d+/m);
    expect(printed).not.toContain("INTERNAL");
    if (item.exit === 2) {
      expect(result.exitCode, printed).toBe(2);
      expect(printed).toContain(`(${item.code})`);
    } else {
      expect(result.exitCode, printed).toBe(1);
      expect(result.errors, printed).toContain(`error ${item.code}:`);
    }
    expect(await fingerprint(dir)).toStrictEqual(before);
  });
});

/** A folder for the certificates, made in beforeAll (outside any test) and removed after all. */
async function mkdirTemp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "chartroom-test-certs-"));
  after.push(() => void rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The example's charts/ as an HTTP repository, misbehaving as the first path segment says. */
async function faultyRepository(req: IncomingMessage, res: ServerResponse, charts: string, httpBase: () => string): Promise<void> {
  const [, mode = "", ...rest] = new URL(req.url ?? "/", "http://x").pathname.split("/");
  const file = rest.join("/");
  const serve = async (): Promise<void> => {
    const body = await readFile(join(charts, file)).catch(() => undefined);
    if (body === undefined || file.includes("..")) res.writeHead(404).end("not found");
    else res.writeHead(200).end(body);
  };
  switch (mode) {
    case "401":
    case "403":
    case "404":
    case "500":
      return void res.writeHead(Number(mode)).end(mode);
    case "503":
      return void res.writeHead(503, { "retry-after": "3600" }).end("maintenance");
    case "stall":
      return; // never answers; the client's timeout ends it
    case "html":
      return void res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Welcome</body></html>");
    case "to-file":
      return void res.writeHead(302, { location: "file:///etc/passwd" }).end();
    case "loop":
      return void res.writeHead(302, { location: req.url ?? "/" }).end();
    case "to-http":
      return void res.writeHead(302, { location: `${httpBase()}/ok/${file}` }).end();
    case "no-archive":
      return file === "index.yaml" ? serve() : void res.writeHead(404).end();
    case "truncate":
      if (file === "index.yaml") return serve();
      res.writeHead(200, { "content-length": "100000" });
      res.write(Buffer.alloc(100));
      return void res.destroy();
    default:
      return serve();
  }
}
