// What the Kubernetes provider writes for each helm.v4.Chart equals what
// chartroom renders for the same chart and stack: same archive, same Helm (the
// provider's, built by engine/build.sh), same values, same Kubernetes version.
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { displayName, type RenderedObject } from "../../src/model/objects.js";
import { displayOf, engineBin, ExampleProject, writtenObjects, type WrittenObject, ENGINE_TEST_MS } from "../helpers/engine.js";

const run = promisify(execFile);
const PASSWORD = "planted-fidelity-secret-2209";
const RELEASES = "**kubernetes:helm.sh/v3:Release**";

interface Lock {
  charts: Record<string, { engine: { name: string }; unstable?: Record<string, string[]>; renderedHooks?: Record<string, Record<string, string[]>> }>;
}

describe("fidelity: the provider's objects equal chartroom's render", () => {
  let project: ExampleProject;
  let written: WrittenObject[];
  let kubeVersion: string;

  beforeAll(async () => {
    project = await ExampleProject.create("chartroom-fidelity-");
    const helm = join(await engineBin(), "helm");
    project.env.HELM_BIN = helm;
    await addProbeChart(project, helm);
    await chartroom(project, ["lock"]);
    await project.initStack("dev", PASSWORD);
    const up = await project.pulumi(["up", "--yes", "--exclude", RELEASES]);
    if (up.code !== 0) throw new Error(`pulumi up failed:\n${up.stdout}${up.stderr}`);
    written = await writtenObjects(project.rendered);
    // What the provider's Helm believes offline, read from its own output.
    const probe = written.find((object) => object.kind === "ConfigMap" && object.metadata.name === "capabilities");
    kubeVersion = String((probe?.data as Record<string, string> | undefined)?.kube);
    // chartroom renders the stack's declared version; give it the provider's.
    await edit(join(project.dir, "chartroom.config.ts"), (text) =>
      text.replace('dev: { kubeVersion: "1.31.0" }', `dev: { kubeVersion: "${kubeVersion.replace(/^v/, "")}" }`),
    );
    await chartroom(project, ["lock"]);
  }, ENGINE_TEST_MS);

  afterAll(() => project?.remove());

  it("finds that the provider renders offline as Kubernetes v1.20.0, whatever the stack declares", () => {
    expect(kubeVersion).toBe("v1.20.0");
  });

  it("matches object by object for every helm.v4.Chart chart, random fields excepted as the lock lists them", async () => {
    const lock = JSON.parse(await readFile(join(project.dir, "charts.lock.json"), "utf8")) as Lock;
    const charts = Object.entries(lock.charts).filter(([, pin]) => pin.engine.name === "chart");
    expect(charts.map(([key]) => key).sort()).toStrictEqual(["capabilities", "storefront", "webapp", "widgets-operator"]);
    // The program gives the web app these in code; chartroom gets them as a values file.
    await project.writeCodeValues(PASSWORD);
    const byDisplay = new Map(written.map((object) => [displayOf(object), object]));
    let compared = 0;
    for (const [key, pin] of charts) {
      const extra = key === "webapp" ? ["-f", "code-values.yaml"] : [];
      const rendered = JSON.parse(await chartroom(project, ["render", key, "--stack", "dev", "--format", "json", "--show-secrets", ...extra])) as {
        objects: RenderedObject[];
      };
      const unstable = pin.unstable?.dev ?? [];
      for (const object of rendered.objects.filter((item) => item.hook === undefined)) {
        const display = displayName(object);
        const theirs = byDisplay.get(display);
        expect(theirs, `${key}: ${display} was not written by the provider`).toBeDefined();
        expect(withoutUnstable(theirs, display, unstable), `${key}: ${display}`).toStrictEqual(withoutUnstable(object.body, display, unstable));
        compared += 1;
      }
    }
    // Every object the provider wrote, but the namespaces deployCharts adds, came from a chart compared here.
    expect(compared).toBe(written.filter((object) => object.kind !== "Namespace").length);
    expect(compared).toBe(17);
  });
});

describe("hooks under helm.v4.Chart", () => {
  let project: ExampleProject;

  beforeAll(async () => {
    project = await ExampleProject.create("chartroom-hooks-");
    project.env.HELM_BIN = join(await engineBin(), "helm");
    // The hook chart deployed by helm.v4.Chart, accepting that its hooks never run.
    await edit(join(project.dir, "chartroom.config.ts"), (text) =>
      text.replace(
        'ledger: { repository: "local", version: "^0.1.0", namespace: "ledger" }',
        'ledger: { repository: "local", version: "^0.1.0", namespace: "ledger", engine: "chart", dropHooks: true }',
      ),
    );
    await chartroom(project, ["lock"]);
    await project.initStack("dev", PASSWORD);
    const up = await project.pulumi(["up", "--yes"]);
    if (up.code !== 0) throw new Error(`pulumi up failed:\n${up.stdout}${up.stderr}`);
  }, ENGINE_TEST_MS);

  afterAll(() => project?.remove());

  it("drops exactly the hook objects chartroom recorded, test hooks included", async () => {
    const lock = JSON.parse(await readFile(join(project.dir, "charts.lock.json"), "utf8")) as Lock;
    const hooks = new Set(Object.values(lock.charts.ledger?.renderedHooks?.dev ?? {}).flat());
    expect([...hooks].sort()).toStrictEqual(["Job.batch ledger/ledger-migrate", "Pod ledger/ledger-test-connection"]);
    const rendered = JSON.parse(await chartroom(project, ["render", "ledger", "--stack", "dev", "--format", "json"])) as { objects: RenderedObject[] };
    const all = rendered.objects.map((object) => displayName(object)).sort();
    const written = (await writtenObjects(project.rendered))
      .filter((object) => object.metadata.namespace === "ledger")
      .map(displayOf)
      .sort();
    expect(written.length).toBeGreaterThan(0);
    expect(all.filter((display) => !written.includes(display))).toStrictEqual([...hooks].sort());
    expect(written.every((display) => all.includes(display))).toBe(true);
  });
});

async function chartroom(project: ExampleProject, args: string[]): Promise<string> {
  const outcome = await project.chartroom(args);
  if (outcome.code !== 0) throw new Error(`chartroom ${args.join(" ")} failed (${outcome.code}):\n${outcome.stderr}${outcome.stdout}`);
  return outcome.stdout;
}

async function edit(path: string, change: (text: string) => string): Promise<void> {
  const before = await readFile(path, "utf8");
  const after = change(before);
  if (after === before) throw new Error(`the edit of ${path} changed nothing`);
  await writeFile(path, after);
}

/**
 * A chart that writes what Helm's Capabilities say into a ConfigMap, in a
 * second file repository of the copy, declared next to the others.
 */
async function addProbeChart(project: ExampleProject, helm: string): Promise<void> {
  const source = join(project.dir, "probe-src", "capabilities");
  await mkdir(join(source, "templates"), { recursive: true });
  await writeFile(join(source, "Chart.yaml"), "apiVersion: v2\nname: capabilities\nversion: 0.1.0\n");
  await writeFile(
    join(source, "templates", "configmap.yaml"),
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: capabilities\ndata:\n  kube: {{ .Capabilities.KubeVersion.Version | quote }}\n  helm: {{ .Capabilities.HelmVersion.Version | quote }}\n",
  );
  const repository = join(project.dir, "probe");
  await run(helm, ["package", source, "--destination", repository], { env: project.env });
  await run(helm, ["repo", "index", repository], { env: project.env });
  await edit(join(project.dir, "chartroom.config.ts"), (text) =>
    text
      .replace('local: "file://./charts",', 'local: "file://./charts",\n    probe: "file://./probe",')
      .replace("  charts: {", '  charts: {\n    capabilities: { repository: "probe", version: "0.1.0", namespace: "probe" },'),
  );
}

/** The body without the fields chartroom's lock lists as changing on every render (`Display: a.b`). */
function withoutUnstable(body: unknown, display: string, unstable: string[]): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  for (const entry of unstable) {
    const [object, path] = entry.split(": ");
    if (object !== display || path === undefined) continue;
    const keys = path.split(".");
    let parent: unknown = copy;
    for (const key of keys.slice(0, -1)) parent = (parent as Record<string, unknown> | undefined)?.[key];
    if (parent !== undefined) delete (parent as Record<string, unknown>)[keys.at(-1) as string];
  }
  return copy;
}
