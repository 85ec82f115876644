import type { RenderInput } from "../../src/render/render.js";
import type { TemplateRequest } from "../../src/render/template.js";

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

/** What helmTemplate gets for a chart `c` in namespace c, with no values, for a runner that stands in for helm 4. */
export function templateRequestOf(more: Partial<TemplateRequest> = {}): TemplateRequest {
  return {
    helm: { path: "/nowhere/helm", version: "v4.1.4", origin: "HELM_BIN" },
    chart: "c.tgz",
    label: "c",
    releaseName: "c",
    namespace: "c",
    apiVersions: [],
    values: [],
    ...more,
  };
}
