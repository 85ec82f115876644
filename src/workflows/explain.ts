import { hitsForceNew, pulumiForceNew } from "../engine/force-new.js";
import { ENGINES } from "../engine/records.js";
import type { EngineStep } from "../diff/model.js";
import { chooseEngine, lifecycleHooks, mergeStacks } from "../engine/choice.js";
import { stableDisplayName } from "../model/objects.js";
import type { ExplainReport, PinFacts } from "../report/explain.js";
import { parsePath } from "../util/tree-path.js";
import { describeEngineHelm, installedProvider } from "../project/provider-helm.js";
import { renderFor } from "../project/rendering.js";
import type { Project } from "../project/project.js";
import { requireChart, requirePin, stackName, stacksFor } from "../project/select.js";

/** `chartroom explain`: why a chart gets its engine, from the lock and the declaration. */
export async function explain(project: Project, options: { chart: string }): Promise<ExplainReport> {
  const spec = requireChart(project, options.chart, "explain");
  const pin = requirePin(project, spec);
  const hooks = pin.renderedHooks === undefined ? pin.hooks : mergeStacks(pin.renderedHooks);
  const engine = chooseEngine(spec, hooks, pin.renderedHooks === undefined ? "templates" : "rendered");
  const churn: ExplainReport["churn"] = {};
  for (const stack of stacksFor(project)) {
    const entries = pin.unstable?.[stackName(stack)] ?? [];
    if (entries.length === 0) continue;
    // The lock names the fields; the rendered objects say what the engine does about them.
    const rendering = await renderFor(project, { spec, stack, target: { pin } });
    const byObject = new Map<string, string[]>();
    for (const entry of entries) {
      const [object = "", field = ""] = entry.split(": ");
      (byObject.get(object) ?? byObject.set(object, []).get(object))?.push(field);
    }
    churn[stackName(stack)] = [...byObject].map(([object, fields]) => {
      // The lock names an object named at random by its pattern (`run-*`), as every render gives it.
      const found = rendering.objects.find((item) => stableDisplayName(item) === object);
      const replaces =
        ENGINES[engine.name].replacesOnForceNew &&
        found !== undefined &&
        fields.some((field) => hitsForceNew(parsePath(field), pulumiForceNew(found)) !== undefined);
      const step: EngineStep = replaces ? "replace" : "update";
      return { object, fields, step };
    });
  }
  const facts: PinFacts = {
    repository: pin.repository,
    chart: pin.chart,
    range: pin.range,
    version: pin.version,
    ...(pin.appVersion === undefined ? {} : { appVersion: pin.appVersion }),
    digest: pin.digest,
    ...(pin.manifestDigest === undefined ? {} : { manifestDigest: pin.manifestDigest }),
    schema: pin.schema,
    crds: pin.crds,
    dependencies: pin.dependencies.map(({ name, version, vendored, vendoredVersion }) => ({
      name,
      version,
      vendored,
      ...(vendoredVersion === undefined ? {} : { vendoredVersion }),
    })),
    hooks: pin.hooks,
    ...(pin.renderedHooks === undefined ? {} : { renderedHooks: pin.renderedHooks }),
  };
  const provider = await installedProvider(project);
  return {
    report: "explain",
    format: 1,
    chart: spec.key,
    engine,
    pin: facts,
    lifecycleHooks: lifecycleHooks(hooks),
    churn,
    ...(provider === undefined ? {} : { engineHelm: describeEngineHelm(provider) }),
  };
}
