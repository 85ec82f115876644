// Wrong calls of the public API, as JavaScript (or a program whose types
// drifted) makes them: each is an INVALID_ARGUMENT naming the function and the
// argument, never a TypeError from inside.
import * as chartroom from "chartroom";
import { types } from "chartroom/codegen";
import { chartroomPolicies } from "chartroom/policy";
import { deployCharts } from "chartroom/pulumi";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helm } from "../helpers/helm.js";
import { copyPlatformTo } from "../helpers/platform.js";

type Call = () => unknown;

let project: chartroom.Project;
let dir: string;

beforeAll(async () => {
  dir = await copyPlatformTo(await mkdtemp(join(tmpdir(), "chartroom-arguments-")));
  project = await chartroom.openProject({ dir, env: { ...process.env, HELM_BIN: await helm(4), CHARTROOM_CACHE: join(dir, ".cache") } as NodeJS.ProcessEnv });
});

afterAll(() => rm(dir, { recursive: true, force: true }));

const wrong = (value: unknown) => value as never;

const CALLS: [string, Call][] = [
  ["openProject with a number as dir", () => chartroom.openProject(wrong({ dir: 5 }))],
  ["openProject with a misspelt option", () => chartroom.openProject(wrong({ directory: "." }))],
  ["openProject with a string for options", () => chartroom.openProject(wrong("."))],
  ["lock without a project", () => chartroom.lock(wrong(undefined))],
  ["lock with a config instead of a project", () => chartroom.lock(wrong({ charts: {} }))],
  ["lock with charts as a string", () => chartroom.lock(project, wrong({ charts: "webapp" }))],
  ["lock with a negative concurrency", () => chartroom.lock(project, wrong({ concurrency: -1 }))],
  ["verify with null", () => chartroom.verify(wrong(null))],
  ["outdated with charts as a number", () => chartroom.outdated(project, wrong({ charts: 3 }))],
  ["plan with diff as a string", () => chartroom.plan(project, wrong({ diff: "no" }))],
  ["render without options", () => chartroom.render(project, wrong(undefined))],
  ["render with chart as a number", () => chartroom.render(project, wrong({ chart: 1 }))],
  ["render with values as a string", () => chartroom.render(project, wrong({ chart: "webapp", values: "a: 1" }))],
  ["diff with a misspelt option", () => chartroom.diff(project, wrong({ too: "latest" }))],
  ["diff with showSecrets as a string", () => chartroom.diff(project, wrong({ to: "latest", showSecrets: "yes" }))],
  ["check with stack as a list", () => chartroom.check(project, wrong({ stack: ["dev"] }))],
  ["planUpgrade with charts of numbers", () => chartroom.planUpgrade(project, wrong({ charts: [1] }))],
  ["applyUpgrade with no plan", () => chartroom.applyUpgrade(project, wrong(undefined))],
  ["applyUpgrade with a plan of the wrong shape", () => chartroom.applyUpgrade(project, wrong({ moves: "all" }))],
  ["upgradeReport with a string", () => chartroom.upgradeReport(wrong("plan"))],
  ["explain with no chart", () => chartroom.explain(project, wrong({}))],
  ["deploymentPlans with stack as a number", () => chartroom.deploymentPlans(project, wrong({ stack: 1 }))],
  ["formatReport with null", () => chartroom.formatReport(wrong(null), "text")],
  [
    "formatReport with options of the wrong shape",
    () => chartroom.formatReport(wrong({ report: "lock", format: 1, path: "", written: false, changes: [] }), "text", wrong({ colour: true })),
  ],
  ["types with a string for a project", () => types(wrong("."))],
  ["types with check as a string", () => types(project, wrong({ check: "yes" }))],
  ["chartroomPolicies with a misspelt option", () => chartroomPolicies(wrong({ stak: "dev" }))],
  ["deployCharts with values as a string", () => deployCharts(wrong({ repositories: {}, charts: {} }), wrong({ allowAmbientKubeconfig: true, values: "x" }))],
  ["deployCharts with a misspelt option", () => deployCharts(wrong({ repositories: {}, charts: {} }), wrong({ allowAmbientKubeconfig: true, namespaces: [] }))],
];

describe("wrong calls of the public API", () => {
  it("has a case for every kind of mistake above", () => {
    expect(CALLS.length).toBeGreaterThanOrEqual(25);
  });

  it.each(CALLS)("%s: INVALID_ARGUMENT naming the function", async (name, call) => {
    let caught: unknown;
    try {
      await call();
    } catch (error) {
      caught = error;
    }
    expect(caught, name).toBeDefined();
    expect(chartroom.ChartroomError.isInstance(caught), String(caught)).toBe(true);
    const error = caught as chartroom.ChartroomError;
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.message).toMatch(/^[a-zA-Z]+\(\): /);
  });
});
