import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describeEngineHelm, providerFacts, type ProviderFacts } from "../engine/providers.js";
import type { Project } from "./project.js";

/** The Kubernetes provider this project installs (its @pulumi/kubernetes), or undefined when it has none. */
export async function installedProvider(project: Project): Promise<ProviderFacts | undefined> {
  try {
    const resolve = createRequire(join(project.config.dir, "package.json")).resolve;
    const { version } = JSON.parse(await readFile(resolve("@pulumi/kubernetes/package.json"), "utf8")) as { version: string };
    return providerFacts(version);
  } catch {
    // No @pulumi/kubernetes in this project: nothing to compare with.
    return undefined;
  }
}

/**
 * What the report says about the Helm the engine renders with: which one,
 * and when chartroom rendered with another minor version, how to render
 * with the same (CHARTROOM_CHART_HELM).
 */
export function engineHelmNote(rendered: string, provider: ProviderFacts): string | undefined {
  if (provider.helm === undefined)
    return `chartroom cannot tell which Helm @pulumi/kubernetes ${provider.version}'s provider embeds; it rendered with helm ${rendered}: set CHARTROOM_CHART_HELM to the provider's Helm to see exactly what it deploys`;
  const minor = (version: string) => version.split(".").slice(0, 2).join(".");
  if (minor(rendered) === minor(provider.helm)) return undefined;
  return `rendered with helm ${rendered}; the engine renders with Helm ${provider.helm}, which @pulumi/kubernetes ${provider.version}'s provider embeds: set CHARTROOM_CHART_HELM to a helm ${minor(provider.helm)} binary to see exactly what it deploys`;
}

export { describeEngineHelm };
