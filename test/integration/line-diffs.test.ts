// A chart bump that changes one line of a ConfigMap's file, one panel of a
// dashboard kept as one line of JSON and one flag of a controller, rendered by
// the real helm: each shows as a few lines of a unified diff, in every format.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packChart } from "../helpers/pack.js";
import { runHelm } from "../helpers/helm.js";
import { cli } from "../helpers/platform.js";
import { tempDir } from "../helpers/tmp.js";

function chart(version: 1 | 2): Map<string, Buffer> {
  const next = version === 2;
  const config = Array.from({ length: 30 }, (_, i) => `setting${i}: ${i === 14 && next ? "changed" : `value${i}`}`).join("\n");
  const dashboard = JSON.stringify({
    title: "web",
    panels: Array.from({ length: 8 }, (_, i) => ({ id: i, expr: `rate(http_requests_total{code="5xx"}[${i === 3 && next ? "1m" : "5m"}])` })),
  });
  const args = ["--log-format=json", "--metrics-addr=:9090", "--leader-elect", "--health-probe=:8081", ...(next ? ["--watch-all-namespaces"] : [])];
  return new Map([
    ["Chart.yaml", Buffer.from(`apiVersion: v2\nname: lines\nversion: ${version}.0.0\n`)],
    ["files/app.yaml", Buffer.from(`${config}\n`)],
    ["files/dashboard.json", Buffer.from(dashboard)],
    [
      "templates/objects.yaml",
      Buffer.from(
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  app.yaml: |\n{{ .Files.Get "files/app.yaml" | indent 4 }}\n  dashboard.json: {{ .Files.Get "files/dashboard.json" | quote }}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: manager\nspec:\n  selector: { matchLabels: { app: manager } }\n  template:\n    metadata: { labels: { app: manager } }\n    spec:\n      containers:\n        - name: manager\n          image: manager:1\n          args:\n${args.map((arg) => `            - ${arg}`).join("\n")}\n`,
      ),
    ],
  ]);
}

async function platform(): Promise<string> {
  const dir = await tempDir("chartroom-lines-");
  await mkdir(join(dir, "charts"));
  for (const version of [1, 2] as const)
    await writeFile(join(dir, "charts", `lines-${version}.0.0.tgz`), await packChart("lines", chart(version), new Date(0)));
  await runHelm(4, ["repo", "index", join(dir, "charts")], dir);
  await writeFile(
    join(dir, "chartroom.config.ts"),
    'import { defineConfig } from "chartroom";\nexport default defineConfig({\n  repositories: { local: "file://./charts" },\n  charts: { lines: { repository: "local", version: "1.0.0", namespace: "apps" } },\n  stacks: { dev: { kubeVersion: "1.31.0" } },\n});\n',
  );
  expect((await cli(dir, ["lock"])).errors).toBe("");
  return dir;
}

interface Change {
  path: string;
  lines?: { form: string; added: number; removed: number; hunks: { lines: string[] }[] };
}

describe("long values, line by line", () => {
  it("diffs a ConfigMap's file, a dashboard's JSON and a container's flags by line, three lines of context, in JSON, text and markdown", async () => {
    const dir = await platform();
    const json = await cli(dir, ["diff", "lines", "--to", "2.0.0", "--format", "json"]);
    const changes =
      (JSON.parse(json.output) as { charts: { objects: { display: string; changes: Change[] }[] }[] }).charts[0]?.objects.flatMap((object) => object.changes) ??
      [];
    const byPath = new Map(changes.map((change) => [change.path, change.lines]));
    expect(byPath.get('data["app.yaml"]')).toMatchObject({ form: "text", added: 1, removed: 1 });
    expect(byPath.get('data["app.yaml"]')?.hunks[0]?.lines).toStrictEqual([
      " setting11: value11",
      " setting12: value12",
      " setting13: value13",
      "-setting14: value14",
      "+setting14: changed",
      " setting15: value15",
      " setting16: value16",
      " setting17: value17",
    ]);
    expect(byPath.get('data["dashboard.json"]')).toMatchObject({ form: "json", added: 1, removed: 1 });
    expect(byPath.get("spec.template.spec.containers[name=manager].args")).toMatchObject({ form: "list", added: 1, removed: 0 });
    const text = await cli(dir, ["diff", "lines", "--to", "2.0.0"]);
    expect(text.output).toContain("        -setting14: value14\n        +setting14: changed");
    // Thirty lines of file, not sixty: the rest of the file is not repeated.
    expect(text.output.split("\n").filter((line) => line.includes("setting"))).toHaveLength(8);
    const markdown = await cli(dir, ["diff", "lines", "--to", "2.0.0", "--format", "markdown"]);
    expect(markdown.output).toContain('@@ -12,7 +12,7 @@ data["app.yaml"]\n setting11: value11');
    expect(markdown.output).toMatch(/^-\s+"expr": "rate\(http_requests_total\{code=\\"5xx\\"\}\[5m\]\)"$/m);
    expect(markdown.output).toContain("+--watch-all-namespaces");
  });

  it("takes -C/--context-lines like helm-diff's -C (--context names the cluster's context), and refuses one that is not a whole number", async () => {
    const dir = await platform();
    const narrow = await cli(dir, ["diff", "lines", "--to", "2.0.0", "-C", "0", "--format", "json"]);
    const changes =
      (JSON.parse(narrow.output) as { charts: { objects: { changes: Change[] }[] }[] }).charts[0]?.objects.flatMap((object) => object.changes) ?? [];
    expect(changes.find((change) => change.path === 'data["app.yaml"]')?.lines?.hunks[0]?.lines).toStrictEqual(["-setting14: value14", "+setting14: changed"]);
    const bad = await cli(dir, ["diff", "lines", "--to", "2.0.0", "--context-lines", "three"]);
    expect([bad.exitCode, bad.errors.split("\n")[0]]).toStrictEqual([1, 'error USAGE: --context-lines takes a whole number, not "three"']);
  });
});
