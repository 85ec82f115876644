// chartroom names the language of kubectl's help texts for helm (render/run.ts
// says why): the real helm of each major then loads the small catalog, and
// renders the same bytes.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { helmEnv } from "../../src/render/run.js";
import { helm } from "../helpers/helm.js";
import { ROOT } from "../helpers/platform.js";
import { runGroup } from "../helpers/process.js";

/** The bytes kubectl's `get` package allocated while it was set up, as Go's init trace prints them. */
function catalogBytes(stderr: string): number {
  const line = /^init k8s\.io\/kubectl\/pkg\/cmd\/get @.*?, (\d+) bytes/m.exec(stderr);
  if (line === null) throw new Error(`no init trace of kubectl's get package in:\n${stderr.slice(0, 2000)}`);
  return Number(line[1]);
}

describe.each([3, 4] as const)("Helm %i", (major) => {
  it("loads kubectl's small catalog of help texts in chartroom's environment, and renders the same", async () => {
    const { LC_ALL: _all, LC_MESSAGES: _messages, ...user } = process.env;
    const render = async (env: NodeJS.ProcessEnv) => {
      const args = ["template", "widgets", join(ROOT, "charts", "widgets-operator-1.0.0.tgz"), "--namespace", "widgets", "--include-crds"];
      const outcome = await runGroup(await helm(major), args, { cwd: ROOT, env: { ...env, GODEBUG: "inittrace=1" }, wholeEnv: true, timeoutMs: 60_000 });
      expect(outcome.code, outcome.stderr).toBe(0);
      return { output: outcome.stdout, bytes: catalogBytes(outcome.stderr) };
    };
    const english = await render({ ...user, LANG: "C.UTF-8", GOGC: "off" });
    const chartroom = await render(helmEnv({ ...user, LANG: "C.UTF-8" }));
    // 4.9 MB with the English catalog, ≈1 MB with the small one (Helm 3.17.2, 4.1.4).
    expect(english.bytes).toBeGreaterThan(3_000_000);
    expect(chartroom.bytes).toBeLessThan(1_500_000);
    expect(chartroom.output).toBe(english.output);
    expect(chartroom.output).toContain("kind: CustomResourceDefinition");
  });
});
