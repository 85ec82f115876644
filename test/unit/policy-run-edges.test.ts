// How runPolicies applies what policy files say (src/policy/run.ts) and how
// a policy file is read (src/policy/settings.ts): severities per rule and per
// stack, a result's own cap, exceptions by rule, chart, stack and object, their
// expiry on the day itself, unused and expired exceptions, and the places and
// errors a policy file is reported with. Rules here are small stand-ins whose
// results are fixed, so every finding comes from run.ts alone.
import { describe, expect, it } from "vitest";
import { ChartroomError } from "../../src/errors/index.js";
import type { Severity } from "../../src/model/findings.js";
import type { PolicyContext, PolicyRule, RuleResult } from "../../src/model/policy.js";
import { runPolicies, type PolicyChart } from "../../src/policy/run.js";
import { addPolicyFile, emptySettings, type PolicySettings } from "../../src/policy/settings.js";
import { parseManifest } from "../../src/render/manifest.js";

const objects = parseManifest(
  "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: one }\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: { name: two }\nspec: {}\n",
  "web",
  "app",
);

function chart(key: string, extra: Partial<PolicyChart> = {}): PolicyChart {
  return { key, engine: "chart", dropHooks: true, values: {}, objects, ...extra };
}

/** A rule that reports each object once, with the fields given. */
function rule(id: string, severity: Severity, result: Omit<RuleResult, "message" | "object"> & { object?: boolean } = {}): PolicyRule {
  return {
    id,
    description: id,
    severity,
    check: (list) =>
      list.map((object) => ({
        message: `${id} on ${object.name}`,
        ...(result.object === false ? {} : { object }),
        ...(result.path === undefined ? {} : { path: result.path }),
        ...(result.hint === undefined ? {} : { hint: result.hint }),
        ...(result.severity === undefined ? {} : { severity: result.severity }),
      })),
  };
}

function settingsOf(...files: string[]): PolicySettings {
  const settings = emptySettings();
  for (const [i, text] of files.entries()) addPolicyFile(settings, `policies/p${i}.yaml`, text);
  return settings;
}

function run(rules: PolicyRule[], settings = emptySettings(), options: { stack?: string; today?: string; charts?: PolicyChart[] } = {}) {
  return runPolicies({ stack: options.stack ?? "dev", charts: options.charts ?? [chart("app")], rules, settings, today: options.today ?? "2026-06-15" });
}

const brief = (findings: ReturnType<typeof run>) => findings.map((f) => [f.rule, f.severity, f.object ?? "-", f.chart]);

describe("runPolicies: what each finding carries", () => {
  it("names the object, path and hint only when the result has them", () => {
    const [full] = run([rule("r", "error", { path: "spec.x", hint: "fix x" })]);
    expect(full).toStrictEqual({
      rule: "r",
      severity: "error",
      chart: "app",
      stack: "dev",
      message: "r on one",
      object: "ConfigMap web/one",
      path: "spec.x",
      hint: "fix x",
    });
    const [bare] = run([rule("r", "error", { object: false })]);
    expect(bare).toStrictEqual({ rule: "r", severity: "error", chart: "app", stack: "dev", message: "r on one" });
    expect(Object.keys(bare ?? {})).not.toContain("object");
  });

  it("gives each rule the chart's own context", () => {
    const seen: PolicyContext[] = [];
    const spy: PolicyRule = {
      id: "spy",
      description: "",
      severity: "info",
      check: (_list, context) => {
        seen.push(context);
        return [];
      },
    };
    const locked = new Map([["web:1", "sha256:aa"]]);
    runPolicies({
      stack: "prod",
      kubeVersion: "1.30.2",
      production: true,
      charts: [chart("a", { engine: "release", dropHooks: false, values: { x: 1 }, lockedImages: locked }), chart("b")],
      rules: [spy],
      settings: settingsOf("external:\n  - { kind: Secret, name: s, namespace: web }\n"),
      today: "2026-06-15",
    });
    expect(seen.map((c) => [c.stack, c.kubeVersion, c.chart, c.engine, c.dropHooks, c.production, c.values, c.lockedImages?.size])).toStrictEqual([
      ["prod", "1.30.2", "a", "release", false, true, { x: 1 }, 1],
      ["prod", "1.30.2", "b", "chart", true, true, {}, 0],
    ]);
    expect([...(seen[0]?.charts.keys() ?? [])]).toStrictEqual(["a", "b"]);
    expect(seen[0]?.external).toStrictEqual([{ kind: "Secret", name: "s", namespace: "web" }]);
    runPolicies({ stack: "dev", charts: [chart("a")], rules: [spy], settings: emptySettings(), today: "2026-06-15" });
    expect(seen[2]?.production).toBe(false);
  });
});

describe("runPolicies: severities", () => {
  it("takes a result's cap only when it is milder than the rule's severity", () => {
    const cases: [Severity, "warning" | "info" | undefined, Severity][] = [
      ["error", "warning", "warning"],
      ["error", "info", "info"],
      ["warning", "info", "info"],
      ["warning", "warning", "warning"],
      ["info", "warning", "info"],
      ["error", undefined, "error"],
    ];
    for (const [severity, cap, expected] of cases)
      expect(run([rule("r", severity, { severity: cap })])[0]?.severity, `${severity} capped at ${cap}`).toBe(expected);
  });

  it("reads the rule's severity from the policy files, per stack first, and skips a rule set off", () => {
    const settings = settingsOf("rules:\n  r: { severity: warning, stacks: { prod: info, qa: off } }\n  s: off\n  t: info\n");
    const rules = [rule("r", "error"), rule("s", "error"), rule("t", "error"), rule("u", "warning")];
    expect(brief(run(rules, settings))).toStrictEqual([
      ["r", "warning", "ConfigMap web/one", "app"],
      ["r", "warning", "Deployment.apps web/two", "app"],
      ["t", "info", "ConfigMap web/one", "app"],
      ["t", "info", "Deployment.apps web/two", "app"],
      ["u", "warning", "ConfigMap web/one", "app"],
      ["u", "warning", "Deployment.apps web/two", "app"],
    ]);
    expect(
      run(rules, settings, { stack: "prod" })
        .filter((f) => f.rule === "r")
        .map((f) => f.severity),
    ).toStrictEqual(["info", "info"]);
    expect(run(rules, settings, { stack: "qa" }).filter((f) => f.rule === "r")).toStrictEqual([]);
    // Stacks only: the rule's own severity elsewhere.
    const stacksOnly = settingsOf("rules:\n  r: { stacks: { prod: info } }\n");
    expect(run([rule("r", "error")], stacksOnly).map((f) => f.severity)).toStrictEqual(["error", "error"]);
  });
});

describe("runPolicies: exceptions", () => {
  const exception = (fields: string) => `exceptions:\n  - { rule: r, chart: app, reason: accepted, ${fields} }\n`;

  it("silences only the findings of its rule, chart, stack and object, at info, with its reason", () => {
    const settings = settingsOf(exception('object: "ConfigMap web/one"'));
    const findings = run([rule("r", "error"), rule("q", "error")], settings, { charts: [chart("app"), chart("other")] });
    expect(findings.map((f) => [f.rule, f.chart, f.object, f.severity, f.exception?.reason ?? "-"])).toStrictEqual([
      ["r", "app", "ConfigMap web/one", "info", "accepted"],
      ["r", "app", "Deployment.apps web/two", "error", "-"],
      ["q", "app", "ConfigMap web/one", "error", "-"],
      ["q", "app", "Deployment.apps web/two", "error", "-"],
      ["r", "other", "ConfigMap web/one", "error", "-"],
      ["r", "other", "Deployment.apps web/two", "error", "-"],
      ["q", "other", "ConfigMap web/one", "error", "-"],
      ["q", "other", "Deployment.apps web/two", "error", "-"],
    ]);
    expect(findings[0]?.exception).toStrictEqual({ reason: "accepted", file: "policies/p0.yaml" });
  });

  it("without an object it silences every object of the rule and chart; with a stack only in that stack", () => {
    const any = run([rule("r", "error")], settingsOf(exception("stack: dev")));
    expect(any.map((f) => f.severity)).toStrictEqual(["info", "info"]);
    const elsewhere = run([rule("r", "error")], settingsOf(exception("stack: prod")));
    expect(brief(elsewhere)).toStrictEqual([
      ["r", "error", "ConfigMap web/one", "app"],
      ["r", "error", "Deployment.apps web/two", "app"],
    ]);
  });

  it("holds on its until day and expires the day after, as an error naming it and its place", () => {
    const settings = settingsOf(`# a comment\n${exception("until: 2026-06-15")}`);
    const onTheDay = run([rule("r", "error")], settings);
    expect(onTheDay.map((f) => [f.severity, f.exception?.until])).toStrictEqual([
      ["info", "2026-06-15"],
      ["info", "2026-06-15"],
    ]);
    const after = run([rule("r", "error")], settings, { today: "2026-06-16" });
    expect(after.map((f) => [f.rule, f.severity, f.exception?.reason ?? "-"])).toStrictEqual([
      ["r", "error", "-"],
      ["r", "error", "-"],
      ["policy-exception-expired", "error", "-"],
    ]);
    expect(after[2]).toStrictEqual({
      rule: "policy-exception-expired",
      severity: "error",
      chart: "app",
      stack: "dev",
      message: 'the exception for r expired on 2026-06-15 ("accepted")',
      hint: "fix what it excused, or renew it with a new until date and reason",
      position: { file: "policies/p0.yaml", line: 3, column: 5 },
    });
  });

  it("warns about an exception that silences nothing, naming its object, but not for another stack or chart", () => {
    const unused = run([rule("q", "error")], settingsOf(exception('object: "ConfigMap web/gone"'), exception("stack: dev")));
    expect(unused.filter((f) => f.rule === "policy-exception-unused").map((f) => [f.severity, f.message, f.position?.file])).toStrictEqual([
      ["warning", "the exception for r on ConfigMap web/gone silences nothing", "policies/p0.yaml"],
      ["warning", "the exception for r silences nothing", "policies/p1.yaml"],
    ]);
    const notHere = settingsOf(exception("stack: prod"), "exceptions:\n  - { rule: r, chart: absent, reason: x, until: 2020-01-01 }\n");
    expect(run([rule("q", "error")], notHere).filter((f) => f.rule.startsWith("policy-exception"))).toStrictEqual([]);
    // Used in this stack: no warning.
    expect(run([rule("r", "error")], settingsOf(exception("stack: dev"))).filter((f) => f.rule.startsWith("policy-exception"))).toStrictEqual([]);
  });
});

describe("addPolicyFile", () => {
  function refusal(text: string): ChartroomError {
    try {
      addPolicyFile(emptySettings(), "policies/bad.yaml", text);
    } catch (error) {
      if (error instanceof ChartroomError) return error;
      throw error;
    }
    throw new Error("accepted");
  }

  it("starts from nothing", () => {
    expect(emptySettings()).toStrictEqual({ severities: new Map(), exceptions: [], external: [] });
  });

  it("records where each rule and exception is set, and lets a later file win", () => {
    const settings = emptySettings();
    addPolicyFile(settings, "policies/a.yaml", "rules:\n  r: warning\n  s:\n    severity: info\nexceptions:\n  - rule: r\n    chart: app\n    reason: why\n");
    addPolicyFile(settings, "policies/b.yaml", "\nrules:\n    r: off\n");
    expect([...settings.severities]).toStrictEqual([
      ["r", { severity: "off", stacks: {}, place: { file: "policies/b.yaml", line: 3, column: 5 } }],
      ["s", { severity: "info", stacks: {}, place: { file: "policies/a.yaml", line: 3, column: 3 } }],
    ]);
    expect(settings.exceptions).toStrictEqual([{ rule: "r", chart: "app", reason: "why", file: "policies/a.yaml", line: 6, column: 5 }]);
  });

  it("reads an empty file as nothing, and a YAML date as its day", () => {
    const settings = emptySettings();
    addPolicyFile(settings, "policies/empty.yaml", "");
    addPolicyFile(settings, "policies/dates.yaml", "exceptions:\n  - { rule: r, chart: app, reason: x, until: 2027-01-31 }\n");
    expect(settings.severities.size).toBe(0);
    expect(settings.exceptions.map((e) => e.until)).toStrictEqual(["2027-01-31"]);
    expect(settings.external).toStrictEqual([]);
  });

  it("refuses YAML it cannot read, at its line", () => {
    const error = refusal("rules:\n  r: warning\n  - x\n");
    expect([error.code, error.place]).toStrictEqual(["POLICY_INVALID", { file: "policies/bad.yaml", line: 3, column: 1 }]);
    expect(error.message).toMatch(/^policies\/bad\.yaml is not valid YAML: /);
    expect(error.hint).toBe("fix the YAML syntax of the policy file");
  });

  it("refuses what is not a policy file, naming each key and what it expects", () => {
    const error = refusal("rules:\n  r: fatal\n  s: { severity: warn }\n  t: [1]\nexceptions:\n  - { rule: r, chart: app }\ncolour: red\n");
    expect([error.code, error.message, error.place]).toStrictEqual(["POLICY_INVALID", "policies/bad.yaml is not a policy file", { file: "policies/bad.yaml" }]);
    expect(error.details).toStrictEqual([
      'rules.r: "fatal" is not a severity: error, warning, info or off',
      // The union reports the object form as a whole, not its inner severity.
      "rules.s: expected a severity, or { severity, stacks: { <stack>: severity } }",
      "rules.t: expected a severity, or { severity, stacks: { <stack>: severity } }",
      "exceptions.0.reason: required: why this is acceptable (it is shown with every finding it silences)",
      "(top): unknown key colour; allowed: rules, exceptions, external",
    ]);
    expect(refusal("exceptions:\n  - { rule: r, chart: app, reason: x, until: soon }\n").details).toStrictEqual([
      "exceptions.0.until: expected a date YYYY-MM-DD",
    ]);
  });
});
