import { describe, expect, it } from "vitest";
import { chartSpec } from "../../src/config/normalise.js";
import type { RepositorySpec } from "../../src/config/types.js";
import { chartArgs, releaseArgs } from "../../src/deploy/pulumi/args.js";
import { ChartroomError } from "../../src/errors/index.js";
import type { DeploymentPlan } from "../../src/workflows/deployments.js";
import { postRendererFor } from "../../src/project/post-renderer.js";

function plan(kind: RepositorySpec["kind"], extra: Partial<DeploymentPlan["spec"]> = {}): DeploymentPlan {
  const repository: RepositorySpec = {
    name: "r",
    kind,
    url: kind === "oci" ? "oci://registry.example.test/charts" : "https://charts.example.test",
    plainHttp: kind === "oci",
    timeoutMs: 1000,
    auth: { usernameEnv: "REG_USER", passwordEnv: "REG_PASS" },
  };
  const spec = chartSpec({ key: "web", repository, range: "1.2.3", namespace: "web", ...extra });
  return {
    spec,
    pin: { version: "1.2.3" } as DeploymentPlan["pin"],
    engine: { name: "chart", reasons: [] },
    chart: "../.chartroom/charts/web-1.2.3-0123456789ab.tgz",
    layers: [],
    fileValues: {},
    contract: { defaults: {}, subcharts: [] },
    fileSecrets: [],
    rendersSecrets: false,
    // As deploymentPlans makes it: the platform in /platform, the program in /platform/pulumi.
    ...(spec.postRenderer === undefined ? {} : { postRenderer: postRendererFor(spec.postRenderer, "/platform", "/platform/pulumi") }),
  };
}

describe("engine arguments", () => {
  it.each(["http", "oci", "file"] as const)("give a %s chart as the verified archive's path: no repository, version or credential", (kind) => {
    for (const args of [chartArgs(plan(kind), {}), releaseArgs(plan(kind), {})]) {
      expect(args.chart).toBe("../.chartroom/charts/web-1.2.3-0123456789ab.tgz");
      expect(Object.keys(args).filter((key) => ["version", "repositoryOpts", "plainHttp", "devel", "verify", "keyring"].includes(key))).toStrictEqual([]);
      expect(JSON.stringify(args)).not.toMatch(/REG_|charts\.example\.test|registry\.example\.test/);
    }
  });

  it("gives helm.v3.Release the declaration's release settings over the defaults, and keeps nulls as Helm does", () => {
    const args = releaseArgs(
      plan("http", { release: { atomic: false, timeout: 120, maxHistory: 3, cleanupOnFail: true, createNamespace: true, waitForJobs: false } }),
      {},
    );
    expect(args).toMatchObject({ atomic: false, timeout: 120, maxHistory: 3, createNamespace: true, waitForJobs: false, allowNullValues: true });
  });

  it("passes declared post-renderer (its path from the program's folder), resource prefix and skipCrds to helm.v4.Chart", () => {
    const args = chartArgs(plan("http", { postRenderer: { command: "./kustomize", args: ["build"] }, resourcePrefix: "team", skipCrds: true }), {});
    expect(args).toMatchObject({ postRenderer: { command: "../kustomize", args: ["build"] }, resourcePrefix: "team", skipCrds: true });
  });

  it("gives helm.v3.Release the post-renderer's path from the program's folder", () => {
    expect(releaseArgs(plan("http", { postRenderer: { command: "hooks/kustomize.sh", args: [] } }), {}).postrender).toBe("../hooks/kustomize.sh");
  });

  it("refuses post-renderer arguments for helm.v3.Release, which takes a bare command", () => {
    const error = (() => {
      try {
        releaseArgs(plan("http", { postRenderer: { command: "./kustomize", args: ["build"] } }), {});
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ChartroomError.isInstance(error) && [error.code, error.place.key]).toStrictEqual(["ENGINE_UNSUPPORTED", "charts.web.postRenderer.args"]);
  });
});
