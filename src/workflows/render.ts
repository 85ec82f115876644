import { isSecret } from "../diff/classify.js";
import { maskSecretBody } from "../diff/secrets.js";
import type { ValuesLayer } from "../model/values.js";
import type { RenderReport } from "../report/render.js";
import { versionTarget } from "../project/compare.js";
import type { Project } from "../project/project.js";
import { renderFor } from "../project/rendering.js";
import { oneStack, requireChart, requirePin } from "../project/select.js";

/** Options of `render`. */
export interface RenderOptions {
  chart: string;
  /** Required when several stacks are declared. */
  stack?: string;
  /** Another version than the pin: exact, `wanted` or `latest`. */
  version?: string;
  /** Values above the platform's, as values given in code are. */
  values?: readonly ValuesLayer[];
  /** @default false */
  showSecrets?: boolean;
  /** @default false */
  noCache?: boolean;
}

/** `chartroom render`: one chart for one stack, offline, as helm template renders it with the platform's values. */
export async function render(project: Project, options: RenderOptions): Promise<RenderReport> {
  const spec = requireChart(project, options.chart, "render");
  const stack = oneStack(project, options.stack);
  const target = options.version === undefined ? { pin: requirePin(project, spec) } : { version: await versionTarget(project, spec, options.version) };
  // As `helm template` shows it: one render, random values and names as they came out.
  const rendering = await renderFor(project, {
    spec,
    stack,
    target,
    noCache: options.noCache,
    extra: options.values,
    reveal: options.showSecrets === true,
    once: true,
  });
  const objects = rendering.objects.map((object) =>
    isSecret(object) && options.showSecrets !== true ? { ...object, body: maskSecretBody(object.body) } : object,
  );
  return { report: "render", format: 1, chart: spec.key, version: rendering.version, stack: stack?.name ?? null, helm: rendering.helm, objects };
}
