// chartroom's rules as a Pulumi policy pack (chartroom/policy), run by the
// real engine: `pulumi preview --policy-pack` on the example program.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editFile, ROOT } from "../helpers/platform.js";
import { ExampleProject, type Outcome, ENGINE_TEST_MS } from "../helpers/engine.js";

/** The policy lines of a preview: `[level] policy (type: name)` followed by the finding. */
function violations(outcome: Outcome): string[] {
  const lines = outcome.stdout.split("\n").map((line) => line.trim());
  const out: string[] = [];
  lines.forEach((line, i) => {
    const head = /^- \[(mandatory|advisory)\]\s+(\S+)\s+\((.*)\)$/.exec(line);
    if (head !== null) out.push(`${head[1]} (${head[3]}) ${lines[i + 2] ?? ""}`);
  });
  return out;
}

describe("the example's policy pack under pulumi preview", () => {
  let project: ExampleProject;
  // As the README runs it: "$PWD/pulumi/policy-pack/analyzer" (the CLI does not find a relative launcher).
  const preview = (env: NodeJS.ProcessEnv = {}): Promise<Outcome> =>
    project.pulumi(["preview", "--policy-pack", join(project.dir, "pulumi", "policy-pack", "analyzer")], env);

  beforeAll(async () => {
    project = await ExampleProject.create("chartroom-policy-pack-");
    await project.initStack("dev", "policy-pack-secret-5521");
  }, ENGINE_TEST_MS);

  afterAll(() => project?.remove());

  it("passes the example, each advisory finding on the resource it is about", async () => {
    const outcome = await preview();
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0);
    const found = violations(outcome);
    expect(found.filter((line) => line.startsWith("mandatory"))).toStrictEqual([]);
    // A helm.v4.Chart object is a resource of its own.
    expect(found).toContain(
      "advisory (kubernetes:apps/v1:Deployment: webapp:web/webapp) readiness-probe: webapp [dev] Deployment.apps web/webapp spec.template.spec.containers[name=web].readinessProbe: serves ports but has no readiness probe: it takes traffic before it is ready (add a readinessProbe on the serving port)",
    );
    // A helm.v3.Release's objects are rendered from its archive and values: shown on the Release.
    expect(found).toContain(
      "advisory (kubernetes:helm.sh/v3:Release: ledger) run-as-root: ledger [dev] Deployment.apps ledger/ledger spec.template.spec.containers[name=ledger].securityContext.runAsNonRoot: may run as root (set securityContext.runAsNonRoot: true (and a runAsUser) on the pod or the container)",
    );
    // The example's exception holds: its finding is not reported.
    expect(found.filter((line) => line.includes("resource-requests: widgets-operator"))).toStrictEqual([]);
    // The README shows this command's output (up to its "…"): every line of it is printed.
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    const block = /```\n\$ pulumi preview --policy-pack "\$PWD\/pulumi\/policy-pack\/analyzer"\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    const shown = block
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && line !== "…");
    expect(shown.length).toBeGreaterThan(3);
    const printed = outcome.stdout
      .replaceAll(`${project.dir}/`, "")
      .split("\n")
      .map((line) => line.trim());
    for (const line of shown) expect(printed, line).toContain(line);
  });

  it("fails the preview on a mandatory finding: the example's exception once it has expired", async () => {
    const outcome = await preview({ CHARTROOM_TODAY: "2027-07-01" });
    expect(outcome.code, outcome.stdout).not.toBe(0);
    expect(violations(outcome).filter((line) => line.startsWith("mandatory"))).toStrictEqual([
      'mandatory (chartroom:index:ChartDeployment: widgets-operator) policy-exception-expired: widgets-operator [dev]: the exception for resource-requests expired on 2027-06-30 ("the operator\'s chart has no resources value before 1.1.0; requests come with that upgrade") (fix what it excused, or renew it with a new until date and reason)',
    ]);
  });

  it("sees values given in code, which only the engine knows, and the platform's severities", async () => {
    await editFile(join(project.dir, "policies", "platform.yaml"), (text) => text.replace("rules:\n", "rules:\n  image-tag: error\n"));
    await editFile(join(project.dir, "pulumi", "index.ts"), (text) =>
      text.replace('podAnnotations: { "example.test/stack": stack },', 'podAnnotations: { "example.test/stack": stack },\n      image: { tag: "latest" },'),
    );
    const check = await project.chartroom(["check", "webapp", "--stack", "dev"]);
    expect(check.stdout).not.toContain("(image-tag)");
    const outcome = await preview();
    expect(outcome.code, outcome.stdout).not.toBe(0);
    expect(violations(outcome).filter((line) => line.startsWith("mandatory"))).toStrictEqual([
      "mandatory (kubernetes:apps/v1:Deployment: webapp:web/webapp) image-tag: webapp [dev] Deployment.apps web/webapp spec.template.spec.containers[name=web].image: runs registry.example.test/webapp:latest: the latest tag moves, so what runs changes without a deploy (pin a tag, or better a digest (image@sha256:…))",
    ]);
  });
});
