import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { materialise } from "../helpers/chart-repo.js";
import { runHelm } from "../helpers/helm.js";
import { cli, copyPlatform, editFile, snapshot } from "../helpers/platform.js";

/**
 * The example's webapp with three mistakes no single object shows: a metrics
 * Service whose selector has a typo, the main Service's targetPort naming a
 * port no container has, and a readiness probe on a named port the container
 * does not define (a numeric port is valid whether listed or not). Published as webapp 1.0.2 next to the others in charts/.
 */
async function withBrokenWebapp(): Promise<string> {
  const dir = await copyPlatform();
  const chart = await materialise("webapp", "1.0.1", join(dir, ".work"));
  await editFile(join(chart, "Chart.yaml"), (text) => text.replace("version: 1.0.1", "version: 1.0.2"));
  await editFile(join(chart, "templates", "service.yaml"), (text) => text.replace("targetPort: http", "targetPort: web"));
  await editFile(join(chart, "templates", "deployment.yaml"), (text) =>
    text.replace(
      "              protocol: TCP\n",
      "              protocol: TCP\n          readinessProbe:\n            httpGet: { path: /ready, port: health }\n",
    ),
  );
  await writeFile(
    join(chart, "templates", "metrics-service.yaml"),
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ include "webapp.fullname" . }}-metrics\nspec:\n  ports:\n    - { name: metrics, port: 9100, targetPort: 8080 }\n  selector:\n    app.kubernetes.io/nmae: {{ .Chart.Name }}\n',
  );
  await runHelm(4, ["package", chart, "--destination", join(dir, "charts")], dir);
  await runHelm(4, ["repo", "index", join(dir, "charts"), "--merge", join(dir, "charts", "index.yaml")], dir);
  return dir;
}

const BROKEN = [
  ["service-selects-pods", "Service web/webapp-metrics", "spec.selector"],
  ["service-target-port", "Service web/webapp", "spec.ports[name=http].targetPort"],
  ["probe-port", "Deployment.apps web/webapp", "spec.template.spec.containers[name=web].readinessProbe.httpGet.port"],
];

interface JsonFinding {
  rule: string;
  severity: string;
  object?: string;
  path?: string;
}
const errors = (findings: JsonFinding[]) => findings.filter((f) => f.severity === "error").map((f) => [f.rule, f.object, f.path]);

describe("policies on the example platform", () => {
  it("pass: no error, the exception shown with its reason, the custom rule silent, exit 0", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["check", "--stack", "dev"]);
    expect(result.exitCode).toBe(0);
    const lines = result.output.split("\n");
    expect(lines.filter((line) => line.startsWith("error"))).toStrictEqual([]);
    expect(lines).toContain(
      "  excepted in policies/platform.yaml: the operator's chart has no resources value before 1.1.0; requests come with that upgrade (until 2027-06-30)",
    );
    expect(lines.at(-1)).toMatch(/^0 error\(s\), \d+ warning\(s\), \d+ note\(s\) in 4 chart\/stack pair\(s\)$/);
  });

  it("run the platform's own TypeScript rule", async () => {
    const dir = await copyPlatform();
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('version: "~1.0.0", namespace: "web"', 'version: "~1.0.0", namespace: "default"'));
    const result = await cli(dir, ["check", "webapp", "--stack", "dev", "--format", "json"]);
    expect(result.exitCode).toBe(2);
    const found = JSON.parse(result.output).findings.filter((f: JsonFinding) => f.rule === "not-in-default-namespace");
    expect(found.map((f: JsonFinding) => f.object).sort()).toStrictEqual([
      "ConfigMap default/webapp-config",
      "Deployment.apps default/webapp",
      "Ingress.networking.k8s.io default/webapp",
      "Secret default/webapp-auth",
      "Service default/webapp",
    ]);
  });

  it("fail once the example's exception has expired, naming it", async () => {
    const dir = await copyPlatform();
    const result = await cli(dir, ["check", "widgets-operator", "--stack", "dev"], { CHARTROOM_TODAY: "2027-07-01" });
    expect(result.exitCode).toBe(2);
    const lines = result.output.split("\n");
    expect(lines).toContain(
      'error policies/platform.yaml:8:5 widgets-operator [dev]: the exception for resource-requests expired on 2027-06-30 ("the operator\'s chart has no resources value before 1.1.0; requests come with that upgrade") (policy-exception-expired)',
    );
    expect(lines.find((line) => line.includes("(resource-requests)"))).toMatch(/^warning /);
  });

  it("reuse a stack's findings from the cache only while nothing they depend on changed", async () => {
    const dir = await copyPlatform();
    const findings = async (env: NodeJS.ProcessEnv = {}) => {
      const result = await cli(dir, ["check", "widgets-operator", "--stack", "dev", "--format", "json"], env);
      return (JSON.parse(result.output) as { findings: JsonFinding[] }).findings.map((f) => `${f.severity} ${f.rule}`).sort();
    };
    const first = await findings();
    expect(await readdir(join(dir, ".cache", "findings"))).toHaveLength(1);
    expect(await findings()).toStrictEqual(first);
    expect(await readdir(join(dir, ".cache", "findings"))).toHaveLength(1);
    // Another day: the exception has expired.
    expect(await findings({ CHARTROOM_TODAY: "2027-07-01" })).toContain("error policy-exception-expired");
    // Another policy file.
    await editFile(join(dir, "policies", "platform.yaml"), (text) => text.replace("privilege-escalation: info", "privilege-escalation: error"));
    expect(await findings()).toContain("error privilege-escalation");
    // Another render (the chart moved to another namespace).
    await editFile(join(dir, "chartroom.config.ts"), (text) => text.replace('namespace: "widgets"', 'namespace: "default"'));
    expect(first).not.toContain("error not-in-default-namespace");
    expect(await findings()).toContain("error not-in-default-namespace");
  });

  it("reuse findings of custom rules that import files, read files or the environment, while those read the same; never those that read the clock", async () => {
    const dir = await copyPlatform();
    const findings = async () => {
      const result = await cli(dir, ["check", "widgets-operator", "--stack", "dev", "--format", "json"]);
      expect(result.errors).toBe("");
      return (JSON.parse(result.output) as { findings: JsonFinding[] }).findings.map((f) => `${f.severity} ${f.rule}`);
    };
    const records = async () => (await readdir(join(dir, ".cache", "findings")).catch(() => [])).length;
    await mkdir(join(dir, "policies", "lib"));
    await writeFile(join(dir, "policies", "lib", "flag.ts"), "export const FLAG = false;\n");
    await writeFile(join(dir, "data.txt"), "quiet");
    const rule = (id: string, condition: string, head = "") =>
      `import { definePolicy } from "chartroom";\n${head}\nexport default definePolicy({ id: "${id}", description: "a test rule", severity: "warning", check(objects) { return ${condition} ? objects.slice(0, 1).map((object) => ({ object, message: "flagged" })) : []; } });\n`;
    await writeFile(join(dir, "policies", "imports.ts"), rule("imports-flag", "FLAG", 'import { FLAG } from "./lib/flag.js";'));
    await writeFile(
      join(dir, "policies", "reads.ts"),
      rule("reads-file", `readFileSync(${JSON.stringify(join(dir, "data.txt"))}, "utf8") === "loud"`, 'import { readFileSync } from "node:fs";'),
    );
    await writeFile(join(dir, "policies", "env.ts"), rule("env-flag", 'process.env.CHARTROOM_TEST_FLAG === "on"'));
    const quiet = await findings();
    expect(quiet.filter((line) => /flag|reads-file/.test(line))).toStrictEqual([]);
    expect(await records()).toBe(1);
    expect(await findings()).toStrictEqual(quiet);
    expect(await records()).toBe(1);
    // What a rule imports, reads or asks the environment for changes its findings: none is reused wrongly.
    await writeFile(join(dir, "policies", "lib", "flag.ts"), "export const FLAG = true;\n");
    expect(await findings()).toContain("warning imports-flag");
    await writeFile(join(dir, "data.txt"), "loud");
    expect(await findings()).toContain("warning reads-file");
    // Rules read the process's own environment (the CLI runs in this process here).
    const withFlag = async (value: string) => {
      process.env.CHARTROOM_TEST_FLAG = value;
      try {
        return await findings();
      } finally {
        delete process.env.CHARTROOM_TEST_FLAG;
      }
    };
    expect(await withFlag("on")).toContain("warning env-flag");
    expect(await findings()).not.toContain("warning env-flag");
    // The environment value never reaches the record, only its keyed digest.
    await withFlag("planted-flag-value-42");
    for (const name of await readdir(join(dir, ".cache", "findings")))
      expect(await readFile(join(dir, ".cache", "findings", name), "utf8")).not.toContain("planted-flag-value-42");
    // A rule that asks the clock is run every time: no record is written for it.
    await writeFile(join(dir, "policies", "clock.ts"), rule("clock", "Date.now() < 0"));
    const before = await records();
    await findings();
    await findings();
    expect(await records()).toBe(before);
  });

  it("refuse a policy file naming a rule that does not exist, with the nearest one", async () => {
    const dir = await copyPlatform();
    await editFile(join(dir, "policies", "platform.yaml"), (text) => text.replace("privilege-escalation: info", "privilege-escalaton: info"));
    const result = await cli(dir, ["check"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toContain(
      'error POLICY_INVALID: policies/platform.yaml names the rule "privilege-escalaton", which does not exist (did you mean "privilege-escalation"?)',
    );
  });

  it("name a custom rule that throws, with its file and the chart, as the rule's mistake", async () => {
    const dir = await copyPlatform();
    await writeFile(
      join(dir, "policies", "broken.ts"),
      'import { definePolicy } from "chartroom";\nexport default definePolicy({ id: "broken", description: "throws", severity: "error", check() { throw new Error("no such label"); } });\n',
    );
    const result = await cli(dir, ["check", "webapp", "--stack", "dev"]);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toMatch(/^error POLICY_RULE_FAILED: the rule broken \(policies\/broken\.ts\) threw on chart \w[\w-]*, stack dev: no such label$/m);
    expect(result.errors).not.toMatch(/\n\s+at /);
  });
});

describe("a broken variant of the example's webapp", () => {
  it("diff --to shows the findings the upgrade would add, naming objects and fields", async () => {
    const dir = await withBrokenWebapp();
    const result = await cli(dir, ["diff", "webapp", "--to", "1.0.2", "--stack", "dev", "--format", "json", "--detailed-exitcode"]);
    expect(result.exitCode).toBe(2);
    const [chart] = JSON.parse(result.output).charts;
    expect(errors(chart.findings.added)).toStrictEqual(BROKEN);
    // The probe, misplaced as it is, resolves the warning that there was none.
    expect(chart.findings.resolved.map((f: JsonFinding) => [f.rule, f.object])).toStrictEqual([["readiness-probe", "Deployment.apps web/webapp"]]);
  });

  it("upgrade --dry-run names them too; once pinned, check fails with them and changes no file", async () => {
    const dir = await withBrokenWebapp();
    const plan = await cli(dir, ["upgrade", "webapp", "--stack", "dev", "--dry-run", "--detailed-exitcode"]);
    expect(plan.exitCode).toBe(2);
    expect(plan.output).toContain("service-target-port");
    expect((await cli(dir, ["upgrade", "webapp"])).exitCode).toBe(0);
    const before = await snapshot(dir, ["charts.lock.json", "values/webapp/values.yaml", "policies/platform.yaml"]);
    const result = await cli(dir, ["check", "webapp", "--stack", "dev", "--format", "json"]);
    expect(result.exitCode).toBe(2);
    expect(errors(JSON.parse(result.output).findings)).toStrictEqual(BROKEN);
    expect(await snapshot(dir, ["charts.lock.json", "values/webapp/values.yaml", "policies/platform.yaml"])).toStrictEqual(before);
  });
});
