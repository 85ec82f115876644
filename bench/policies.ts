import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packChart } from "../test/helpers/pack.js";
import { builtinRules } from "../src/policy/builtin.js";
import { runPolicies, type PolicyChart } from "../src/policy/run.js";
import { emptySettings } from "../src/policy/settings.js";
import { pinnedHelm } from "../src/render/helm-binary.js";
import { renderChart, type RenderInput } from "../src/render/render.js";
import { generateChart } from "./lib/generate-chart.js";
import { median, ms } from "./lib/serve.js";

const CHARTS = 4;

/**
 * Every built-in rule over a stack of four charts of 500 objects each
 * (Deployments, Services, ConfigMaps, Secrets, HPAs): what `check` adds to
 * rendering them. Rendering is chartroom's, cold (no render cache): helm
 * template twice per chart (the second finds fields that change on every
 * render) and the parse, the charts in parallel.
 */
export async function benchPolicies(cacheRoot: string): Promise<Record<string, string | number>> {
  const work = await mkdtemp(join(tmpdir(), "chartroom-bench-policies-"));
  try {
    const helm = await pinnedHelm(4, cacheRoot);
    const path = join(work, "big.tgz");
    await writeFile(path, await packChart("big", generateChart("1.0.0", { count: 100, crds: 0 }), new Date(0)));
    const render = async () =>
      Promise.all(
        Array.from({ length: CHARTS }, async (_, i) => {
          const input: RenderInput = {
            helm,
            archive: { path, digest: "sha256:big" },
            label: `big-${i}`,
            releaseName: `big-${i}`,
            namespace: `apps-${i}`,
            kubeVersion: "1.31.0",
            apiVersions: [],
            values: [],
          };
          return (await renderChart(input, { cacheRoot: join(work, "cache"), noCache: true })).objects;
        }),
      );
    const rendered = await render();
    const renderTime = await median(3, render);
    const charts: PolicyChart[] = rendered.map((objects, i) => ({ key: `big-${i}`, engine: "chart", dropHooks: false, values: {}, objects }));
    // Once per process: the schema modules load (check starts this while helm renders).
    const started = performance.now();
    await builtinRules(charts.flatMap((chart) => [...chart.objects]));
    const firstLoad = performance.now() - started;
    const objects = charts.reduce((sum, chart) => sum + chart.objects.length, 0);
    let findings = 0;
    // Eleven runs: the median is the steady state, not the JIT warming up.
    const policyTime = await median(11, async () => {
      const rules = await builtinRules(charts.flatMap((chart) => [...chart.objects]));
      findings = runPolicies({ stack: "bench", kubeVersion: "1.31.0", charts, rules, settings: emptySettings(), today: "2026-11-30" }).length;
    });
    return {
      work: `${CHARTS} charts, ${objects} objects in one stack; ${findings} findings`,
      "render the stack (chartroom render, cold)": ms(renderTime),
      "every built-in rule over the stack": ms(policyTime),
      "rules / render (target ≤ 0.1)": Number((policyTime / renderTime).toFixed(3)),
      "loading the rules' schemas, once per process (overlapped with rendering)": ms(firstLoad),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
