import type { ChartSpec } from "../config/types.js";
import type { RenderFacts } from "../lock/update.js";
import { displayName } from "../render/manifest.js";
import { renderChart } from "../render/render.js";
import type { FetchedArchive } from "../sources/types.js";
import { readValuesLayers } from "../values/layers.js";
import { stackName, stacksFor } from "./rendering.js";
import type { Session } from "./session.js";

/**
 * Render a chart being locked for every stack with the platform's values:
 * the hook events it really produces (what the engine choice needs) and
 * the fields that change on every render.
 */
export function renderFactsFor(session: Session): (spec: ChartSpec, archive: FetchedArchive) => Promise<RenderFacts> {
  // The archive is in the store already: fetchVerified put it there (or found it).
  return async (spec, archive) => {
    const facts: RenderFacts = { hooks: {}, unstable: {} };
    for (const stack of stacksFor(session)) {
      const rendering = await renderChart(
        {
          helm: await session.helm(),
          archive: { path: session.store.pathOf(archive.digest), digest: archive.digest },
          label: spec.key,
          releaseName: spec.releaseName,
          namespace: spec.namespace,
          kubeVersion: stack?.kubeVersion,
          apiVersions: stack?.apiVersions ?? [],
          values: await readValuesLayers(session.config.dir, spec.key, stack?.name),
        },
        { cacheRoot: session.cacheRoot },
      );
      const hooks: Record<string, string[]> = {};
      for (const object of rendering.objects) {
        for (const event of object.hook?.events ?? []) (hooks[event] ??= []).push(displayName(object));
      }
      for (const event of Object.keys(hooks)) hooks[event]?.sort();
      const names = new Map(rendering.objects.map((object) => [object.id, displayName(object)]));
      facts.hooks[stackName(stack)] = hooks;
      facts.unstable[stackName(stack)] = rendering.unstable.map((entry) => {
        const [id = "", ...path] = entry.split(" ");
        return `${names.get(id) ?? id}: ${path.join(" ")}`;
      });
    }
    return facts;
  };
}
