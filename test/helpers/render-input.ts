import type { RenderInput } from "../../src/render/render.js";

/** What renderChart gets for a chart `name` at 1.0.0 in namespace apps, with no values, for a helm that stands in for the real one. */
export function renderInputOf(name: string, more: Partial<RenderInput> = {}): RenderInput {
  return {
    archive: { path: `/charts/${name}-1.0.0.tgz`, digest: "sha256:00" },
    helm: { path: "helm", version: "3.17.2", origin: "test" },
    label: name,
    releaseName: name,
    namespace: "apps",
    apiVersions: [],
    values: [],
    ...more,
  };
}
