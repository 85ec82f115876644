// Values given in code, under pulumi.runtime.setMocks: the engine cannot run
// these cases without a cluster, and the mocks show exactly what reaches it.
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { ChartDeployment } from "../../src/deploy/pulumi/index.js";
import { checkResolved } from "../../src/deploy/pulumi/deployment.js";
import { mergedValues, unknownPaths } from "../../src/deploy/pulumi/values.js";
import { ChartroomError } from "../../src/errors/index.js";
import { deploymentPlans, type DeploymentPlan } from "../../src/workflows/deployments.js";
import { openProject } from "../../src/project/project.js";
import { ROOT } from "../helpers/platform.js";

let plans: Map<string, DeploymentPlan>;
let provider: k8s.Provider;
let n = 0;

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
    "platform",
    "dev",
    false,
  );
  plans = new Map((await deploymentPlans(await openProject({ dir: ROOT }), { stack: "dev" })).map((plan) => [plan.spec.key, plan]));
  provider = new k8s.Provider("cluster", { kubeconfig: "x" });
});

/** The ledger's plan, its chart's defaults widened with two lists (it has no schema: unknown keys are refused). */
function withLists(plan: DeploymentPlan): DeploymentPlan {
  return { ...plan, contract: { ...plan.contract, defaults: { ...plan.contract.defaults, extraEnv: [], tags: ["a"] } } };
}

function deploy(chart: string, values: unknown): ChartDeployment {
  const plan = plans.get(chart) as DeploymentPlan;
  return new ChartDeployment(`${chart}-${n++}`, { plan: chart === "ledger" ? withLists(plan) : plan, values, provider });
}

/** The value an Output resolves to (rejected as it rejects; `apply` would leave a rejection unhandled). */
function settle<T>(output: pulumi.Output<T>): Promise<T> {
  const inner = output as unknown as { promise(): Promise<T>; isKnown: Promise<boolean>; isSecret: Promise<boolean> };
  // An Output carries its rejection in three promises; the other two are not this test's business.
  for (const side of [inner.isKnown, inner.isSecret]) side.catch(() => {});
  return inner.promise();
}

describe("values given in code merge over the values files as Helm merges layers", () => {
  it.each([
    ["a whole-chart Output", () => pulumi.output({ database: { name: "accounts" } }), { database: { host: "postgres.data.svc", name: "accounts" } }],
    [
      "an Output map inside (it merges, it does not replace)",
      () => ({ database: pulumi.output({ name: "accounts" }) }),
      { database: { host: "postgres.data.svc", name: "accounts" } },
    ],
    ["a Promise", () => ({ database: Promise.resolve({ name: "accounts" }) }), { database: { host: "postgres.data.svc", name: "accounts" } }],
    ["an Output inside a list item", () => ({ extraEnv: [{ name: "TOKEN", value: pulumi.output("t-1") }] }), { extraEnv: [{ name: "TOKEN", value: "t-1" }] }],
    ["a list replacing the file's list", () => ({ tags: ["b"] }), { tags: ["b"] }],
    ["a null removing a default", () => ({ database: { host: null } }), { database: { host: null } }],
  ])("%s", async (_, code, expected) => {
    const values = await settle(deploy("ledger", code()).values);
    // values/ledger/values.yaml sets database.host; the chart's defaults are Helm's to add.
    expect(values).toStrictEqual({ database: { host: "postgres.data.svc" }, ...expected });
  });

  it("keeps the whole values secret when any part given in code is", async () => {
    const deployment = deploy("ledger", { extraEnv: [{ name: "TOKEN", value: pulumi.secret("planted-code-secret") }] });
    expect(await pulumi.isSecret(deployment.values)).toBe(true);
    expect(await pulumi.isSecret(deploy("ledger", { database: { name: "plain" } }).values)).toBe(false);
  });

  it("refuses a known value of the wrong type before anything is created, naming no value", () => {
    const error = (() => {
      try {
        deploy("webapp", { replicaCount: "three-planted" });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ChartroomError.isInstance(error) && error.code).toBe("VALUES_INVALID");
    expect((error as ChartroomError).details).toStrictEqual(["replicaCount: expected integer, got string (in code; set a value of type integer)"]);
    expect(JSON.stringify(error)).not.toContain("three-planted");
  });

  it("checks a value once it resolves, and refuses it when it does not fit", async () => {
    const plan = plans.get("webapp") as DeploymentPlan;
    const validate = (resolved: Record<string, unknown>) => checkResolved(plan, resolved);
    const error = await settle(mergedValues(plan.fileValues, { replicaCount: pulumi.output("three-planted") }, validate)).catch((caught: unknown) => caught);
    expect(ChartroomError.isInstance(error) && [error.code, error.details]).toStrictEqual([
      "VALUES_INVALID",
      ["replicaCount: expected integer, got string (in code; set a value of type integer)"],
    ]);
    expect(JSON.stringify(error)).not.toContain("three-planted");
  });

  it("refuses values that resolve to something other than a map", async () => {
    const error = await settle(mergedValues({}, pulumi.output(["not", "a", "map"]), () => {})).catch((caught: unknown) => caught);
    expect(ChartroomError.isInstance(error) && error.message).toBe("values given in code resolved to a list, not a map of values");
  });
});

describe("values not known during a preview", () => {
  /** An Output as a preview has it when the resource behind it is not created yet. */
  const unknown = () =>
    new (pulumi.Output as unknown as new (...args: unknown[]) => pulumi.Output<string>)(
      new Set(),
      Promise.resolve(undefined),
      Promise.resolve(false),
      Promise.resolve(false),
      Promise.resolve(new Set()),
    );

  it("are named by key, inside maps, lists and whole Outputs", async () => {
    expect(
      await unknownPaths({ auth: { password: unknown() }, extraEnv: [{ name: "A", value: unknown() }], image: { tag: pulumi.output("1.0") } }),
    ).toStrictEqual(["auth.password", "extraEnv[0].value"]);
    expect(await unknownPaths(unknown())).toStrictEqual(["(the whole values)"]);
    expect(await unknownPaths({ known: pulumi.output({ deep: "x" }) })).toStrictEqual([]);
  });
});
