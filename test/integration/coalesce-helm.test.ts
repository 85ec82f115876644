import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { parseManifest } from "../../src/render/manifest.js";
import { coalesce, mergeLayers, subchartView } from "../../src/values/coalesce.js";
import { withSubchartDefaults } from "../../src/values/check.js";
import { parseValuesFile } from "../../src/values/layers.js";
import { engineBin } from "../helpers/engine.js";
import { runHelm } from "../helpers/helm.js";
import { tempDir } from "../helpers/tmp.js";

const PARENT_DEFAULTS = {
  a: { b: 1, c: [1, 2], keep: true, none: null },
  d: "x",
  e: { f: 1 },
  list: [{ name: "one" }],
  nothing: null,
  global: { g: 1, shared: "parent" },
};
const SUB_DEFAULTS = { s: 1, nested: { t: 1, u: 2 }, global: { h: 2, shared: "sub" } };
const LAYERS = [
  { a: { c: [3] }, d: null, sub: { s: 2, nested: { u: null } }, global: { g: 5 } },
  { a: { b: 2, mine: null }, e: null, extra: { z: 1, gone: null, deep: { nothing: null } }, top: null },
];
const run = promisify(execFile);
// Written as YAML 1.1 reads it differently from 1.2 (Helm reads values files as go-yaml v2 does).
const YAML11 = "flags:\n  on: yes\n  n: 1\n  mode: 0644\n  hex: 0x1F\n  big: 1_000\n  when: 2024-01-01\n  clock: 12:30\n  quoted: 'yes'\n";

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

// Helm 3 and 4 as users run them, and the Helm v3 SDK the Pulumi provider embeds (engine/build.sh builds it).
const HELMS = [
  ["Helm 3", (args: string[], dir: string) => runHelm(3, args, dir)],
  ["Helm 4", (args: string[], dir: string) => runHelm(4, args, dir)],
  [
    "the provider's Helm",
    async (args: string[], dir: string) =>
      (
        await run(join(await engineBin(), "helm"), args, {
          cwd: dir,
          env: { ...process.env, HELM_CACHE_HOME: join(dir, ".h"), HELM_CONFIG_HOME: join(dir, ".h") },
        })
      ).stdout,
  ],
] as const;

describe.each(HELMS)("coalescing compared with %s", (_, helmTemplate) => {
  it("gives the chart and its subchart the values Helm gives them", async () => {
    const dir = await tempDir();
    const chart = await echoChart(dir);
    const files: string[] = [];
    const texts = [...LAYERS.map((layer) => stringify(layer)), YAML11];
    for (const [i, text] of texts.entries()) {
      files.push(join(dir, `layer${i}.yaml`));
      await writeFile(files[i] as string, text);
    }
    // chartroom's side reads the same files, as it reads values files.
    const layers = texts.flatMap((text, i) => parseValuesFile(`layer${i}.yaml`, text).map((layer) => layer.values));
    const out = await helmTemplate(["template", "echo", chart, ...files.flatMap((file) => ["--values", file])], dir);
    const dumped = Object.fromEntries(
      parseManifest(out, "default", "echo").map((object) => [object.name, JSON.parse(String((object.body.data as Record<string, unknown>).values))]),
    );
    const parent = coalesce(
      mergeLayers(layers),
      withSubchartDefaults({ defaults: PARENT_DEFAULTS, subcharts: [{ key: "sub", defaults: SUB_DEFAULTS, subcharts: [] }] }),
    );
    const { sub: _section, ...parentRest } = parent;
    const { sub: _dumpedSection, ...dumpedRest } = dumped.parent as Record<string, unknown>;
    expect(parentRest).toStrictEqual(dumpedRest);
    expect(dumpedRest.flags).toStrictEqual({ true: true, false: 1, mode: 420, hex: 31, big: 1000, when: "2024-01-01", clock: "12:30", quoted: "yes" });
    const { global: subGlobal, ...subRest } = subchartView(mergeLayers(layers), PARENT_DEFAULTS, "sub", SUB_DEFAULTS);
    const { global: dumpedGlobal, ...dumpedSubRest } = dumped.sub as Record<string, unknown>;
    expect(subRest).toStrictEqual(dumpedSubRest);
    expect(subGlobal).toStrictEqual(dumpedGlobal);
  });
});
