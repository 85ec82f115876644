// What a diff report counts and concludes (src/diff/report.ts): the summary
// line, the exit-code decision, what is folded as bookkeeping or noise, what
// is listed apart, and the churn of fields that change on every render.
import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/model/findings.js";
import type { ChartReport, LiveSection, ObjectReport, ReportedChange } from "../../src/diff/model.js";
import {
  attachFindings,
  chartReport,
  countActions,
  describeCounts,
  describeSchemaChanges,
  diffReport,
  findingKey,
  isBookkeepingOnly,
  isFromCrdsFolder,
  isReal,
  liveStops,
  notDeployed,
  type ChartSide,
} from "../../src/diff/report.js";
import { parseManifest } from "../../src/render/manifest.js";

const options = { showSecrets: false, showBookkeeping: false };

function side(yaml: string, version = "1.0.0", unstable: string[] = []): ChartSide {
  return { version, objects: parseManifest(yaml, "ns", "app"), unstable: new Set(unstable) };
}

const config = (data: string, labels = "helm.sh/chart: app-1.0.0", name = "cfg") => `apiVersion: v1
kind: ConfigMap
metadata: { name: ${name}, labels: { ${labels} } }
data: { ${data} }
`;

const change = (path: string, tags: ReportedChange["tags"] = []): ReportedChange => ({ path, op: "change", before: 1, after: 2, tags });

function object(action: ObjectReport["action"], changes: ReportedChange[] = [], extra: Partial<ObjectReport> = {}): ObjectReport {
  return {
    id: `v1/ConfigMap/ns/${action}`,
    display: `ConfigMap ns/${action}`,
    action,
    step: action === "rename" ? "update" : action,
    apiVersion: "v1",
    changes,
    ...extra,
  } as ObjectReport;
}

function chart(objects: ObjectReport[], extra: Partial<ChartReport> = {}): ChartReport {
  return {
    chart: "app",
    stack: "dev",
    engine: "chart",
    from: { version: "1.0.0" },
    to: { version: "1.1.0" },
    objects,
    apart: [],
    bookkeeping: { objects: 0, fields: [] },
    unstable: { objects: 0, paths: [], churn: [] },
    contract: [],
    images: [],
    findings: { added: [], resolved: [] },
    notes: [],
    ...extra,
  };
}

const finding = (severity: Finding["severity"], rule = "r", object = "ConfigMap ns/a"): Finding => ({
  rule,
  severity,
  chart: "app",
  stack: "dev",
  object,
  path: "data",
  message: "m",
});

const live = (extra: Partial<LiveSection> = {}): LiveSection => ({
  server: "https://127.0.0.1",
  context: "test",
  counts: {},
  objects: [],
  notes: [],
  ...extra,
});

describe("what counts as a change", () => {
  it("isReal: any add, delete, replace or rename; an update with a change that is neither noise nor bookkeeping, or with schema changes", () => {
    for (const action of ["add", "delete", "replace", "rename"] as const) expect(isReal(object(action)), action).toBe(true);
    expect(isReal(object("update", [change("data.a")]))).toBe(true);
    expect(isReal(object("update", [change("data.a", ["unstable"]), change("metadata.labels.x", ["bookkeeping"])]))).toBe(false);
    expect(isReal(object("update", [change("data.a", ["unstable"]), change("data.b")]))).toBe(true);
    const schema = { path: "spec.versions[0].schema.openAPIV3Schema", version: "v1", added: 1, removed: 0, changed: 0, descriptions: 0 };
    expect(isReal(object("update", [], { schemaChanges: [schema] }))).toBe(true);
    expect(isReal(object("update", [], { schemaChanges: [] }))).toBe(false);
  });

  it("isBookkeepingOnly: an update whose every change is bookkeeping", () => {
    expect(isBookkeepingOnly(object("update", [change("metadata.labels.x", ["bookkeeping"])]))).toBe(true);
    expect(isBookkeepingOnly(object("update", [change("metadata.labels.x", ["bookkeeping"]), change("data.a")]))).toBe(false);
    expect(isBookkeepingOnly(object("update", []))).toBe(false);
    expect(isBookkeepingOnly(object("replace", [change("metadata.labels.x", ["bookkeeping"])]))).toBe(false);
  });

  it("liveStops: a failing outcome, a pod stuck where the engine waits, or a right the identity lacks", () => {
    expect(liveStops(undefined)).toBe(false);
    expect(liveStops(live())).toBe(false);
    expect(liveStops(live({ objects: [{ id: "a", display: "a", outcome: "update" }] as LiveSection["objects"] }))).toBe(false);
    for (const outcome of ["conflict", "immutable", "unknown-kind", "forbidden", "blocked", "error"] as const) {
      expect(liveStops(live({ objects: [{ id: "a", display: "a", outcome }] as LiveSection["objects"] })), outcome).toBe(true);
    }
    expect(liveStops(live({ awaits: [{ failing: "ImagePullBackOff" }] as unknown as LiveSection["awaits"] }))).toBe(true);
    expect(liveStops(live({ awaits: [{}] as unknown as LiveSection["awaits"] }))).toBe(false);
    expect(liveStops(live({ missingRights: [] }))).toBe(true);
  });
});

describe("diffReport", () => {
  it("counts each action, noise and bookkeeping apart, contract changes but not defaults, findings but not info", () => {
    const report = diffReport(
      [
        chart(
          [
            object("add"),
            object("add"),
            object("delete"),
            object("update", [change("data.a")]),
            object("replace"),
            object("rename"),
            object("update", [change("data.a", ["unstable"])]),
            object("update", [change("metadata.labels.x", ["bookkeeping"])]),
          ],
          {
            bookkeeping: { objects: 3, fields: ["labels.x"] },
            contract: [{ kind: "removed" }, { kind: "default" }, { kind: "type" }] as unknown as ChartReport["contract"],
            findings: { added: [finding("error"), finding("warning"), finding("info")], resolved: [finding("warning"), finding("info")] },
          },
        ),
        chart([object("add")], { bookkeeping: { objects: 2, fields: [] }, findings: { added: [], resolved: [finding("error")] } }),
      ],
      4,
    );
    expect(report.summary).toStrictEqual({
      charts: 2,
      add: 3,
      delete: 1,
      update: 1,
      replace: 1,
      rename: 1,
      bookkeeping: 5,
      unstable: 1,
      contract: 2,
      findingsAdded: 2,
      findingsResolved: 2,
      unchanged: 4,
    });
    expect(report.changed).toBe(true);
    expect(report.format).toBe(2);
  });

  it.each([
    ["nothing", chart([]), false],
    [
      "only noise and bookkeeping",
      chart([object("update", [change("data.a", ["unstable"])]), object("update", [change("metadata.labels.x", ["bookkeeping"])])]),
      false,
    ],
    ["a changed default", chart([], { contract: [{ kind: "default" }] as unknown as ChartReport["contract"] }), false],
    ["a warning or info finding added", chart([], { findings: { added: [finding("warning"), finding("info")], resolved: [] } }), false],
    ["an error finding resolved", chart([], { findings: { added: [], resolved: [finding("error")] } }), false],
    ["a live review that stops nothing", chart([], { live: live() }), false],
    ["a real update", chart([object("update", [change("data.a")])]), true],
    ["a contract change", chart([], { contract: [{ kind: "removed" }] as unknown as ChartReport["contract"] }), true],
    ["an error finding added", chart([], { findings: { added: [finding("error")], resolved: [] } }), true],
    ["a live object to report", chart([], { live: live({ objects: [{ id: "a", display: "a", outcome: "drift" }] as LiveSection["objects"] }) }), true],
    ["a live right missing", chart([], { live: live({ missingRights: ["create deployments"] }) }), true],
  ])("is changed (exit 2) for %s: %s", (_, one, changed) => {
    expect(diffReport([chart([]), one]).changed).toBe(changed);
  });

  it("countActions and describeCounts: the real changes of one chart in words", () => {
    const counts = countActions(
      chart([object("add"), object("update", [change("data.a")]), object("update", [change("data.a", ["unstable"])]), object("rename")]),
    );
    expect(counts).toStrictEqual({ add: 1, delete: 0, update: 1, replace: 0, rename: 1 });
    expect(describeCounts(counts)).toBe("1 added, 1 updated, 1 renamed");
    expect(describeCounts({ add: 0, delete: 2, update: 0, replace: 3, rename: 0 })).toBe("2 deleted, 3 replaced");
    expect(describeCounts({ add: 0, delete: 0, update: 0, replace: 0, rename: 0 })).toBe("no object changes");
  });

  it("describeSchemaChanges: the counts that are there", () => {
    const base = { path: "spec.versions[0].schema.openAPIV3Schema", version: "v1" };
    expect(describeSchemaChanges({ ...base, added: 2, removed: 1, changed: 30, descriptions: 20 })).toBe(
      "spec.versions[0].schema.openAPIV3Schema (v1): 30 field(s) changed, 2 added, 1 removed (20 of them descriptions); --show-schema-fields lists them",
    );
    expect(describeSchemaChanges({ ...base, added: 13, removed: 0, changed: 0, descriptions: 0 })).toBe(
      "spec.versions[0].schema.openAPIV3Schema (v1): 13 added; --show-schema-fields lists them",
    );
  });
});

describe("attachFindings", () => {
  it("puts on each chart and stack the findings the change adds and resolves, by rule, object and path", () => {
    const charts = [chart([]), chart([], { chart: "other" }), chart([], { stack: "prod" })];
    const kept = finding("error", "kept");
    const gone = finding("warning", "gone");
    const moved = { ...finding("error", "kept"), path: "data.b" };
    const reworded = { ...kept, message: "another wording" };
    const elsewhere = { ...finding("error", "new"), chart: "other" };
    attachFindings(charts, [kept, gone], [reworded, moved, elsewhere]);
    expect(charts[0]?.findings).toStrictEqual({ added: [moved], resolved: [gone] });
    expect(charts[1]?.findings).toStrictEqual({ added: [elsewhere], resolved: [] });
    expect(charts[2]?.findings).toStrictEqual({ added: [], resolved: [] });
    expect(findingKey(kept)).toBe(findingKey(reworded));
    expect(findingKey(kept)).not.toBe(findingKey(moved));
    expect(findingKey({ ...kept, object: undefined, path: undefined })).toBe(["kept", "app", "dev", "", ""].join("\u0000"));
  });

  it("puts the findings of a chart the change did not touch with the first changed chart of its stack, naming their own chart", () => {
    const charts = [chart([], { stack: "prod" }), chart([]), chart([], { chart: "other" })];
    const untouched = { ...finding("error", "schema"), chart: "uses" };
    const fixed = { ...finding("warning", "old"), chart: "uses", stack: "prod" };
    const nowhere = { ...finding("error", "lost"), chart: "uses", stack: "staging" };
    attachFindings(charts, [fixed], [untouched, nowhere]);
    expect(charts.map((entry) => entry.findings)).toStrictEqual([
      { added: [], resolved: [fixed] },
      { added: [untouched], resolved: [] },
      { added: [], resolved: [] },
    ]);
  });
});

describe("chartReport", () => {
  const meta = { chart: "app", stack: "dev", engine: "chart" as const };

  it("names both versions, or null for a side that is not there", () => {
    const one = side(config("a: '1'"));
    expect([chartReport(meta, one, one, options).from, chartReport(meta, one, side(config("a: '1'"), "2.0.0"), options).to]).toStrictEqual([
      { version: "1.0.0" },
      { version: "2.0.0" },
    ]);
    const added = chartReport(meta, null, one, options);
    expect([added.from, added.to, added.objects.map((o) => o.action)]).toStrictEqual([null, { version: "1.0.0" }, ["add"]]);
    const removed = chartReport(meta, one, null, options);
    expect([removed.from, removed.to, removed.objects.map((o) => o.action)]).toStrictEqual([{ version: "1.0.0" }, null, ["delete"]]);
    expect([added.contract, added.findings, added.notes]).toStrictEqual([[], { added: [], resolved: [] }, []]);
  });

  it("folds bookkeeping: objects counted, fields named from labels or annotations on, and shown with the rest when asked", () => {
    const before = side(`${config("a: '1'")}---\n${config("b: '1'", "helm.sh/chart: app-1.0.0", "two")}`);
    const after = side(`${config("a: '1'", "helm.sh/chart: app-1.1.0")}---\n${config("b: '2'", "helm.sh/chart: app-1.1.0", "two")}`, "1.1.0");
    const folded = chartReport(meta, before, after, options);
    // Counted: every object with a folded change, the one that has other changes too.
    expect(folded.bookkeeping).toStrictEqual({ objects: 2, fields: ['labels["helm.sh/chart"]'] });
    expect(folded.objects.map((o) => [o.display, o.changes.map((c) => c.path)])).toStrictEqual([["ConfigMap ns/two", ["data.b"]]]);
    const shown = chartReport(meta, before, after, { ...options, showBookkeeping: true });
    // Shown: the bookkeeping-only object is counted still, the mixed one is not.
    expect(shown.bookkeeping.objects).toBe(1);
    expect(shown.objects.map((o) => [o.display, o.changes.map((c) => c.path).sort()])).toStrictEqual([
      ["ConfigMap ns/cfg", ['metadata.labels["helm.sh/chart"]']],
      ["ConfigMap ns/two", ["data.b", 'metadata.labels["helm.sh/chart"]']],
    ]);
  });

  it("keeps noise only where both sides churn, and names its paths and the objects", () => {
    const id = "/ConfigMap/ns/cfg";
    const before = side(config("a: '1', b: '1'"), "1.0.0", [`${id} data.a`, `${id} data.b`, "/Secret/ns/gone data.x"]);
    const after = side(config("a: '2', b: '2'"), "1.1.0", [`${id} data.a`, "/Secret/ns/gone data.x"]);
    const report = chartReport(meta, before, after, options);
    expect(report.unstable.objects).toBe(2);
    expect(report.unstable.paths).toStrictEqual(["/Secret/ns/gone: data.x", "ConfigMap ns/cfg: data.a"]);
    // An object no longer rendered has no churn; helm.v4.Chart's provider replaces a changed ConfigMap at each run.
    expect(report.unstable.churn).toStrictEqual([{ id, display: "ConfigMap ns/cfg", step: "replace" }]);
    expect(report.unstable.consequence).toContain("ConfigMap ns/cfg");
    const tags = Object.fromEntries(report.objects[0]?.changes.map((c) => [c.path, c.tags.includes("unstable")]) ?? []);
    expect(tags).toStrictEqual({ "data.a": true, "data.b": false });
    // A side without noise: nothing is noise.
    expect(chartReport(meta, null, after, options).unstable).toStrictEqual({ objects: 0, paths: [], churn: [] });
  });

  it("says what every run does where churn replaces an object under helm.v4.Chart, and not under a Release", () => {
    const job = (arg: string) =>
      `apiVersion: batch/v1\nkind: Job\nmetadata: { name: once }\nspec:\n  template:\n    spec: { restartPolicy: Never, containers: [{ name: j, image: j:1, args: [${arg}] }] }\n`;
    const id = "batch/Job/ns/once";
    const noise = [`${id} spec.template.spec.containers[0].args[0]`, `${id} metadata.labels.x`];
    const under = (engine: "chart" | "release") =>
      chartReport({ ...meta, engine }, side(job("a"), "1.0.0", noise), side(job("b"), "1.1.0", noise), options).unstable;
    expect(under("chart").churn).toStrictEqual([{ id, display: "Job.batch ns/once", step: "replace" }]);
    expect(under("chart").consequence).toContain("Job.batch ns/once");
    expect(under("release").churn).toStrictEqual([{ id, display: "Job.batch ns/once", step: "update" }]);
    expect(under("release").consequence).toBeUndefined();
  });

  it("lists hooks apart where the engine never creates them, with what happened to each", () => {
    const hook = (name: string, data: string, events = "pre-install") =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ${name}, annotations: { "helm.sh/hook": ${events} } }\ndata: { ${data} }\n`;
    const before = side(`${hook("same", "a: '1'")}---\n${hook("changed", "a: '1'")}---\n${hook("gone", "a: '1'")}---\n${config("a: '1'")}`);
    const after = side(
      `${hook("same", "a: '1'")}---\n${hook("changed", "a: '2'")}---\n${hook("new", "other: text, more: words")}---\n${config("a: '1'")}`,
      "1.1.0",
    );
    const report = chartReport(meta, before, after, options);
    expect(report.apart.map((item) => [item.display, item.change])).toStrictEqual([
      ["ConfigMap ns/changed", "update"],
      ["ConfigMap ns/gone", "delete"],
      ["ConfigMap ns/new", "add"],
      ["ConfigMap ns/same", "same"],
    ]);
    expect(report.objects).toStrictEqual([]);
    // Under a Release hooks are diffed like the rest, except test hooks.
    const release = chartReport({ ...meta, engine: "release" }, before, after, options);
    expect(release.apart).toStrictEqual([]);
    expect(release.objects.map((o) => [o.display, o.action]).sort()).toStrictEqual([
      ["ConfigMap ns/changed", "update"],
      ["ConfigMap ns/gone", "delete"],
      ["ConfigMap ns/new", "add"],
    ]);
  });

  it("notDeployed: why an engine never creates an object", () => {
    const hook = (events: string[], test = false) => ({ hook: { events, test, weight: 0, deletePolicies: [] } }) as never;
    expect(notDeployed("chart", { hook: undefined })).toBeUndefined();
    expect(notDeployed("release", { hook: undefined })).toBeUndefined();
    expect(notDeployed("chart", hook(["pre-install", "pre-upgrade"]))).toContain("a pre-install,pre-upgrade hook");
    expect(notDeployed("chart", hook(["test"], true))).toContain("a test hook");
    expect(notDeployed("release", hook(["pre-install"]))).toBeUndefined();
    expect(notDeployed("release", hook(["test"], true))).toContain("helm test");
  });

  it("isFromCrdsFolder: the chart's or a subchart's crds/, not a template that happens to be called so", () => {
    expect(isFromCrdsFolder("app/crds/a.yaml")).toBe(true);
    expect(isFromCrdsFolder("crds/a.yaml")).toBe(true);
    expect(isFromCrdsFolder("app/charts/sub/crds/a.yaml")).toBe(true);
    expect(isFromCrdsFolder("app/templates/crds/a.yaml")).toBe(false);
    expect(isFromCrdsFolder("app/mycrds/a.yaml")).toBe(false);
    expect(isFromCrdsFolder(undefined)).toBe(false);
  });
});
