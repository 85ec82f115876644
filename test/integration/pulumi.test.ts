import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { deployCharts, dependencyOrder, retainCrds } from "../../src/deploy/pulumi/index.js";
import { chartTransforms } from "../../src/deploy/pulumi/deployment.js";
import { deploymentPlans } from "../../src/workflows/deployments.js";
import { openProject } from "../../src/project/project.js";
import { ChartroomError } from "../../src/errors/index.js";
import type { WrittenConfig } from "../../src/config/types.js";
import { ROOT } from "../helpers/platform.js";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  provider: string;
  dependencies: string[];
  transforms: number;
  protect: boolean;
}

const registered: Registered[] = [];
// How the Pulumi wire format marks a secret value.
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_MARK = "1b47061264138c4ac30d75fd1eb44270";
const PASSWORD = "planted-pulumi-secret-77";

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => args.inputs,
    },
    "platform",
    "dev",
    false,
  );
  // Record what the engine would receive: the real RegisterResource requests.
  const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource: (req: RegisterRequest, callback: unknown) => Promise<void> };
  const original = monitor.registerResource.bind(monitor);
  monitor.registerResource = async (req, callback) => {
    registered.push({
      type: req.getType(),
      name: req.getName(),
      inputs: pulumi.runtime.deserializeProperties(req.getObject() as Parameters<typeof pulumi.runtime.deserializeProperties>[0]) as Record<string, unknown>,
      provider: req.getProvider(),
      dependencies: req.getDependenciesList(),
      transforms: req.getTransformsList?.().length ?? 0,
      protect: req.getProtect?.() ?? false,
    });
    return original(req, callback);
  };
  pulumi.runtime.setAllConfig({ "platform:kubeconfig": "apiVersion: v1\nkind: Config\n", "platform:webappPassword": PASSWORD }, [
    "platform:kubeconfig",
    "platform:webappPassword",
  ]);
});

interface RegisterRequest {
  getType(): string;
  getName(): string;
  getObject(): unknown;
  getProvider(): string;
  getDependenciesList(): string[];
  getTransformsList?(): unknown[];
  getProtect?(): boolean;
}

async function settle<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

const resource = (type: string, name: string) => registered.find((r) => r.type === type && r.name === name);

describe("the example Pulumi program, under mocks", () => {
  let charts: Record<string, { engine: pulumi.Output<string>; version: pulumi.Output<string> }>;

  beforeAll(async () => {
    const program = (await import("../../pulumi/index.js")) as { charts: Promise<typeof charts> };
    charts = await program.charts;
    // Every registration the program started has reached the (mock) monitor.
    const settings = (await import("@pulumi/pulumi/runtime/settings.js")) as unknown as { waitForRPCs(): Promise<void> };
    await settings.waitForRPCs();
  });

  it("deploys the web app as helm.v4.Chart with the pinned archive and its validated values, kept secret", async () => {
    const chart = resource("kubernetes:helm.sh/v4:Chart", "webapp");
    expect(chart?.inputs).toMatchObject({ chart: ".chartroom/charts/webapp-1.0.1-7722913d9a0d.tgz", namespace: "web", name: "webapp", skipCrds: false });
    expect(chart?.inputs.version).toBeUndefined();
    // The password from stack config is a secret, so the whole values input reaches the engine as one.
    const values = chart?.inputs.values as Record<string, unknown>;
    expect(values[SECRET_SIG]).toBe(SECRET_MARK);
    expect(values.value).toMatchObject({
      image: { pullPolicy: "Always" },
      service: { port: 8080 },
      ingress: { enabled: true, host: "webapp.dev.example.test" },
      podAnnotations: { team: "storefront", "example.test/stack": "dev" },
      auth: { password: PASSWORD },
    });
    expect(await settle(charts.webapp!.engine)).toBe("chart");
  });

  it("deploys the hook chart as helm.v3.Release with the platform's release defaults", async () => {
    const release = resource("kubernetes:helm.sh/v3:Release", "ledger");
    expect(release?.inputs).toMatchObject({
      chart: ".chartroom/charts/ledger-0.1.0-fe593585f948.tgz",
      namespace: "ledger",
      allowNullValues: true,
      atomic: true,
      timeout: 600,
      maxHistory: 10,
      cleanupOnFail: true,
      waitForJobs: true,
      values: { database: { host: "postgres.data.svc" } },
    });
    expect((release?.inputs.values as Record<string, unknown> | undefined)?.[SECRET_SIG]).toBeUndefined();
    expect(resource("kubernetes:helm.sh/v4:Chart", "ledger")).toBeUndefined();
  });

  it("gives every chart the explicit provider", () => {
    const provider = resource("pulumi:providers:kubernetes", "cluster");
    expect(provider).toBeDefined();
    const engines = registered.filter((item) => item.type.startsWith("kubernetes:helm.sh/"));
    // Every declared chart registered (a loop over nothing would pass): three Charts and the Release.
    expect(engines.map((r) => r.name).sort()).toStrictEqual(["ledger", "storefront", "webapp", "widgets-operator"]);
    for (const r of engines) expect(r.provider).toContain("::cluster::");
  });

  it("turns dependsOn between charts into Pulumi dependsOn between deployments", () => {
    const storefront = resource("chartroom:index:ChartDeployment", "storefront");
    expect(storefront?.dependencies.some((urn) => urn.endsWith("::widgets-operator"))).toBe(true);
    expect(resource("chartroom:index:ChartDeployment", "webapp")?.dependencies).toStrictEqual([
      "urn:pulumi:dev::platform::kubernetes:core/v1:Namespace::namespace-web",
    ]);
  });

  it("runs under plain setMocks: the mock monitor gets helm.v4.Chart without transforms (it has no children to give them to)", () => {
    expect(resource("kubernetes:helm.sh/v4:Chart", "widgets-operator")?.transforms).toBe(0);
  });

  it("gives helm.v4.Chart deployments the secret-keeping, CRD-retaining and apiVersion-aliasing transforms (on the engine)", async () => {
    const plans = await deploymentPlans(await openProject({ dir: ROOT, config: await config() }), { stack: "dev" });
    const plan = plans.find((p) => p.spec.key === "widgets-operator")!;
    const parent = new pulumi.ComponentResource("test:index:Parent", "transforms-parent");
    expect(chartTransforms({ plan }, parent)).toHaveLength(3);
    expect(chartTransforms({ plan, aliasApiVersions: false }, parent)).toHaveLength(2);
  });

  it("makes each chart's inner Chart or Release depend on the inner resources of the charts it follows", () => {
    const inner = resource("kubernetes:helm.sh/v4:Chart", "storefront");
    expect(inner?.dependencies).toStrictEqual(["urn:pulumi:dev::platform::chartroom:index:ChartDeployment$kubernetes:helm.sh/v4:Chart::widgets-operator"]);
  });
});

describe("deployCharts", () => {
  const provider = () => new k8s.Provider(`p-${Math.random()}`, { kubeconfig: "x" });

  it("keeps secret values given in code secret", async () => {
    const deployments = await deployCharts(await config(), {
      stack: "dev",
      provider: provider(),
      dir: ROOT,
      values: { webapp: { auth: { password: pulumi.secret("in-code-secret") } } },
    });
    expect(await pulumi.isSecret(deployments.webapp!.values)).toBe(true);
    expect(await pulumi.isSecret(deployments.ledger!.values)).toBe(false);
  });

  it("checks values given in code, Outputs included but unchecked, and never prints a value", async () => {
    const error = await deployCharts(await config(), {
      stack: "dev",
      provider: provider(),
      dir: ROOT,
      values: { webapp: { replicaCount: "three-planted" as unknown as number, auth: { password: pulumi.output("later") } } },
    }).catch((e: unknown) => e);
    expect(ChartroomError.isInstance(error) && error.code).toBe("VALUES_INVALID");
    expect((error as ChartroomError).details).toStrictEqual(["replicaCount: expected integer, got string (in code; set a value of type integer)"]);
    expect(JSON.stringify(error)).not.toContain("three-planted");
  });

  it("refuses to run without an explicit provider, explaining the risk", async () => {
    const error = (await deployCharts(await config(), { stack: "dev", dir: ROOT }).catch((e: unknown) => e)) as ChartroomError;
    expect(error.code).toBe("PROVIDER_MISSING");
    expect(error.details.join(" ")).toContain("whatever kubeconfig this machine has");
    expect(error.hint).toContain("allowAmbientKubeconfig: true");
  });

  it("refuses engine chart on the hook chart without dropHooks, listing the hooks", async () => {
    const written = await config();
    (written.charts as Record<string, Record<string, unknown>>).ledger!.engine = "chart";
    const error = (await deploymentPlans(await openProject({ dir: ROOT, config: written }), { stack: "dev" }).catch((e: unknown) => e)) as ChartroomError;
    expect(error.code).toBe("ENGINE_DROPS_HOOKS");
    expect(error.details).toStrictEqual(["pre-install: Job.batch ledger/ledger-migrate", "pre-upgrade: Job.batch ledger/ledger-migrate"]);
  });

  it("says to run chartroom lock when the lock is missing or stale", async () => {
    const dir = await mkdtemp(join(tmpdir(), "chartroom-deploy-"));
    try {
      for (const name of ["chartroom.config.ts", "charts", "values"]) await cp(join(ROOT, name), join(dir, name), { recursive: true });
      const missing = (await deploymentPlans(await openProject({ dir, config: await config() }), { stack: "dev" }).catch((e: unknown) => e)) as ChartroomError;
      expect(missing.code).toBe("LOCK_MISSING");
      expect(missing.hint).toContain("chartroom lock");
      await writeFile(join(dir, "charts.lock.json"), await readFile(join(ROOT, "charts.lock.json")));
      const written = await config();
      (written.charts as Record<string, Record<string, unknown>>).webapp!.version = "^1.0.0";
      const stale = (await deploymentPlans(await openProject({ dir, config: written }), { stack: "dev" }).catch((e: unknown) => e)) as ChartroomError;
      expect(stale.code).toBe("LOCK_STALE");
      expect(stale.details).toStrictEqual(["range changed (~1.0.0 → ^1.0.0)"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("orders deployments so a chart comes after what it depends on", async () => {
    const plans = await deploymentPlans(await openProject({ dir: ROOT, config: await config() }), { stack: "dev" });
    const order = dependencyOrder(plans).map((plan) => plan.spec.key);
    expect(order.indexOf("widgets-operator")).toBeLessThan(order.indexOf("storefront"));
  });
});

describe("deployCharts options", () => {
  const provider = () => new k8s.Provider(`p-${Math.random()}`, { kubeconfig: "x" });

  it("deploys the platform twice in one program, named apart, with no URN collision", async () => {
    const first = registered.length;
    const blue = await deployCharts(await config(), { name: "blue", provider: provider(), dir: ROOT });
    const green = await deployCharts(await config(), { name: "green", provider: provider(), dir: ROOT });
    const settings = (await import("@pulumi/pulumi/runtime/settings.js")) as unknown as { waitForRPCs(): Promise<void> };
    await settings.waitForRPCs();
    expect(Object.keys(blue).sort()).toStrictEqual(Object.keys(green).sort());
    const names = registered.slice(first).map((r) => `${r.type}::${r.name}`);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("kubernetes:helm.sh/v4:Chart::blue-webapp");
    expect(names).toContain("kubernetes:core/v1:Namespace::green-namespace-web");
  });

  it("takes the Pulumi stack as the chartroom stack when none is named", async () => {
    const deployments = await deployCharts(await config(), { name: "by-stack", provider: provider(), dir: ROOT });
    expect(await settle(deployments.webapp!.values)).toMatchObject({ ingress: { host: "webapp.dev.example.test" } });
  });

  it("applies per-chart resource options: on the Release itself, on each child of a helm.v4.Chart", async () => {
    const first = registered.length;
    await deployCharts(await config(), { name: "opts", provider: provider(), dir: ROOT, charts: { ledger: { protect: true }, webapp: { protect: true } } });
    const settings = (await import("@pulumi/pulumi/runtime/settings.js")) as unknown as { waitForRPCs(): Promise<void> };
    await settings.waitForRPCs();
    const mine = registered.slice(first);
    expect(mine.find((r) => r.name === "opts-ledger" && r.type === "kubernetes:helm.sh/v3:Release")?.protect).toBe(true);
    // Under helm.v4.Chart the options go to each child, by the last transform.
    const plans = await deploymentPlans(await openProject({ dir: ROOT, config: await config() }), { stack: "dev" });
    const plan = plans.find((p) => p.spec.key === "webapp")!;
    const parent = new pulumi.ComponentResource("test:index:Parent", "options-parent");
    const transforms = chartTransforms({ plan, options: { protect: true } }, parent);
    expect(transforms).toHaveLength(4);
    const child = { custom: true, type: "kubernetes:apps/v1:Deployment", name: "webapp", props: {}, opts: {} } as unknown as pulumi.ResourceTransformArgs;
    const result = (await transforms.at(-1)!(child)) as pulumi.ResourceTransformResult;
    expect(result.opts.protect).toBe(true);
    const component = { ...child, custom: false } as pulumi.ResourceTransformArgs;
    expect(await transforms.at(-1)!(component)).toBeUndefined();
  });

  it("refuses options for a chart the config does not declare", async () => {
    const error = (await deployCharts(await config(), { name: "bad", provider: provider(), dir: ROOT, charts: { webap: { protect: true } } }).catch(
      (e: unknown) => e,
    )) as ChartroomError;
    expect([error.code, error.hint]).toStrictEqual(["UNKNOWN_CHART", "declared charts: ledger, storefront, webapp, widgets-operator"]);
  });

  it("refuses values given in code for a chart the config does not declare", async () => {
    const error = (await deployCharts(await config(), {
      name: "bad-values",
      provider: provider(),
      dir: ROOT,
      values: { webap: { replicaCount: 2 } } as never,
    }).catch((e: unknown) => e)) as ChartroomError;
    expect([error.code, error.message]).toStrictEqual([
      "UNKNOWN_CHART",
      'deployCharts options name "webap", which is not a chart declared in the config (did you mean "webapp"?)',
    ]);
  });

  it("refuses an existing namespace no chart uses, with the nearest one", async () => {
    const error = (await deployCharts(await config(), { name: "ns-typo", provider: provider(), dir: ROOT, existingNamespaces: ["shp"] }).catch(
      (e: unknown) => e,
    )) as ChartroomError;
    expect([error.code, error.message]).toStrictEqual([
      "INVALID_ARGUMENT",
      'deployCharts names "shp" in existingNamespaces, which no chart uses (did you mean "shop"?)',
    ]);
  });

  it("creates no Namespace the platform says exists already", async () => {
    const first = registered.length;
    await deployCharts(await config(), { name: "ns", provider: provider(), dir: ROOT, existingNamespaces: ["web", "shop"] });
    const settings = (await import("@pulumi/pulumi/runtime/settings.js")) as unknown as { waitForRPCs(): Promise<void> };
    await settings.waitForRPCs();
    expect(
      registered
        .slice(first)
        .filter((r) => r.type === "kubernetes:core/v1:Namespace")
        .map((r) => r.name)
        .sort(),
    ).toStrictEqual(["ns-namespace-ledger", "ns-namespace-widgets"]);
  });
});

describe("retainCrds", () => {
  it("keeps CustomResourceDefinitions on delete and leaves other resources alone", () => {
    const opts = { protect: false };
    const crd = retainCrds({ type: "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition", name: "widgets", props: { a: 1 }, opts, custom: true });
    expect(crd?.opts).toMatchObject({ retainOnDelete: true, protect: false });
    expect(crd?.props).toStrictEqual({ a: 1 });
    expect(retainCrds({ type: "kubernetes:apps/v1:Deployment", name: "web", props: {}, opts, custom: true })).toBeUndefined();
  });
});

async function config(): Promise<WrittenConfig & { charts: Record<string, Record<string, unknown>> }> {
  const module = (await import("../../chartroom.config.js")) as { default: WrittenConfig };
  return structuredClone(module.default) as WrittenConfig & { charts: Record<string, Record<string, unknown>> };
}
