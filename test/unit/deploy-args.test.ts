import { describe, expect, it } from "vitest";
import * as pulumi from "@pulumi/pulumi";
import { chartSpec } from "../../src/config/normalise.js";
import type { RepositorySpec } from "../../src/config/types.js";
import { chartArgs, releaseArgs } from "../../src/deploy/pulumi/args.js";
import type { DeploymentPlan } from "../../src/workflows/deployments.js";
import { ChartroomError } from "../../src/errors/index.js";

function plan(kind: RepositorySpec["kind"], extra: Partial<DeploymentPlan["spec"]> = {}): DeploymentPlan {
  const repository: RepositorySpec = { name: "r", kind, url: kind === "oci" ? "oci://registry.example.test/charts" : "https://charts.example.test", plainHttp: false, timeoutMs: 1000, auth: { usernameEnv: "REG_USER", passwordEnv: "REG_PASS" } };
  const spec = chartSpec({ key: "web", repository, range: "1.2.3", namespace: "web", ...extra });
  return {
    spec,
    pin: { version: "1.2.3" } as DeploymentPlan["pin"],
    engine: { name: "chart", reasons: [] },
    chart: kind === "oci" ? "oci://registry.example.test/charts/web" : "web",
    version: "1.2.3",
    repository: { repo: repository.url, usernameEnv: "REG_USER", passwordEnv: "REG_PASS" },
    plainHttp: false,
    layers: [],
    fileValues: {},
    contract: { defaults: {}, subcharts: [] },
  };
}

const ENV = { REG_USER: "ci", REG_PASS: "registry-password-1" };

describe("engine arguments", () => {
  it("names an HTTP chart by repository, with credentials as secrets", async () => {
    const args = chartArgs(plan("http"), {}, ENV);
    expect(args).toMatchObject({ chart: "web", version: "1.2.3", namespace: "web", name: "web" });
    const opts = args.repositoryOpts as Record<string, unknown>;
    expect(opts.repo).toBe("https://charts.example.test");
    expect(await pulumi.isSecret(opts.password as pulumi.Output<string>)).toBe(true);
  });

  it("names an OCI chart by its oci:// reference and only logs in", () => {
    const args = chartArgs(plan("oci"), {}, ENV);
    expect(args.chart).toBe("oci://registry.example.test/charts/web");
    expect(Object.keys(args.repositoryOpts as object).sort()).toStrictEqual(["password", "username"]);
  });

  it("gives helm.v3.Release the declaration's release settings over the defaults", () => {
    const args = releaseArgs(plan("http", { release: { atomic: false, timeout: 120, maxHistory: 3, cleanupOnFail: true, createNamespace: true, waitForJobs: false } }), {}, ENV);
    expect(args).toMatchObject({ atomic: false, timeout: 120, maxHistory: 3, createNamespace: true, waitForJobs: false });
  });

  it("passes declared post-renderer, resource prefix and skipCrds to helm.v4.Chart", () => {
    const args = chartArgs(plan("http", { postRenderer: { command: "./kustomize", args: ["build"] }, resourcePrefix: "team", skipCrds: true }), {}, ENV);
    expect(args).toMatchObject({ postRenderer: { command: "./kustomize", args: ["build"] }, resourcePrefix: "team", skipCrds: true });
  });

  it("says which variable is missing, without any value", () => {
    const error = (() => {
      try {
        chartArgs(plan("http"), {}, { REG_USER: "ci" });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ChartroomError.isInstance(error) && error.message).toBe("environment variable REG_PASS is not set");
  });
});
