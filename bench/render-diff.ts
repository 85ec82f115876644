import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packChart } from "../test/helpers/pack.js";
import { chartReport, diffReport } from "../src/diff/report.js";
import { formatMarkdown } from "../src/report/diff-markdown.js";
import { formatText } from "../src/report/diff-text.js";
import { pinnedHelm } from "../src/render/helm-binary.js";
import { parseManifest } from "../src/render/manifest.js";
import { renderChart, type RenderInput } from "../src/render/render.js";
import { helmTemplate } from "../src/render/template.js";
import { generateChart, type Upgrade } from "./lib/generate-chart.js";
import { median, ms } from "./lib/serve.js";

/** Both upgrade shapes, reported side by side. */
export async function benchRenderDiff(cacheRoot: string): Promise<Record<string, string | number>> {
  const typical = await benchUpgrade(cacheRoot, "typical");
  const everything = await benchUpgrade(cacheRoot, "everything");
  return {
    ...Object.fromEntries(Object.entries(typical).map(([key, value]) => [`typical upgrade: ${key}`, value])),
    ...Object.fromEntries(Object.entries(everything).map(([key, value]) => [`every object changed: ${key}`, value])),
    "peak RSS of the benchmark process": `${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  };
}

/** parse + diff against helm template itself; warm (render cache) against cold. */
async function benchUpgrade(cacheRoot: string, upgrade: Upgrade): Promise<Record<string, string | number>> {
  const work = await mkdtemp(join(tmpdir(), "chartroom-bench-render-"));
  try {
    const helm = await pinnedHelm(4, cacheRoot);
    const inputs: RenderInput[] = [];
    for (const version of ["1.0.0", "2.0.0"] as const) {
      const path = join(work, `big-${version}.tgz`);
      await writeFile(path, await packChart("big", generateChart(version, { count: 110, crds: 6, upgrade }), new Date(0)));
      inputs.push({
        helm,
        archive: { path, digest: `sha256:big-${version}` },
        label: "big",
        releaseName: "big",
        namespace: "apps",
        kubeVersion: "1.31.0",
        apiVersions: [],
        values: [],
      });
    }
    const template = (input: RenderInput) => helmTemplate({ ...input, chart: input.archive.path });
    const outputs = await Promise.all(inputs.map(template));
    const helmTime = await median(5, async () => {
      for (const input of inputs) await template(input);
    });
    const options = { showSecrets: false, showBookkeeping: false };
    let objects = 0;
    // Eleven runs: the median is the steady state, not the JIT warming up.
    const parseDiff = await median(11, async () => {
      // One block cache for both sides, as the CLI shares one per comparison.
      const shared = new Map();
      const [a, b] = outputs.map((text) => parseManifest(text, "apps", "big", shared));
      objects = Math.max(a?.length ?? 0, b?.length ?? 0);
      chartReport(
        { chart: "big", stack: "bench", engine: "chart" },
        { version: "1.0.0", objects: a ?? [], unstable: new Set() },
        { version: "2.0.0", objects: b ?? [], unstable: new Set() },
        options,
      );
    });
    const fullRun = async (cache: string) => {
      const shared = new Map();
      const [a, b] = await Promise.all(inputs.map((input) => renderChart(input, { cacheRoot: cache, shared })));
      chartReport(
        { chart: "big", stack: "bench", engine: "chart" },
        { version: "1.0.0", objects: a?.objects ?? [], unstable: new Set(a?.unstable) },
        { version: "2.0.0", objects: b?.objects ?? [], unstable: new Set(b?.unstable) },
        options,
      );
    };
    let n = 0;
    const cold = await median(3, () => fullRun(join(work, `cache-${n++}`)));
    const warmCache = join(work, "warm");
    await fullRun(warmCache);
    const warm = await median(5, () => fullRun(warmCache));
    const bytes = outputs.reduce((sum, text) => sum + text.length, 0);
    // What a pull-request comment of this change weighs.
    const [a, b] = outputs.map((text) => parseManifest(text, "apps", "big"));
    const report = diffReport([
      chartReport(
        { chart: "big", stack: "bench", engine: "chart" },
        { version: "1.0.0", objects: a ?? [], unstable: new Set() },
        { version: "2.0.0", objects: b ?? [], unstable: new Set() },
        options,
      ),
    ]);
    const markdown = formatMarkdown(report);
    return {
      chart: `${objects} objects per version (6 operator-sized CRDs, a third of their descriptions in double quotes and a third in single quotes over several lines), ${(bytes / 2 / 1e6).toFixed(2)} MB of YAML per render`,
      "helm template, both versions": ms(helmTime),
      "parse + diff, both versions": ms(parseDiff),
      "parse + diff / helm template (target ≤ 0.15)": Number((parseDiff / helmTime).toFixed(3)),
      "cold run (each side rendered twice for noise, parsed, diffed)": ms(cold),
      "warm run (render cache)": ms(warm),
      "warm / cold (target ≤ 0.1)": Number((warm / cold).toFixed(3)),
      "text report": `${formatText(report).split("\n").length} lines`,
      "markdown report (cap 65,000)": `${markdown.length} characters, ${report.charts[0]?.objects.length ?? 0} objects all named: ${report.charts[0]?.objects.every((object) => markdown.includes(object.display)) === true}`,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
