import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { loadChartFiles, FIXTURES } from "../../scripts/fixtures.js";
import type { HelmMajor } from "../../src/render/helm-binary.js";
import { runHelm } from "./helm.js";
import { startServer, type TestServer } from "./http-server.js";

/** Materialise a fixture chart version (BASE overlays applied) as a plain chart folder. */
export async function materialise(name: string, version: string, into: string): Promise<string> {
  const dir = join(into, "src", name, version, name);
  for (const [path, data] of await loadChartFiles(join(FIXTURES, name, version))) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), data);
  }
  return dir;
}

/** Package fixture charts with the real helm and index them with `helm repo index`. */
export async function helmRepository(major: HelmMajor, dir: string, charts: [string, string][], indexUrl?: string): Promise<string> {
  const out = join(dir, "repo");
  await mkdir(out, { recursive: true });
  for (const [name, version] of charts) {
    await runHelm(major, ["package", await materialise(name, version, dir), "--destination", out], dir);
  }
  await runHelm(major, ["repo", "index", out, ...(indexUrl ? ["--url", indexUrl] : [])], dir);
  return out;
}

export interface RepoServerOptions {
  /** Required Basic credentials, or a bearer token. */
  basic?: { username: string; password: string };
  token?: string;
}

/** Knobs a test turns to make the server misbehave. */
export interface Faults {
  /** Answer this many requests with 500 before behaving. */
  failures: number;
  /** Accept requests and never answer. */
  hang: boolean;
  /** Replace a file's body (by path) with these bytes. */
  override: Map<string, Buffer>;
}

/** A static chart repository on loopback with ETag / Last-Modified and optional auth. */
export async function serveRepository(root: string, options: RepoServerOptions = {}): Promise<TestServer & { faults: Faults; statuses: number[] }> {
  const faults: Faults = { failures: 0, hang: false, override: new Map() };
  const statuses: number[] = [];
  const send = (res: ServerResponse, status: number, body?: Buffer, headers: Record<string, string> = {}) => {
    statuses.push(status);
    res.writeHead(status, headers).end(body);
  };
  const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
    if (faults.hang) return;
    if (faults.failures > 0) {
      faults.failures--;
      return send(res, 500, Buffer.from("boom"));
    }
    if (!authorised(req, options)) return send(res, 401, Buffer.from("unauthorised"), { "www-authenticate": 'Basic realm="charts"' });
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname).replace(/^\/+/, "");
    void (async () => {
      const body = faults.override.get(path) ?? (await readFile(join(root, path)).catch(() => undefined));
      if (body === undefined || path.includes("..")) return send(res, 404, Buffer.from("not found"));
      const etag = `"${createHash("sha1").update(body).digest("hex")}"`;
      if (req.headers["if-none-match"] === etag) return send(res, 304);
      send(res, 200, body, { etag, "last-modified": "Mon, 02 Nov 2026 10:00:00 GMT" });
    })();
  });
  return Object.assign(server, { faults, statuses });
}

function authorised(req: IncomingMessage, options: RepoServerOptions): boolean {
  const header = req.headers.authorization ?? "";
  if (options.token !== undefined) return header === `Bearer ${options.token}`;
  if (options.basic !== undefined) {
    return header === `Basic ${Buffer.from(`${options.basic.username}:${options.basic.password}`).toString("base64")}`;
  }
  return true;
}

/** Write a chartroom.config.ts declaring `charts` from one repository. */
export async function writeConfig(dir: string, repository: Record<string, unknown>, charts: Record<string, Record<string, unknown>>): Promise<void> {
  const text = `import { defineConfig } from "chartroom";\nexport default defineConfig(${JSON.stringify({ repositories: { remote: repository }, charts }, null, 2)});\n`;
  await writeFile(join(dir, "chartroom.config.ts"), text);
}
