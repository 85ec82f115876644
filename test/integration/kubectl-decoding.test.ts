// chartroom reads rendered manifests as Kubernetes does: generated documents
// with scalars in every form YAML 1.1 and 1.2 read differently (octal, hex,
// yes/no/on/off, y/n keys, underscores, timestamps, floats), quoted and
// plain, decoded by chartroom and by `kubectl create --dry-run=client -o json`
// (the same decoding the API server gets: kubectl sends JSON). kubectl needs
// discovery, which a small server on loopback answers; nothing is created.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseManifest } from "../../src/render/manifest.js";
import { kubectl } from "../helpers/kubectl.js";
import { tempDir } from "../helpers/tmp.js";

const run = promisify(execFile);

const PLAIN = [
  "0755",
  "0644",
  "0",
  "-0",
  "+12",
  "012",
  "08",
  "0x1F",
  "0o17",
  "0b101",
  "1_000",
  "1e3",
  "1.5",
  ".5",
  "1.",
  "-2.5e-3",
  "yes",
  "Yes",
  "no",
  "NO",
  "on",
  "Off",
  "y",
  "n",
  "Y",
  "true",
  "False",
  "~",
  "null",
  "2024-01-01",
  "2001-12-14t21:59:43.10-05:00",
  "12:30",
  "1.2.3",
  "v1",
  "abc",
  "0755a",
  "1_0x",
  "+.5",
  "-.5",
  "0.0",
];
const KEYS = ["plain", "y", "n", "on", "off", "yes", "no", "true", "1", "010"];

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/** A ConfigMap-shaped document whose `spec` holds scalars in plain, single- and double-quoted forms. */
function document(index: number, next: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const lines = [`apiVersion: v1`, `kind: ConfigMap`, `metadata:`, `  name: c${index}`, `spec:`];
  for (let i = 0; i < 12; i++) {
    const scalar = pick(PLAIN);
    const form = next();
    const written = form < 0.6 ? scalar : form < 0.8 ? `'${scalar}'` : `"${scalar}"`;
    const style = next();
    if (style < 0.5) lines.push(`  k${i}: ${written}`);
    else if (style < 0.7) lines.push(`  k${i}: [${written}, ${pick(PLAIN)}]`, `  ${pick(KEYS)}${i}: x`);
    else if (style < 0.85) lines.push(`  k${i}:`, `    - ${written}`);
    else lines.push(`  k${i}:`, `    ${pick(KEYS)}: ${written}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Discovery for the kinds used, as the API server would answer it. */
function discovery(): Promise<Server> {
  const verbs = ["create", "get", "list"];
  const docs: Record<string, unknown> = {
    "/api": { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [] },
    "/apis": { kind: "APIGroupList", apiVersion: "v1", groups: [] },
    "/api/v1": {
      kind: "APIResourceList",
      groupVersion: "v1",
      resources: [{ name: "configmaps", singularName: "", namespaced: true, kind: "ConfigMap", verbs }],
    },
  };
  const server = createServer((req, res) => {
    const doc = docs[new URL(req.url ?? "/", "http://x").pathname];
    res.writeHead(doc === undefined ? 404 : 200, { "content-type": "application/json" }).end(JSON.stringify(doc ?? { kind: "Status", code: 404 }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** kubectl prints one JSON object per document, one after the other. */
function objects(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split(/\n(?=\{\n)/)
    .map((text) => JSON.parse(text) as Record<string, unknown>);
}

describe("manifests decoded as kubectl decodes them", () => {
  let server: Server;
  beforeAll(async () => {
    server = await discovery();
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("agrees on 300 generated documents, field by field", async () => {
    const dir = await tempDir("chartroom-kubectl-");
    const next = random(42);
    const documents = Array.from({ length: 300 }, (_, i) => document(i, next));
    const text = documents.join("---\n");
    await writeFile(join(dir, "manifest.yaml"), text);
    const port = (server.address() as AddressInfo).port;
    const { stdout } = await run(
      await kubectl(),
      ["--server", `http://127.0.0.1:${port}`, "create", "--dry-run=client", "-o", "json", "--validate=false", "-f", join(dir, "manifest.yaml")],
      { env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: join(dir, "none") }, maxBuffer: 64 << 20 },
    );
    const theirs = objects(stdout);
    const ours = parseManifest(text, "default", "generated");
    expect(ours).toHaveLength(300);
    expect(theirs).toHaveLength(300);
    for (const [i, object] of ours.entries()) {
      expect(object.body.spec, documents[i]).toStrictEqual(theirs[i]?.spec);
    }
  });

  it("reads defaultMode: 0755 as 493, as the API server does", async () => {
    const [pod] = parseManifest(
      "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  volumes:\n    - name: s\n      secret:\n        secretName: s\n        defaultMode: 0755\n",
      "default",
      "p",
    );
    expect((pod?.body.spec as { volumes: { secret: { defaultMode: number } }[] } | undefined)?.volumes[0]?.secret.defaultMode).toBe(493);
  });
});
