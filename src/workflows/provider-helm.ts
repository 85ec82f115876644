import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Project } from "./project.js";

/**
 * The Helm SDK each Kubernetes provider release embeds (its go.mod's
 * helm.sh/helm/v3), by the @pulumi/kubernetes version that asks for it.
 * Only versions read from the provider's own source are listed.
 */
const EMBEDDED: Record<string, string> = {
  "4.25.0": "3.18.6",
};

/** The Helm helm.v4.Chart renders with in this project, when the installed @pulumi/kubernetes is one chartroom knows. */
export async function providerHelm(project: Project): Promise<{ provider: string; helm: string } | undefined> {
  try {
    const resolve = createRequire(join(project.config.dir, "package.json")).resolve;
    const { version } = JSON.parse(await readFile(resolve("@pulumi/kubernetes/package.json"), "utf8")) as { version: string };
    const helm = EMBEDDED[version];
    return helm === undefined ? undefined : { provider: version, helm };
  } catch {
    // No @pulumi/kubernetes in this project: nothing to compare with.
    return undefined;
  }
}

/** A note when the helm that rendered a helm.v4.Chart chart is another minor version than the provider's. */
export function helmMismatch(rendered: string, embedded: { provider: string; helm: string }): string | undefined {
  const minor = (version: string) => version.split(".").slice(0, 2).join(".");
  if (minor(rendered) === minor(embedded.helm)) return undefined;
  return `rendered with helm ${rendered}; helm.v4.Chart renders with Helm ${embedded.helm}, which @pulumi/kubernetes ${embedded.provider}'s provider embeds: set CHARTROOM_CHART_HELM to a helm ${minor(embedded.helm)} binary to see exactly what it deploys`;
}
