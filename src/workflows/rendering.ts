import type { ChartSpec, StackSpec } from "../config/types.js";
import type { ValuesLayer } from "../model/values.js";
import type { SharedBlocks } from "../render/fast-yaml.js";
import { renderChart, type Rendering } from "../render/render.js";
import { readValuesLayers } from "../values/layers.js";
import { archiveFor, targetVersion, type ArchiveTarget } from "./archives.js";
import type { Project } from "./project.js";

export interface RenderRequest {
  spec: ChartSpec;
  stack: StackSpec | undefined;
  /** A locked pin, or a version listed by the repository. */
  target: ArchiveTarget;
  /** @default false */
  noCache?: boolean;
  /** Shared between the two sides of one comparison. */
  shared?: SharedBlocks;
  /** Values above the platform's, as values given in code are. */
  extra?: readonly ValuesLayer[];
  /** Secret values as rendered, not sealed (--show-secrets); never cached. */
  reveal?: boolean;
}

export interface ChartRendering extends Rendering {
  version: string;
  /** The helm that rendered it, as `3.18.6 (HELM_BIN)`. */
  helm: string;
}

/** Fetch (verified) and render one chart for one stack with the platform's values. */
export async function renderFor(project: Project, request: RenderRequest): Promise<ChartRendering> {
  const { spec, stack } = request;
  const archive = await archiveFor(project, spec, request.target);
  const version = targetVersion(request.target);
  const helm = await project.helm(engineOf(project, spec));
  const rendering = await renderChart(
    {
      helm,
      archive: { path: project.store.pathOf(archive.digest), digest: archive.digest },
      label: `${spec.key}-${version}`,
      releaseName: spec.releaseName,
      namespace: spec.namespace,
      kubeVersion: stack?.kubeVersion,
      apiVersions: stack?.apiVersions ?? [],
      values: [...(await readValuesLayers(project.config.dir, spec.key, stack?.name)), ...(request.extra ?? [])],
      includeCrds: !spec.skipCrds,
      ...(spec.postRenderer === undefined ? {} : { postRenderer: spec.postRenderer }),
    },
    { cacheRoot: project.cacheRoot, noCache: request.noCache, shared: request.shared, reveal: request.reveal },
  );
  return { ...rendering, version, helm: `${helm.version} (${helm.origin})` };
}

/** The engine a chart renders for: as declared, else as last locked (unknown before the first lock). */
export function engineOf(project: Project, spec: ChartSpec): "chart" | "release" | undefined {
  if (spec.engine !== "auto") return spec.engine;
  return project.lock?.charts[spec.key]?.engine.name;
}
