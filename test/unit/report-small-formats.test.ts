// The outdated and explain reports printed whole, with every part each can
// have: the golden reports of test/public/reports.test.ts come from one real
// workflow each and cannot hold every branch.
import { describe, expect, it } from "vitest";
import { explainMarkdown, explainText, type ExplainReport } from "../../src/report/explain.js";
import { outdatedMarkdown, outdatedText, type OutdatedReport } from "../../src/report/outdated.js";
import type { Colour } from "../../src/report/paint.js";

const tags = (text: string, colour: Colour) => `<${colour}>${text}</${colour}>`;

describe("outdated", () => {
  const repository = "https://charts.example.test";
  const report: OutdatedReport = {
    report: "outdated",
    format: 1,
    charts: [
      { chart: "web", repository, current: "1.0.0", wanted: "1.0.0", latest: "1.0.0", outdated: false },
      { chart: "api", repository, current: "1.0.0", wanted: "1.0.0", latest: "2.0.0", updateType: "major", outdated: true },
      { chart: "db", repository, current: "1.0.0", wanted: "1.2.0", latest: "1.2.0", updateType: "minor", outdated: true },
      { chart: "cache", repository, current: "1.0.0", wanted: "1.0.1", latest: "1.0.1", updateType: "patch", outdated: true },
      { chart: "new", repository, outdated: true },
    ],
  };

  it("lists only what is behind, its update coloured by size", () => {
    expect(outdatedText(report, tags).split("\n")).toStrictEqual([
      "CHART  CURRENT       WANTED  LATEST  UPDATE                  REPOSITORY",
      "api    1.0.0         1.0.0   2.0.0   <red>major</red>        https://charts.example.test",
      "db     1.0.0         1.2.0   1.2.0   <yellow>minor</yellow>  https://charts.example.test",
      "cache  1.0.0         1.0.1   1.0.1   <green>patch</green>    https://charts.example.test",
      "new    (not locked)  -       -       <green>-</green>        https://charts.example.test",
    ]);
    expect(outdatedMarkdown(report).split("\n")).toStrictEqual([
      "| CHART | CURRENT | WANTED | LATEST | UPDATE | REPOSITORY |",
      "| --- | --- | --- | --- | --- | --- |",
      "| api | 1.0.0 | 1.0.0 | 2.0.0 | major | https://charts.example.test |",
      "| db | 1.0.0 | 1.2.0 | 1.2.0 | minor | https://charts.example.test |",
      "| cache | 1.0.0 | 1.0.1 | 1.0.1 | patch | https://charts.example.test |",
      "| new | (not locked) | - | - | - | https://charts.example.test |",
    ]);
  });

  it("says every chart is current when none is behind", () => {
    const current = { ...report, charts: report.charts.slice(0, 1) };
    expect(outdatedText(current, tags)).toBe("every chart is on its latest version");
    expect(outdatedMarkdown(current)).toBe("every chart is on its latest version");
  });
});

describe("explain", () => {
  const full: ExplainReport = {
    report: "explain",
    format: 1,
    chart: "web",
    engine: { name: "chart", reasons: ["no hooks", "no lookup"] },
    pin: {
      repository: "https://charts.example.test",
      chart: "web",
      range: "^1.0.0",
      version: "1.2.0",
      appVersion: "2.0",
      digest: "sha256:aaa",
      manifestDigest: "sha256:bbb",
      schema: { digest: "sha256:ccc", dialect: "draft-07" },
      crds: ["widgets.example.test", "gadgets.example.test"],
      dependencies: [
        { name: "common", version: "^2.0.0", vendored: true, vendoredVersion: "2.3.0" },
        { name: "db", version: "1.x", vendored: true },
        { name: "cache", version: "0.5.0", vendored: false },
      ],
      hooks: {},
      renderedHooks: { dev: { "pre-install": ["Job.batch web/migrate"], test: ["Pod web/probe"], "test-success": ["Pod web/old"] }, prod: {} },
    },
    lifecycleHooks: ["pre-install"],
    churn: {
      dev: [
        { object: "Secret web/token", fields: ["data.token"], step: "replace" },
        { object: "ConfigMap web/stamp", fields: ["data.at", "data.by"], step: "update" },
      ],
      prod: [],
    },
    engineHelm: "3.18.6 (the provider's)",
  };

  it("prints the engine and its reasons, the pin, the hooks per stack and the churn", () => {
    expect(explainText(full).split("\n")).toStrictEqual([
      "web: helm.v4.Chart",
      "  - no hooks",
      "  - no lookup",
      "",
      "pinned      web 1.2.0 (range ^1.0.0) from https://charts.example.test",
      "digest      sha256:aaa",
      "manifest    sha256:bbb",
      "appVersion  2.0",
      "schema      sha256:ccc (draft-07)",
      "CRDs        widgets.example.test, gadgets.example.test",
      "engine      3.18.6 (the provider's)",
      "depends on  common 2.3.0 (vendored; Chart.yaml asks for ^2.0.0), db 1.x (vendored), cache 0.5.0",
      "",
      "hooks by stack:",
      "  dev:",
      "    pre-install: Job.batch web/migrate",
      "    test (helm test only): Pod web/probe",
      "    test-success (helm test only): Pod web/old",
      "  prod: none",
      "",
      "warning: helm.v4.Chart never runs these hooks (dropHooks: true accepts that)",
      "",
      "changes on every render:",
      "  dev: Secret web/token: data.token → helm.v4.Chart replaces it at every run (against a cluster every `pulumi up` after the first fails on it)",
      "  dev: ConfigMap web/stamp: data.at, data.by → helm.v4.Chart updates it at every run",
      "  pin the value in values or an existing Secret",
    ]);
    expect(explainMarkdown(full).split("\n").slice(0, 4)).toStrictEqual(["### web: helm.v4.Chart", "", "```", "- no hooks"]);
  });

  it("says none where the pin has nothing, and warns of no hooks under a Release", () => {
    const bare: ExplainReport = {
      ...full,
      engine: { name: "release", reasons: ["hooks"] },
      pin: { ...full.pin, appVersion: undefined, manifestDigest: undefined, schema: null, crds: [], dependencies: [], hooks: {}, renderedHooks: undefined },
      churn: {},
      engineHelm: undefined,
    };
    expect(explainText(bare).split("\n").slice(3)).toStrictEqual([
      "pinned      web 1.2.0 (range ^1.0.0) from https://charts.example.test",
      "digest      sha256:aaa",
      "schema      none (values are checked for unknown keys against the defaults only)",
      "CRDs        none",
      "depends on  nothing",
      "",
      "hooks by stack:",
      "  templates: none",
    ]);
    const schemaOnly = { ...bare, pin: { ...bare.pin, schema: { digest: "sha256:ddd" }, hooks: { "post-install": ["templates/job.yaml"] } } };
    expect(explainText(schemaOnly).split("\n")).toContain("schema      sha256:ddd");
    expect(explainText(schemaOnly).split("\n")).toContain("    post-install: templates/job.yaml");
  });
});
