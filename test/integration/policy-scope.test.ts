// A review whose CustomResourceDefinition changes re-checks the charts whose
// custom resources belong to its group (as the lock records them), and
// renders no unrelated chart of the stack.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packChart } from "../helpers/pack.js";
import { countingHelm, runHelm } from "../helpers/helm.js";
import { cli } from "../helpers/platform.js";
import { tempDir } from "../helpers/tmp.js";

const chart = (name: string, version: string, templates: Record<string, string>, crds: Record<string, string> = {}) =>
  packChart(
    name,
    new Map([
      ["Chart.yaml", Buffer.from(`apiVersion: v2\nname: ${name}\nversion: ${version}\n`)],
      ...Object.entries(templates).map(([path, text]) => [`templates/${path}`, Buffer.from(text)] as [string, Buffer]),
      ...Object.entries(crds).map(([path, text]) => [`crds/${path}`, Buffer.from(text)] as [string, Buffer]),
    ]),
    new Date(0),
  );

/** Gadgets of ops.example.test; version 2 makes `size` an integer. */
const crd = (sizeType: string) =>
  `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: gadgets.ops.example.test\nspec:\n  group: ops.example.test\n  scope: Namespaced\n  names: { kind: Gadget, plural: gadgets }\n  versions:\n    - name: v1\n      served: true\n      storage: true\n      schema:\n        openAPIV3Schema:\n          type: object\n          properties:\n            spec:\n              type: object\n              properties:\n                size: { type: ${sizeType} }\n`;

const configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata: { a: b }\n";
const gadget = 'apiVersion: ops.example.test/v1\nkind: Gadget\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  size: "large"\n';

async function platform(): Promise<string> {
  const dir = await tempDir("chartroom-scope-");
  await mkdir(join(dir, "charts"));
  const put = async (name: string, version: string, data: Buffer) => writeFile(join(dir, "charts", `${name}-${version}.tgz`), data);
  await put("operator", "1.0.0", await chart("operator", "1.0.0", { "cm.yaml": configMap }, { "gadgets.yaml": crd("string") }));
  await put("operator", "2.0.0", await chart("operator", "2.0.0", { "cm.yaml": configMap }, { "gadgets.yaml": crd("integer") }));
  await put("uses", "1.0.0", await chart("uses", "1.0.0", { "gadget.yaml": gadget }));
  await put("other", "1.0.0", await chart("other", "1.0.0", { "cm.yaml": configMap }));
  await put("legacy", "1.0.0", await chart("legacy", "1.0.0", { "cm.yaml": configMap }));
  await runHelm(4, ["repo", "index", join(dir, "charts")], dir);
  const declared = ["operator", "uses", "other", "legacy"]
    .map((key) => `    ${key}: { repository: "local", version: "1.0.0", namespace: "${key}" },`)
    .join("\n");
  await writeFile(
    join(dir, "chartroom.config.ts"),
    `import { defineConfig } from "chartroom";\nexport default defineConfig({\n  repositories: { local: "file://./charts" },\n  charts: {\n${declared}\n  },\n  stacks: { dev: { kubeVersion: "1.31.0" } },\n});\n`,
  );
  return dir;
}

interface JsonDiff {
  charts: { chart: string; findings: { added: { rule: string; chart: string; path?: string }[] } }[];
}

describe("the charts a changed CRD re-checks", () => {
  it("renders the charts whose custom resources are of its group (and pins that record nothing), never an unrelated one", async () => {
    const dir = await platform();
    expect((await cli(dir, ["lock"])).errors).toBe("");
    const lock = JSON.parse(await readFile(join(dir, "charts.lock.json"), "utf8")) as { charts: Record<string, { customResourceGroups?: unknown }> };
    expect(lock.charts.uses?.customResourceGroups).toStrictEqual({ dev: ["ops.example.test"] });
    expect(lock.charts.other?.customResourceGroups).toStrictEqual({ dev: [] });
    // A pin an older chartroom wrote: what it renders is not known, so it is rendered.
    delete lock.charts.legacy?.customResourceGroups;
    await writeFile(join(dir, "charts.lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
    const counting = await countingHelm(dir);
    await rm(join(dir, ".cache"), { recursive: true, force: true });
    const result = await cli(dir, ["diff", "operator", "--to", "2.0.0", "--format", "json"], { HELM_BIN: counting.path });
    const rendered = (await counting.rendered()).sort();
    expect(rendered).toStrictEqual(["legacy", "operator", "operator", "uses"]);
    // And it was checked: its Gadget no longer fits the new CRD.
    const report = JSON.parse(result.output) as JsonDiff;
    const added = report.charts.flatMap((entry) => entry.findings.added).filter((finding) => finding.rule === "custom-resource-schema");
    expect(added.map((finding) => [finding.chart, finding.path])).toStrictEqual([["uses", "spec.size"]]);
  });
});
