import type { ChartSpec } from "../config/types.js";
import type { FetchedArchive } from "../model/charts.js";
import { stableDisplayName } from "../model/objects.js";
import { mapLimit } from "../util/pool.js";
import { isCustomResource } from "../render/kinds.js";
import { inputsRecordOf, renderFor } from "./rendering.js";
import type { InputsRecord } from "../render/recorded.js";
import type { Project } from "./project.js";
import { stackName, stacksFor } from "./select.js";

/** What rendering with the platform's values found, per stack. */
export interface RenderFacts {
  hooks: Record<string, Record<string, string[]>>;
  unstable: Record<string, string[]>;
  /** The inputs those renders had, as a digest: a later render of the same inputs takes `unstable` from the lock. */
  renderInputs: Record<string, InputsRecord>;
  /** The API groups of the custom resources it renders: a changed CRD re-checks only the charts that render its group. */
  customResourceGroups: Record<string, string[]>;
}

/**
 * Render a chart being locked for every stack with the platform's values:
 * the hook events it really produces (what the engine choice needs) and the
 * fields that change on every render.
 */
export async function renderFacts(project: Project, spec: ChartSpec, archive: FetchedArchive, version: string): Promise<RenderFacts> {
  const facts: RenderFacts = { hooks: {}, unstable: {}, renderInputs: {}, customResourceGroups: {} };
  const stacks = stacksFor(project);
  // The archive is in the store already: fetchVerified put it there (or found it).
  const request = (stack: (typeof stacks)[number]) => ({ spec, stack, target: { fetched: archive, version } });
  const renderings = await mapLimit(stacks, stacks.length, (stack) => renderFor(project, request(stack)));
  for (const [i, stack] of stacks.entries()) {
    const rendering = renderings[i] as Awaited<ReturnType<typeof renderFor>>;
    const hooks: Record<string, string[]> = {};
    for (const object of rendering.objects) {
      // A generated name is written as its pattern: the lock holds nothing random.
      for (const event of object.hook?.events ?? []) {
        hooks[event] ??= [];
        hooks[event].push(stableDisplayName(object));
      }
    }
    for (const event of Object.keys(hooks)) hooks[event]?.sort();
    const names = new Map(rendering.objects.map((object) => [object.id, stableDisplayName(object)]));
    facts.hooks[stackName(stack)] = hooks;
    facts.customResourceGroups[stackName(stack)] = [...new Set(rendering.objects.filter(isCustomResource).map((object) => object.group))].sort();
    facts.unstable[stackName(stack)] = rendering.unstable.map((entry) => {
      const [id = "", ...path] = entry.split(" ");
      return `${names.get(id) ?? id}: ${path.join(" ")}`;
    });
    const record = await inputsRecordOf(project, request(stack), rendering.objects);
    if (record !== undefined) facts.renderInputs[stackName(stack)] = record;
  }
  return facts;
}
