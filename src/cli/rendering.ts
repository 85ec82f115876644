import type { ChartSpec, StackSpec } from "../config/types.js";
import type { SharedBlocks } from "../render/fast-yaml.js";
import { renderChart, type Rendering } from "../render/render.js";
import type { ValuesLayer } from "../render/template.js";
import { readValuesLayers } from "../values/layers.js";
import { archiveFor, type ArchiveTarget, type Session } from "./session.js";

/** The stacks to render: those named, else all declared, else one without a kube version. */
export function stacksFor(session: Session, only?: string): (StackSpec | undefined)[] {
  if (only !== undefined) return session.config.stacks.filter((stack) => stack.name === only);
  return session.config.stacks.length > 0 ? session.config.stacks : [undefined];
}

export function stackName(stack: StackSpec | undefined): string {
  return stack?.name ?? "default";
}

export interface RenderRequest {
  session: Session;
  spec: ChartSpec;
  stack: StackSpec | undefined;
  /** A locked pin, or a version listed by the repository. */
  target: ArchiveTarget;
  noCache: boolean;
  /** Shared between the two sides of one comparison. */
  shared?: SharedBlocks;
  /** Values files named on the command line, above the platform's (as values given in code are). */
  extra?: ValuesLayer[];
}

/** Fetch (verified) and render one chart for one stack with the platform's values. */
export async function renderFor(request: RenderRequest): Promise<Rendering & { version: string }> {
  const { session, spec, stack } = request;
  const archive = await archiveFor(session, spec, request.target);
  const version = "pin" in request.target ? request.target.pin.version : request.target.version.version;
  const rendering = await renderChart(
    {
      helm: await session.helm(),
      archive: { path: session.store.pathOf(archive.digest), digest: archive.digest },
      label: `${spec.key}-${version}`,
      releaseName: spec.releaseName,
      namespace: spec.namespace,
      kubeVersion: stack?.kubeVersion,
      apiVersions: stack?.apiVersions ?? [],
      values: [...(await readValuesLayers(session.config.dir, spec.key, stack?.name)), ...(request.extra ?? [])],
    },
    { cacheRoot: session.cacheRoot, noCache: request.noCache, shared: request.shared },
  );
  return { ...rendering, version };
}
