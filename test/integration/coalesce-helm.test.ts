import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { parseManifest } from "../../src/render/manifest.js";
import { coalesce, mergeLayers, subchartView } from "../../src/values/coalesce.js";
import { withSubchartDefaults } from "../../src/values/check.js";
import { runHelm } from "../helpers/helm.js";
import { tempDir } from "../helpers/tmp.js";

const PARENT_DEFAULTS = { a: { b: 1, c: [1, 2], keep: true, none: null }, d: "x", e: { f: 1 }, list: [{ name: "one" }], nothing: null, global: { g: 1, shared: "parent" } };
const SUB_DEFAULTS = { s: 1, nested: { t: 1, u: 2 }, global: { h: 2, shared: "sub" } };
const LAYERS = [
  { a: { c: [3] }, d: null, sub: { s: 2, nested: { u: null } }, global: { g: 5 } },
  { a: { b: 2, mine: null }, e: null, extra: { z: 1, gone: null, deep: { nothing: null } }, top: null },
];

/** A chart whose only object is a ConfigMap holding `.Values` as JSON, with a subchart that does the same. */
async function echoChart(dir: string): Promise<string> {
  const root = join(dir, "echo");
  const dump = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  values: {{ toJson .Values | quote }}\n`;
  await mkdir(join(root, "templates"), { recursive: true });
  await mkdir(join(root, "charts", "sub", "templates"), { recursive: true });
  await writeFile(join(root, "Chart.yaml"), "apiVersion: v2\nname: echo\nversion: 0.1.0\ndependencies:\n  - name: sub\n    version: 0.1.0\n");
  await writeFile(join(root, "values.yaml"), stringify(PARENT_DEFAULTS));
  await writeFile(join(root, "templates", "dump.yaml"), dump("parent"));
  await writeFile(join(root, "charts", "sub", "Chart.yaml"), "apiVersion: v2\nname: sub\nversion: 0.1.0\n");
  await writeFile(join(root, "charts", "sub", "values.yaml"), stringify(SUB_DEFAULTS));
  await writeFile(join(root, "charts", "sub", "templates", "dump.yaml"), dump("sub"));
  return root;
}

describe.each([3, 4] as const)("coalescing compared with Helm %i", (major) => {
  it("gives the chart and its subchart the values Helm gives them", async () => {
    const dir = await tempDir();
    const chart = await echoChart(dir);
    const files: string[] = [];
    for (const [i, layer] of LAYERS.entries()) {
      files.push(join(dir, `layer${i}.yaml`));
      await writeFile(files[i] as string, stringify(layer));
    }
    const out = await runHelm(major, ["template", "echo", chart, ...files.flatMap((file) => ["--values", file])], dir);
    const dumped = Object.fromEntries(parseManifest(out, "default", "echo").map((object) => [object.name, JSON.parse(String((object.body.data as Record<string, unknown>).values))]));
    const parent = coalesce(mergeLayers(LAYERS), withSubchartDefaults({ defaults: PARENT_DEFAULTS, subcharts: [{ key: "sub", defaults: SUB_DEFAULTS, subcharts: [] }] }));
    const { sub: _section, ...parentRest } = parent;
    const { sub: _dumpedSection, ...dumpedRest } = dumped.parent as Record<string, unknown>;
    expect(parentRest).toStrictEqual(dumpedRest);
    const { global: subGlobal, ...subRest } = subchartView(mergeLayers(LAYERS), PARENT_DEFAULTS, "sub", SUB_DEFAULTS);
    const { global: dumpedGlobal, ...dumpedSubRest } = dumped.sub as Record<string, unknown>;
    expect(subRest).toStrictEqual(dumpedSubRest);
    expect(subGlobal).toStrictEqual(dumpedGlobal);
  });
});
