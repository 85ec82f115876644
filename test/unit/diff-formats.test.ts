// One diff report with every part a diff can have (each action, each kind of
// change, images, the values contract, policy findings, hooks listed apart,
// noise and bookkeeping, a live review), printed in text with its colours
// named, in markdown and in HTML, and compared with golden files: the golden
// reports of test/public/reports.test.ts come from real workflows and cannot
// hold every branch at once. UPDATE_GOLDEN=1 rewrites them (read the change).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChartReport, DiffReport, LiveSection, ObjectReport } from "../../src/diff/model.js";
import { lineDiff } from "../../src/diff/lines.js";
import { diffReport } from "../../src/diff/report.js";
import type { Finding } from "../../src/model/findings.js";
import { formatMarkdown } from "../../src/report/diff-markdown.js";
import { formatText } from "../../src/report/diff-text.js";
import { SHOWN_LINES } from "../../src/report/diff-html.js";
import { diffHtml, planHtml } from "../../src/report/html.js";
import { planMarkdown, planText, type PlanReport, type PlanRow } from "../../src/report/plan.js";
import { checkMarkdown, checkText, checkYaml, type CheckReport } from "../../src/report/check.js";
import type { Colour } from "../../src/report/paint.js";
import { ROOT } from "../helpers/platform.js";

const GOLDEN = join(ROOT, "test", "golden", "units");

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

/** Colours written out, so the golden file says which line is painted how. */
const tags = (text: string, colour: Colour) => `<${colour}>${text}</${colour}>`;

const object = (action: ObjectReport["action"], name: string, extra: Partial<ObjectReport> = {}): ObjectReport => ({
  id: `/ConfigMap/apps/${name}`,
  display: `ConfigMap apps/${name}`,
  action,
  step: action === "add" ? "create" : action === "rename" ? "update" : action,
  apiVersion: "v1",
  changes: [],
  ...extra,
});

/** Changes whose values read best line by line, with their hunks as the diff makes them. */
function longChanges(): ObjectReport["changes"] {
  const config = (level: string) => `server:\n  port: 8080\n  timeout: 30s\nlogging:\n  level: ${level}\n  format: json\ncache:\n  ttl: 10m\n  size: 64Mi\n`;
  const dashboard = (rate: string) =>
    JSON.stringify({
      title: "web",
      panels: [
        { id: 1, expr: `rate(http_requests_total[${rate}])` },
        { id: 2, expr: "up" },
      ],
    });
  const args = ["--log-format=json", "--metrics-addr=:9090", "--leader-elect"];
  const change = (path: string, before: unknown, after: unknown) => ({ path, op: "change" as const, before, after, tags: [], lines: lineDiff(before, after) });
  return [
    change("data.app.yaml", config("info"), config("debug")),
    change("data.dashboard.json", dashboard("5m"), dashboard("1m")),
    change("spec.template.spec.containers[name=manager].args", args, [...args, "--watch-all-namespaces"]),
  ];
}

const finding = (severity: Finding["severity"], rule: string, path?: string): Finding => ({
  rule,
  severity,
  chart: "web",
  stack: "prod",
  object: "Deployment.apps apps/web",
  ...(path === undefined ? {} : { path }),
  message: `${rule} says so`,
});

const live: LiveSection = {
  server: "https://127.0.0.1:6443",
  context: "prod",
  counts: { update: 1, conflict: 1 },
  objects: [
    {
      id: "c",
      display: "Deployment.apps apps/web",
      outcome: "conflict",
      conflicts: [{ manager: "kubectl", field: "spec.replicas", owner: "kubectl", fix: "take it over" }],
    },
  ],
  notes: [],
};

function everything(): DiffReport {
  const web: ChartReport = {
    chart: "web",
    stack: "prod",
    engine: "chart",
    from: { version: "1.0.0" },
    to: { version: "2.0.0" },
    helm: "3.18.6",
    engineHelm: "3.18.6 (the provider's)",
    objects: [
      object("add", "new", { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "new" }, data: { a: "1" } }, source: "web/templates/new.yaml" }),
      object("delete", "old", { body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "old" } } }),
      object("update", "changed", {
        changes: [
          { path: "data.one", op: "change", before: "a", after: "b", tags: [] },
          { path: "data.added", op: "add", after: 3, tags: [] },
          { path: "data.gone", op: "remove", before: true, tags: ["immutable"] },
          { path: "data.text", op: "change", before: "line one\nline two\n", after: "line one\nline 2\n", tags: ["unstable"] },
          { path: "data.list", op: "reorder", before: ["a", "b"], after: ["b", "a"], tags: [] },
          { path: 'metadata.labels["helm.sh/chart"]', op: "change", before: "web-1.0.0", after: "web-2.0.0", tags: ["bookkeeping"] },
          { path: "apiVersion", op: "change", before: "v1beta1", after: "v1", tags: [] },
        ],
      }),
      // Long values shown line by line: a config file, a dashboard kept as one line of JSON, a controller's flags.
      object("update", "long", { changes: longChanges() }),
      {
        ...object("update", "secret"),
        id: "/Secret/apps/secret",
        display: "Secret apps/secret",
        changes: [
          { path: "data.password", op: "change", before: { bytes: 16 }, after: { bytes: 24 }, secret: "changed", tags: [] },
          { path: "data.token", op: "add", after: { bytes: 8 }, secret: "added", tags: [] },
          { path: "data.old", op: "remove", before: { bytes: 4 }, secret: "removed", tags: [] },
        ],
        unchangedSecrets: [{ path: "data.user", bytes: 5 }],
      },
      {
        ...object("replace", "selector"),
        id: "apps/Deployment/apps/web",
        display: "Deployment.apps apps/web",
        apiVersion: "apps/v1",
        changes: [{ path: "spec.selector.matchLabels.app", op: "change", before: "web", after: "site", tags: ["immutable"] }],
        replacement: {
          fields: ["spec.selector"],
          consequences: { chart: "helm.v4.Chart replaces it, creating the replacement first", release: "helm upgrade fails: field is immutable" },
          order: "create-first",
        },
      },
      object("rename", "renamed", { renamedFrom: { id: "/ConfigMap/apps/before", display: "ConfigMap apps/before" } }),
      object("add", "moved-in", { moved: { from: "other", to: "web", consequence: "Pulumi deletes it from other and creates it here" } }),
      object("update", "immutable", { step: "fails", changes: [{ path: "data.x", op: "change", before: 1, after: 2, tags: ["immutable"] }] }),
      object("update", "noise", { changes: [{ path: "data.random", op: "change", before: "x", after: "y", tags: ["unstable"] }] }),
      object("update", "bookkeeping", {
        changes: [{ path: 'metadata.labels["helm.sh/chart"]', op: "change", before: "a", after: "b", tags: ["bookkeeping"] }],
      }),
      {
        ...object("update", "crd"),
        id: "apiextensions.k8s.io/CustomResourceDefinition//widgets.example.test",
        display: "CustomResourceDefinition.apiextensions.k8s.io widgets.example.test",
        schemaChanges: [{ path: "spec.versions[0].schema.openAPIV3Schema", version: "v1", added: 14, removed: 2, changed: 40, descriptions: 30 }],
        hook: { events: ["pre-install"], test: false, weight: 0, deletePolicies: [] } as ObjectReport["hook"],
      },
    ],
    apart: [
      { id: "t", display: "Pod apps/test", reason: "a test hook: helm.v4.Chart drops every hook", change: "add" },
      { id: "u", display: "Job.batch apps/migrate", reason: "a pre-upgrade hook: helm.v4.Chart drops every hook", change: "delete" },
      { id: "v", display: "Job.batch apps/seed", reason: "a post-install hook: helm.v4.Chart drops every hook", change: "update" },
      { id: "w", display: "Pod apps/smoke", reason: "a test hook: helm.v4.Chart drops every hook", change: "same" },
    ],
    bookkeeping: { objects: 2, fields: ['labels["helm.sh/chart"]', 'annotations["checksum/config"]'] },
    unstable: {
      objects: 1,
      paths: ["ConfigMap apps/noise: data.random"],
      churn: [{ id: "/ConfigMap/apps/noise", display: "ConfigMap apps/noise", step: "replace" }],
      consequence: "helm.v4.Chart replaces ConfigMap apps/noise at every `pulumi up`",
    },
    contract: [
      { kind: "ignored", path: "ingress.host", detail: "set, but 2.0.0 no longer has it", hint: "use ingress.hosts" },
      { kind: "required", path: "auth.secret", detail: "required by 2.0.0, nothing sets it" },
      { kind: "type", path: "replicas", detail: "string → integer" },
      ...Array.from({ length: 12 }, (_, i) => ({ kind: "default" as const, path: `defaults.d${i}`, detail: `${i} → ${i + 1}` })),
    ],
    images: [
      {
        object: "Deployment.apps apps/web",
        container: "web",
        change: "changed",
        from: { image: "web:1", digest: `sha256:${"a".repeat(64)}` },
        to: { image: "web:2" },
      },
      { object: "Deployment.apps apps/web", container: "sidecar", change: "added", to: { image: "proxy:1" } },
      { object: "Deployment.apps apps/web", container: "old", change: "removed", from: { image: "old:1" } },
    ],
    findings: {
      // The last added one is about a chart the change reaches without touching it (a CRD it uses changed).
      added: [
        finding("error", "service-selects-pods", "spec.selector"),
        finding("warning", "probe-port"),
        finding("info", "image-pinned"),
        { ...finding("error", "custom-resource-schema", "spec.size"), chart: "uses", object: "Gadget.ops.example.test uses/g" },
      ],
      resolved: [finding("error", "reference-exists", "spec.template.spec.volumes"), { ...finding("warning", "probe-port"), chart: "uses" }],
    },
    notes: ["the chart moved to a new repository"],
    live,
  };
  const quiet: ChartReport = {
    ...web,
    chart: "api",
    engine: "release",
    from: { version: "1.0.0" },
    to: { version: "1.0.0" },
    helm: undefined,
    engineHelm: undefined,
    objects: [
      object("update", "crds", { step: "skipped", source: "api/crds/crd.yaml", changes: [{ path: "spec.x", op: "change", before: 1, after: 2, tags: [] }] }),
      object("update", "apiversion", { changes: [{ path: "apiVersion", op: "change", before: "v1beta1", after: "v1", tags: [] }] }),
    ],
    apart: [],
    bookkeeping: { objects: 0, fields: [] },
    unstable: { objects: 0, paths: [], churn: [] },
    contract: [{ kind: "default", path: "a", detail: "1 → 2" }],
    images: [],
    findings: { added: [], resolved: [] },
    notes: [],
    live: undefined,
  };
  const added: ChartReport = { ...quiet, chart: "new", from: null, to: { version: "0.1.0" }, objects: [], contract: [] };
  const removed: ChartReport = { ...quiet, chart: "gone", from: { version: "3.0.0" }, to: null, objects: [], contract: [] };
  return diffReport([web, quiet, added, removed], 3);
}

describe("a diff with every part", () => {
  it("prints in text, each line in its colour", () => {
    golden("diff-everything.txt", `${formatText(everything(), tags)}\n`);
  });

  it("prints in markdown", () => {
    golden("diff-everything.md", `${formatMarkdown(everything())}\n`);
  });

  it("prints in HTML", () => {
    golden("diff-everything.html", diffHtml(everything()));
  });

  it("keeps the HTML page bounded by object, not by value: long values and new objects cut at their line limits, with a note", () => {
    const file = (prefix: string) => Array.from({ length: 5000 }, (_, i) => `${prefix} line ${i}`).join("\n");
    const huge: ChartReport = {
      ...everything().charts[0],
      objects: [
        // Too different to diff by line (more than the diff's bound), so both sides are shown, each cut.
        object("update", "huge", { changes: [{ path: "data.file", op: "change", before: file("a"), after: file("b"), tags: [] }] }),
        object("add", "big-new", {
          body: { apiVersion: "v1", kind: "ConfigMap", data: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, "v"])) },
        }),
      ],
    } as ChartReport;
    const html = diffHtml(diffReport([huge]));
    expect(SHOWN_LINES).toStrictEqual({ value: 200, object: 300 });
    // Each side: "|-" and 5,000 lines, shown to the limit and one line saying how many more.
    expect(html.match(/<span class="del">/g)).toHaveLength(SHOWN_LINES.value + 1);
    expect(html.split("… 4801 more line(s): --format json has them all")).toHaveLength(3);
    // The new object: apiVersion, kind, data: and 5,000 keys.
    expect(html.match(/<span class="add">\+ {3}k\d+: v<\/span>/g)).toHaveLength(SHOWN_LINES.object - 3);
    expect(html).toContain("… 4703 more line(s): --format json has them all");
    expect(html.length).toBeLessThan(120_000);
  });

  it("keeps every chart, object and finding when markdown must be shortened", () => {
    const text = formatMarkdown(everything(), 4000);
    expect(text.length).toBeLessThanOrEqual(4000);
    golden("diff-everything-short.md", `${text}\n`);
  });

  it("folds charts to one line when it must, still naming every object, contract finding and policy finding, the note first", () => {
    const report = everything();
    const text = formatMarkdown(report, 2500);
    expect(text.length).toBeLessThanOrEqual(2500);
    expect(text.indexOf("**Shortened**")).toBeLessThan(text.indexOf("| chart |"));
    expect(text).toContain("folded to one line");
    for (const chart of report.charts) {
      const block = text.slice(text.indexOf(`**${chart.chart}**`) === -1 ? text.indexOf(`<summary>${chart.chart} `) : text.indexOf(`**${chart.chart}**`));
      for (const object of chart.objects) expect(block).toContain(object.display);
      for (const change of chart.contract.filter((item) => item.kind !== "default")) expect(block).toContain(change.path);
      for (const found of [...chart.findings.added, ...chart.findings.resolved]) expect(block).toMatch(new RegExp(`${found.rule}[^\\n]*${found.object ?? ""}`));
    }
    // The biggest chart went all the way to one line: contract and findings included.
    expect(text).toContain("- **web** ·");
    expect(text).toContain("  - values contract ignored `ingress.host`");
    expect(text).toContain("  - policy error added: custom-resource-schema chart uses: `Gadget.ops.example.test uses/g`");
  });
});

const row = (chart: string, extra: Partial<PlanRow>): PlanRow => ({
  chart,
  namespace: "apps",
  range: "^1.0.0",
  pinned: "1.0.0",
  digest: `sha256:${"b".repeat(64)}`,
  verified: true,
  engine: "chart",
  problems: [],
  ...extra,
});

const outdated = (extra: Partial<NonNullable<PlanRow["outdated"]>>) => ({
  chart: "x",
  repository: "https://charts.example.test",
  current: "1.0.0",
  outdated: true,
  ...extra,
});

function plan(): PlanReport {
  const none = { add: 0, delete: 0, update: 0, replace: 0, rename: 0 };
  return {
    report: "plan",
    format: 1,
    charts: [
      row("current", { outdated: outdated({ outdated: false, wanted: "1.0.0", latest: "1.0.0" }) }),
      row("unlisted", {}),
      row("wanted", {
        outdated: outdated({ wanted: "1.2.0", latest: "1.2.0", updateType: "minor" }),
        next: {
          version: "1.2.0",
          stacks: { dev: { ...none, update: 2, add: 1 }, prod: none },
          contract: { dev: 1, prod: 0 },
          live: { dev: { update: 2, conflict: 1 }, prod: {} },
        },
        findings: { errors: 1, warnings: 2 },
      }),
      row("latest", {
        outdated: outdated({ wanted: "1.0.0", latest: "2.0.0", updateType: "major" }),
        next: { version: "2.0.0", stacks: { dev: { ...none, replace: 1 } }, contract: {} },
        findings: { errors: 0, warnings: 1 },
        notes: ["the provider cannot render this chart offline"],
      }),
      row("both", { outdated: outdated({ wanted: "1.1.0", latest: "3.0.0" }) }),
      row("broken", {
        pinned: undefined,
        digest: undefined,
        verified: false,
        engine: undefined,
        problems: ["not locked: run chartroom lock", "the repository answered 404"],
      }),
    ],
  };
}

describe("a plan with every part", () => {
  it("prints in text, each cell in its colour", () => {
    golden("plan-everything.txt", `${planText(plan(), tags)}\n`);
  });

  it("prints in markdown and HTML", () => {
    golden("plan-everything.md", `${planMarkdown(plan())}\n`);
    golden("plan-everything.html", planHtml(plan()));
  });

  it("says nothing of findings, next versions or notes when there are none", () => {
    const quiet: PlanReport = { report: "plan", format: 1, charts: [row("current", {})] };
    golden("plan-quiet.txt", `${planText(quiet, tags)}\n`);
    golden("plan-quiet.md", `${planMarkdown(quiet)}\n`);
  });
});

function checked(rights = true): CheckReport {
  const base = { chart: "web", stack: "prod", message: "says so" };
  return {
    report: "check",
    format: 1,
    checked: 4,
    failed: true,
    findings: [
      { ...base, rule: "type", severity: "error", path: "replicas", hint: "set a number", position: { file: "values/web/values.yaml", line: 3, column: 1 } },
      { ...base, rule: "unknown-key", severity: "warning", path: "image.tga", hint: 'did you mean "image.tag"?' },
      {
        ...base,
        rule: "probe-port",
        severity: "error",
        object: "Deployment.apps apps/web",
        path: "spec.template.spec.containers[name=web].readinessProbe.httpGet.port",
      },
      { ...base, rule: "values-file", severity: "error", path: "values/web/prod.yaml", position: { file: "values/web/prod.yaml", line: 1, column: 1 } },
      { ...base, rule: "chart-wide", severity: "info" },
      {
        ...base,
        rule: "run-as-root",
        severity: "info",
        object: "Deployment.apps apps/web",
        hint: "hidden",
        exception: { reason: "the vendor image needs root", file: "policies/web.yaml" },
      },
      {
        ...base,
        rule: "latest-tag",
        severity: "info",
        object: "Deployment.apps apps/web",
        exception: { reason: "until the vendor pins", until: "2027-01-01", file: "policies/web.yaml" },
      },
    ],
    ...(rights
      ? {
          rights: {
            stack: "prod",
            server: "https://127.0.0.1:6443",
            context: "prod",
            user: "deployer",
            rights: [
              { group: "", resource: "configmaps", namespace: "apps", verbs: ["get", "patch"], for: "apply ConfigMap apps/a", chart: "web" },
              {
                group: "",
                resource: "namespaces",
                namespace: "",
                verbs: ["get", "patch", "delete"],
                resourceNames: ["apps", "web"],
                for: "create the namespaces",
                chart: "web",
              },
            ],
            missing: [{ group: "", resource: "configmaps", namespace: "apps", verb: "patch", message: "cannot patch" }],
            manifest: [
              { apiVersion: "v1", kind: "Namespace", metadata: { name: "apps" } },
              { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name: "d", namespace: "apps" }, rules: [] },
            ],
            requests: 9,
            unserved: ["Widget.example.test apps/w"],
          },
        }
      : {}),
  };
}

describe("a check with every part", () => {
  it("prints in text (colours named), markdown and, with --cluster, the Role as YAML", () => {
    golden("check-everything.txt", `${checkText(checked(), tags)}\n`);
    golden("check-everything.md", `${checkMarkdown(checked())}\n`);
    golden("check-everything.yaml", checkYaml(checked()));
  });

  it("says only the counts when nothing is found, and refuses YAML without --cluster", () => {
    const clean: CheckReport = { report: "check", format: 1, checked: 2, failed: false, findings: [] };
    expect(checkText(clean, tags)).toBe("0 error(s), 0 warning(s), 0 note(s) in 2 chart/stack pair(s)");
    expect(checkMarkdown(clean)).toBe("0 error(s), 0 warning(s), 0 note(s) in 2 chart/stack pair(s)");
    const { rights: _, ...noRights } = checked();
    expect(checkText(noRights as CheckReport, tags)).not.toContain("deploy rights");
    expect(() => checkYaml(clean)).toThrow(expect.objectContaining({ code: "USAGE" }));
  });
});

describe("the markdown comment at its edges", () => {
  const base = (): ChartReport => {
    const quiet = everything().charts[1] as ChartReport;
    return { ...quiet, objects: [], contract: [], notes: [], findings: { added: [], resolved: [] }, live: undefined };
  };
  const details = (report: DiffReport) => (formatMarkdown(report).match(/<details><summary>/g) ?? []).length;

  it("gives a chart a section only when it has something to say", () => {
    const chart = base();
    const web = everything().charts[0] as ChartReport;
    expect(details(diffReport([chart]))).toBe(0);
    expect(details(diffReport([{ ...chart, contract: [{ kind: "default", path: "a", detail: "1 → 2" }] }]))).toBe(1);
    expect(details(diffReport([{ ...chart, notes: ["a note"] }]))).toBe(1);
    expect(details(diffReport([{ ...chart, findings: { added: [], resolved: web.findings.resolved } }]))).toBe(1);
    expect(details(diffReport([{ ...chart, live: { ...(web.live as NonNullable<ChartReport["live"]>), objects: [], notes: ["n"] } }]))).toBe(1);
    expect(details(diffReport([{ ...chart, live: { ...(web.live as NonNullable<ChartReport["live"]>), notes: [] } }]))).toBe(1);
  });

  it("cuts the text itself, saying so, when even one line a chart is too long", () => {
    const text = formatMarkdown(everything(), 600);
    expect(text.length).toBeLessThanOrEqual(600);
    expect(text.endsWith("> **Report cut** at 600 characters even with every chart on one line. Run `chartroom diff` locally for all of it.")).toBe(true);
  });

  it("folds the largest chart first, and names only what it did in the note", () => {
    const report = everything();
    const whole = formatMarkdown(report);
    const text = formatMarkdown(report, whole.length - 1);
    expect(text).toContain("> **Shortened** to stay under 65,000 characters: field changes of 1 chart(s) left out (their objects are listed).");
    // The biggest chart (web) lost its field details; the small one kept them.
    expect(text).toContain("! Deployment.apps apps/web replace, engine: replace");
    expect(text).toContain("spec.x");
  });

  it("names the versions of a folded chart as they moved: one, added, removed", () => {
    const api = everything().charts[1] as ChartReport;
    const report = diffReport([
      api,
      { ...api, chart: "new", from: null, to: { version: "0.1.0" } },
      { ...api, chart: "gone", from: { version: "3.0.0" }, to: null },
    ]);
    const text = formatMarkdown(report, 1000);
    expect(text).toContain("> **Shortened** to stay under 65,000 characters: 3 chart(s) folded to one line naming each changed object.");
    expect(text).toContain("- **api** · prod · helm.v3.Release · 1.0.0: 2 updated");
    expect(text).toContain("- **new** · prod · helm.v3.Release · (absent) → 0.1.0: 2 updated");
    expect(text).toContain("- **gone** · prod · helm.v3.Release · 3.0.0 → (removed): 2 updated");
  });
});
