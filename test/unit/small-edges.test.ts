// The small decisions of the engine records, report helpers, image changes
// and version choice, each at its edges: what the mutation run showed no test
// held (scripts/mutation-survivors.ts).
import { describe, expect, it } from "vitest";
import { imageChanges } from "../../src/diff/images.js";
import { consequenceOf, consequences, ENGINES, moveAcross } from "../../src/engine/records.js";
import { describeEngineHelm, providerFacts } from "../../src/engine/providers.js";
import { engineStep } from "../../src/engine/steps.js";
import { awaitsOf } from "../../src/engine/readiness.js";
import { chooseEngine, engineOf, mergeStacks } from "../../src/engine/choice.js";
import { adviceFor, parseConflicts } from "../../src/engine/conflicts.js";
import { parseManifest } from "../../src/render/manifest.js";
import type { RenderedObject } from "../../src/model/objects.js";
import { pinBody, pinObject, pinObjects } from "../../src/images/pin.js";
import { typesMarkdown, typesText } from "../../src/report/codegen.js";
import { formatsOf } from "../../src/report/formats.js";
import { formatReport } from "../../src/report/registry.js";
import { renderMarkdown, renderSummary, type RenderReport } from "../../src/report/render.js";
import { shortDigest, textTable } from "../../src/report/tables.js";
import { ChartroomError } from "../../src/errors/index.js";
import type { ChartSpec } from "../../src/config/types.js";
import type { ChartVersion } from "../../src/model/charts.js";
import { outdatedRow, updateType } from "../../src/versions/outdated.js";
import { highestInRange, resolveVersion } from "../../src/versions/resolve.js";
import { diffReport } from "../../src/diff/report.js";
import { plain } from "../../src/report/paint.js";
import { upgradeMarkdown, upgradeText, type UpgradeReport } from "../../src/report/upgrade.js";

describe("what each engine does to an object", () => {
  const seen = (forceNew: boolean, immutable: boolean, offline = false) => ({ forceNew, immutable, offline });

  it("replaces under helm.v4.Chart only for a field the provider replaces on, and says it otherwise offline", () => {
    const chart = ENGINES.chart;
    expect(consequenceOf(chart, seen(true, false))).toBe(chart.replacement);
    expect(consequenceOf(chart, seen(true, false, true))).toBe(chart.replacementOffline ?? "(none)");
    expect(chart.replacementOffline).not.toBe(chart.replacement);
    expect(consequenceOf(chart, seen(false, true))).toBe(chart.immutableChange);
    expect(consequenceOf(chart, seen(false, false))).toBe(chart.inPlace);
  });

  it("never replaces under helm.v3.Release, where a forced field is an update or an immutable failure", () => {
    const release = ENGINES.release;
    expect(consequenceOf(release, seen(true, false))).toBe(release.inPlace);
    expect(consequenceOf(release, seen(true, true, true))).toBe(release.immutableChange);
    expect(consequences(seen(true, false))).toStrictEqual({ chart: ENGINES.chart.replacement, release: release.inPlace });
  });

  it("names both engines and the chart an object leaves when it changes engine", () => {
    expect(moveAcross("chart", "release", "webapp")).toBe(
      `the object changes engine (${ENGINES.chart.display} → ${ENGINES.release.display}): the new owner creates it while the old still holds it, and removing it from webapp deletes it; plan a window, or move it in two steps`,
    );
  });

  it.each([
    ["add", "chart", false, false, true, "create"],
    ["delete", "release", false, false, true, "delete"],
    ["rename", "chart", false, false, true, "recreate"],
    ["replace", "chart", true, false, true, "replace"],
    ["replace", "release", true, false, true, "update"],
    ["update", "release", false, true, true, "fails"],
    ["update", "chart", false, false, true, "update"],
    ["update", "chart", false, false, false, "same"],
  ] as const)("%s under %s (forceNew %s, immutable %s, changed %s) is %s", (action, engine, forceNew, immutable, changed, step) => {
    expect(engineStep(engine, { action, forceNew, immutable, changed })).toBe(step);
  });
});

describe("a provider release's facts", () => {
  it("changes what it does at 4.12, 4.18, 4.29 and 4.30, and knows the Helm it embeds only from its table", () => {
    expect(providerFacts("4.11.0")).toStrictEqual({
      version: "4.11.0",
      chartV4: false,
      create: "server-side apply",
      mutableOptions: ["enableConfigMapMutable"],
      keepsNullValues: false,
    });
    const newest = providerFacts("4.30.0");
    expect([newest.chartV4, newest.create, newest.mutableOptions, newest.keepsNullValues]).toStrictEqual([
      true,
      "client-side create",
      ["enableConfigMapMutable", "enableSecretMutable"],
      true,
    ]);
    expect(providerFacts("4.18.0").mutableOptions).toStrictEqual(["enableConfigMapMutable", "enableSecretMutable"]);
    expect(providerFacts("4.17.9").mutableOptions).toStrictEqual(["enableConfigMapMutable"]);
    expect(providerFacts("4.25.0").helm).toMatch(/^3\.\d+\.\d+$/);
    expect(providerFacts("not-a-version")).toMatchObject({ chartV4: false, keepsNullValues: false });
  });

  it("says whether a release it lacks is newer than its table or simply not in it", () => {
    expect(describeEngineHelm(providerFacts("4.25.0"))).toMatch(/^Helm 3\.\d+\.\d+ \(@pulumi\/kubernetes 4\.25\.0\)$/);
    expect(describeEngineHelm(providerFacts("99.0.0"))).toMatch(/^an unknown Helm: @pulumi\/kubernetes 99\.0\.0 is newer than chartroom's table/);
    expect(describeEngineHelm(providerFacts("4.0.0-beta.1"))).toBe(
      "an unknown Helm: @pulumi/kubernetes 4.0.0-beta.1 is not in chartroom's table of provider releases",
    );
    expect(describeEngineHelm(providerFacts("main"))).toBe("an unknown Helm: @pulumi/kubernetes main is not in chartroom's table of provider releases");
  });
});

describe("report helpers", () => {
  it("lists each report's formats", () => {
    expect(formatsOf("check")).toStrictEqual(["text", "json", "markdown", "yaml"]);
    expect(formatsOf("diff")).toStrictEqual(["text", "json", "markdown", "html"]);
  });

  it("refuses a format a report does not print, naming the ones it does", () => {
    let error: unknown;
    try {
      formatReport({ report: "types", format: 1, path: "/p/t.ts", charts: [], status: "current" }, "html");
    } catch (caught) {
      error = caught;
    }
    expect(ChartroomError.isInstance(error) && [error.code, error.message, error.hint]).toStrictEqual([
      "USAGE",
      "types does not print as html",
      "-o text | json | markdown",
    ]);
  });

  it("pads every column but the last to its widest cell, colour codes not counted", () => {
    expect(textTable(["A", "BB", "C"], [["xxx", "\u001b[31my\u001b[39m", "z   "]])).toBe(`A    BB  C\nxxx  \u001b[31my\u001b[39m   z`);
    expect(shortDigest(`sha256:${"ab".repeat(32)}`)).toBe("abababababab");
    expect(shortDigest("md5sha256:0123456789abcdef")).toBe("md5sha256:01");
  });

  it("prints chartroom types' outcome for each status, with the charts in markdown", () => {
    const report = (status: "written" | "unchanged" | "current" | "stale") => ({
      report: "types" as const,
      format: 1 as const,
      path: "/p/chartroom.types.ts",
      charts: [{ chart: "webapp", version: "1.0.1" }],
      status,
    });
    expect(["written", "unchanged", "current", "stale"].map((status) => typesText(report(status as never), "/p"))).toStrictEqual([
      "wrote chartroom.types.ts (1 charts)",
      "unchanged chartroom.types.ts (1 charts)",
      "chartroom.types.ts is up to date (1 charts)",
      "chartroom.types.ts is stale: run `chartroom types` and commit it",
    ]);
    expect(typesText(report("written"), "/p/chartroom.types.ts")).toBe("wrote /p/chartroom.types.ts (1 charts)");
    expect(typesMarkdown(report("current"), "/p")).toBe("chartroom.types.ts is up to date (1 charts)\n\n- `webapp` 1.0.1");
  });

  it("summarises a render one object a line, hooks with their events, test flag and weight", () => {
    const objects = parseManifest(
      `# Source: c/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n# Source: c/templates/t.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: t\n  annotations:\n    helm.sh/hook: test\n    helm.sh/hook-weight: "5"\n---\n# Source: c/templates/j.yaml\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  annotations:\n    helm.sh/hook: pre-install,pre-upgrade\n`,
      "ns",
      "c",
    );
    const report: RenderReport = { report: "render", format: 1, chart: "c", version: "1.0.0", stack: null, helm: "4.1.4", objects };
    expect(renderSummary(report).split("\n")).toStrictEqual([
      "OBJECT          API VERSION  SOURCE              HOOK",
      "ConfigMap ns/a  v1           c/templates/a.yaml  -",
      "Pod ns/t        v1           c/templates/t.yaml  test (test) w=5",
      "Job.batch ns/j  batch/v1     c/templates/j.yaml  pre-install,pre-upgrade w=0",
    ]);
    expect(renderMarkdown(report).split("\n")[0]).toBe("### c 1.0.0");
    expect(renderMarkdown({ ...report, stack: "dev" }).split("\n")[0]).toBe("### c 1.0.0 · stack dev");
    expect(formatReport(report, "text", { summary: true })).toBe(renderSummary(report));
  });
});

describe("image changes between two sides", () => {
  const deployment = (name: string, image: string, extra = "") =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      containers:\n        - name: app\n          image: ${image}\n${extra}`;
  const side = (text: string, digests?: Map<string, string>) => ({ objects: parseManifest(text, "ns", "c"), ...(digests === undefined ? {} : { digests }) });
  const digest = (c: string) => `sha256:${c.repeat(64)}`;

  it("lists added, changed and removed uses by object then container, a digest change too, nothing for the same image", () => {
    const before = side(
      [deployment("b", "r.test/b:1"), deployment("a", "r.test/a:1"), deployment("gone", "r.test/g:1"), deployment("same", "r.test/s:1")].join("---\n"),
      new Map([["r.test/a:1", digest("a")]]),
    );
    const after = side(
      [deployment("a", "r.test/a:1"), deployment("b", "r.test/b:2"), deployment("new", "r.test/n:1"), deployment("same", "r.test/s:1")].join("---\n"),
      new Map([["r.test/a:1", digest("b")]]),
    );
    expect(
      imageChanges(before, after).map((change) => [change.object, change.change, change.from?.image, change.from?.digest, change.to?.digest]),
    ).toStrictEqual([
      ["Deployment.apps ns/a", "changed", "r.test/a:1", digest("a"), digest("b")],
      ["Deployment.apps ns/b", "changed", "r.test/b:1", undefined, undefined],
      ["Deployment.apps ns/gone", "removed", "r.test/g:1", undefined, undefined],
      ["Deployment.apps ns/new", "added", undefined, undefined, undefined],
    ]);
    expect(imageChanges(null, null)).toStrictEqual([]);
  });

  it("orders the containers of one object by name, and takes a digest written in the reference over the lock's", () => {
    const two = (image: string) =>
      side(
        `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: z\n      image: ${image}\n    - name: a\n      image: ${image}\n`,
        new Map([[image, digest("c")]]),
      );
    const changes = imageChanges(null, two(`r.test/p:1@${digest("d")}`));
    expect(changes.map((change) => [change.container, change.to?.digest])).toStrictEqual([
      ["containers[a]", digest("d")],
      ["containers[z]", digest("d")],
    ]);
  });
});

describe("the upgrade report", () => {
  const report = (moves: UpgradeReport["moves"], notes: string[] = []): UpgradeReport => ({
    report: "upgrade",
    format: 1,
    moves,
    notes,
    written: false,
    diff: diffReport([]),
  });

  it("says there is nothing to move, with nothing around it", () => {
    expect(upgradeText(report([]), plain)).toBe("every chart is on the highest version its range allows");
    expect(upgradeMarkdown(report([]))).toBe("**every chart is on the highest version its range allows**");
  });

  it("names each move, its range when the config changes, and each note", () => {
    const moves = [
      { chart: "a", from: "1.0.0", to: "1.0.1" },
      { chart: "b", from: "1.0.0", to: "2.0.0", range: { from: "~1.0.0", to: "~2.0.0" } },
    ];
    expect(upgradeText(report(moves, ["one", "two"]), plain)).toBe(
      'would upgrade: a 1.0.0 → 1.0.1, b 1.0.0 → 2.0.0 (range "~1.0.0" → "~2.0.0" in the config)\n\nnote: one\nnote: two',
    );
    expect(upgradeText({ ...report(moves.slice(0, 1)), written: true }, plain)).toBe("upgraded: a 1.0.0 → 1.0.1");
  });
});

describe("version choice at its edges", () => {
  const listing = (...versions: string[]) =>
    versions
      .map((version) => ({ version, deprecated: version.endsWith("!") }) as ChartVersion)
      .map((v) => (v.deprecated ? { ...v, version: v.version.slice(0, -1) } : v));
  const request = { key: "web", chart: "webapp", range: "^9.0.0", prerelease: false, repository: "https://charts.example.test" };
  const notFound = (range: string, versions: ChartVersion[], prerelease = false): ChartroomError => {
    try {
      resolveVersion({ ...request, range, prerelease }, versions);
    } catch (error) {
      if (ChartroomError.isInstance(error)) return error;
      throw error;
    }
    throw new Error("expected VERSION_NOT_FOUND");
  };

  it("finds an exact version among entries that are not versions, and skips those in a range", () => {
    const versions = listing("main", "1.0.0", "latest", "1.1.0");
    expect(resolveVersion({ ...request, range: "1.0.0" }, versions).version).toBe("1.0.0");
    expect(resolveVersion({ ...request, range: "v1.0.0" }, versions).version).toBe("1.0.0");
    expect(resolveVersion({ ...request, range: "^1" }, versions).version).toBe("1.1.0");
    expect(highestInRange(listing("1.0.0", "1.2.0!", "1.1.0"), "^1", false)?.version).toBe("1.1.0");
  });

  it("lists what exists, newest first, the deprecated marked, the eighth and no more before counting the rest", () => {
    const eight = listing("1.0.0", "1.0.1", "1.0.2!", "1.0.3", "1.0.4", "1.0.5", "1.0.6", "1.0.7", "junk");
    const error = notFound("^9", eight);
    expect([error.code, error.details]).toStrictEqual([
      "VERSION_NOT_FOUND",
      ["available: 1.0.7, 1.0.6, 1.0.5, 1.0.4, 1.0.3, 1.0.2 (deprecated), 1.0.1, 1.0.0"],
    ]);
    expect(notFound("^9", [...eight, ...listing("0.9.0")]).details).toStrictEqual([
      "available: 1.0.7, 1.0.6, 1.0.5, 1.0.4, 1.0.3, 1.0.2 (deprecated), 1.0.1, 1.0.0, … (9 in all)",
    ]);
    expect(notFound("9.9.9", []).details).toStrictEqual(["available: none"]);
    expect(notFound("^9", [], true).hint).toBe("widen charts.<key>.version");
    expect(notFound("^9", []).hint).toBe("widen charts.<key>.version, or set prerelease: true if you meant a prerelease");
  });

  const spec = (range: string) => ({ key: "web", range, prerelease: false, repository: { url: "https://charts.example.test" } }) as unknown as ChartSpec;

  it.each([
    ["not locked yet", "^1", undefined, ["1.0.0", "1.1.0", "2.0.0"], { current: undefined, wanted: "1.1.0", latest: "2.0.0", outdated: true }],
    [
      "behind in range and out of it",
      "^1",
      "1.0.0",
      ["1.0.0", "1.1.0", "2.0.0"],
      { current: "1.0.0", wanted: "1.1.0", latest: "2.0.0", updateType: "major", outdated: true },
    ],
    [
      "behind only within the range",
      "^1",
      "1.0.0",
      ["1.0.0", "1.0.1"],
      { current: "1.0.0", wanted: "1.0.1", latest: "1.0.1", updateType: "patch", outdated: true },
    ],
    ["current", "^1", "1.1.0", ["1.0.0", "1.1.0"], { current: "1.1.0", wanted: "1.1.0", latest: "1.1.0", outdated: false }],
    ["ahead of the listing (a version withdrawn)", "^1", "1.2.0", ["1.0.0", "1.1.0"], { current: "1.2.0", wanted: "1.1.0", latest: "1.1.0", outdated: false }],
    ["nothing listed", "^1", "1.0.0", [], { current: "1.0.0", wanted: undefined, latest: undefined, outdated: false }],
    [
      "pinned to a name that is not a version",
      "^1",
      "main",
      ["1.0.0"],
      { current: "main", wanted: "1.0.0", latest: "1.0.0", updateType: "major", outdated: true },
    ],
  ] as const)("a chart %s", (_what, range, locked, versions, row) => {
    const got = outdatedRow(spec(range), locked === undefined ? undefined : { version: locked }, listing(...versions));
    expect(got).toStrictEqual({ chart: "web", repository: "https://charts.example.test", updateType: undefined, ...row });
  });

  it.each([
    ["1.0.0", "2.0.0", "major"],
    ["1.0.0", "2.0.0-rc.1", "major"],
    ["1.0.0", "1.1.0", "minor"],
    ["1.0.0", "1.1.0-rc.1", "minor"],
    ["1.0.0", "1.0.1", "patch"],
    ["1.0.0", "1.0.1-rc.1", "patch"],
    ["1.0.0-rc.1", "1.0.0-rc.2", "prerelease"],
    ["1.0.0", "1.0.0", undefined],
    ["main", "1.0.0", "major"],
  ] as const)("%s → %s is %s", (from, to, type) => {
    expect(updateType(from, to)).toBe(type);
  });
});

describe("server-side apply conflicts", () => {
  it("reads a list of conflicts with a subresource and a version, each field once, other lines left", () => {
    const message = [
      'Apply failed with 2 conflicts: conflicts with "kube-controller-manager" with subresource "scale" using apps/v1:',
      "- .spec.replicas",
      '   - .spec.template.spec.containers[name="app"].image',
      "not a field",
      "",
      'and conflicts with "hotfix":',
      "- .metadata.labels.team",
    ].join("\n");
    expect(parseConflicts(message)).toStrictEqual([
      { manager: "kube-controller-manager", subresource: "scale", field: ".spec.replicas" },
      { manager: "kube-controller-manager", subresource: "scale", field: '.spec.template.spec.containers[name="app"].image' },
      { manager: "hotfix", field: ".metadata.labels.team" },
    ]);
  });

  it.each([
    [{ manager: "hpa-thing", subresource: "scale", field: ".spec.replicas" }, "autoscaler"],
    [{ manager: "kube-controller-manager", field: ".spec.replicas" }, "autoscaler"],
    [{ manager: "kube-controller-manager", field: ".spec.template" }, "controller"],
    [{ manager: "kube-scheduler", field: ".x" }, "controller"],
    [{ manager: "cert-controller", field: ".x" }, "controller"],
    [{ manager: "ingress-controller-manager", field: ".x" }, "controller"],
    [{ manager: "my-kube-thing", field: ".x" }, "other"],
    [{ manager: "controller-runtime", field: ".x" }, "other"],
    [{ manager: "istio-sidecar-injector", field: ".x" }, "webhook"],
    [{ manager: "pulumi-kubernetes-0a1b2c3d", field: ".x" }, "pulumi"],
    [{ manager: "helm", field: ".x" }, "helm"],
    [{ manager: "pulumi-resource-kubernetes", field: ".x" }, "helm"],
    [{ manager: "kubectl-edit", field: ".x" }, "kubectl"],
    [{ manager: "hotfix", field: ".x" }, "other"],
  ] as const)("%j is owned by the %s", (conflict, owner) => {
    expect(adviceFor(conflict).owner).toBe(owner);
  });
});

describe("what each engine waits for", () => {
  const objects = (text: string) => parseManifest(text, "ns", "c");
  const deployment = (name: string, probe: boolean, annotations = "") =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\n${annotations}spec:\n  template:\n    spec:\n      containers:\n        - name: a\n${probe ? "          readinessProbe: { tcpSocket: { port: 80 } }\n" : ""}        - name: b\n          readinessProbe: { tcpSocket: { port: 81 } }\n        - not-a-container\n`;

  it("names containers without a probe, and skipAwait only under helm.v4.Chart", () => {
    const rendered = objects(
      [deployment("plain", false), deployment("probed", true), deployment("skipped", true, '  annotations:\n    pulumi.com/skipAwait: "true"\n')].join("---\n"),
    );
    expect(awaitsOf("chart", rendered).map((item) => [item.display, item.note])).toStrictEqual([
      ["Deployment.apps ns/plain", "no readinessProbe on a: ready as soon as started, so the wait proves little"],
      ["Deployment.apps ns/probed", undefined],
      ["Deployment.apps ns/skipped", "pulumi.com/skipAwait: not waited for at all; the deploy goes on before it is ready"],
    ]);
    expect(awaitsOf("release", rendered).map((item) => item.note)).toStrictEqual([
      "no readinessProbe on a: ready as soon as started, so the wait proves little",
      undefined,
      undefined,
    ]);
  });

  it("waits for a Service's endpoints, a load balancer's address, nothing for an ExternalName or selector-less one", () => {
    const services = objects(
      [
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: plain\nspec:\n  selector: { app: a }\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: lb\nspec:\n  type: LoadBalancer\n  selector: { app: a }\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: ext\nspec:\n  type: ExternalName\n  externalName: x.example.test\n  selector: { app: a }\n",
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: headless\nspec:\n  clusterIP: None\n",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lb\n",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nospec\n",
      ].join("---\n"),
    );
    expect(awaitsOf("chart", services).map((item) => [item.display, item.on, item.note])).toStrictEqual([
      ["Service ns/plain", "endpoints for its selector", undefined],
      ["Service ns/lb", "an address in status.loadBalancer (a load balancer controller must give one)", undefined],
      ["Deployment.apps ns/nospec", PROVIDER_ROLLOUT, undefined],
    ]);
  });
});

const PROVIDER_ROLLOUT = "rolled out: observedGeneration current, updated and available replicas, Progressing with NewReplicaSetAvailable";

describe("the engine a chart gets", () => {
  it("keeps the declared engine, else the pin's, else none", () => {
    expect(engineOf({ engine: "release" }, { engine: { name: "chart" } })).toBe("release");
    expect(engineOf({ engine: "auto" }, { engine: { name: "release" } })).toBe("release");
    expect(engineOf({ engine: "auto" }, undefined)).toBeUndefined();
  });

  it("names the objects of the hooks a render found, each once, in order", () => {
    const hooks = { "pre-upgrade": ["Job ns/migrate"], "pre-install": ["Job ns/migrate", "Secret ns/seed"], test: ["Pod ns/t"] };
    const choice = chooseEngine({ key: "c", engine: "auto", dropHooks: false, helmRelease: false }, hooks, "rendered");
    expect(choice.reasons[0]).toBe(
      "the chart renders pre-install, pre-upgrade hooks (Job ns/migrate, Secret ns/seed); helm.v4.Chart would drop them without a word, helm.v3.Release runs them",
    );
    const tests = chooseEngine({ key: "c", engine: "auto", dropHooks: false, helmRelease: false }, { test: ["Pod ns/t"] }, "rendered");
    expect(tests).toStrictEqual({
      name: "chart",
      reasons: ["the chart renders no lifecycle hooks; helm.v4.Chart makes each object a Pulumi resource with its own diff"],
    });
  });

  it("merges the hooks of every stack, each object once, sorted", () => {
    expect(mergeStacks({ dev: { "pre-install": ["b", "a"] }, prod: { "pre-install": ["a", "c"], "post-delete": ["d"] } })).toStrictEqual({
      "pre-install": ["a", "b", "c"],
      "post-delete": ["d"],
    });
  });
});

describe("pinning images to their locked digests", () => {
  const digest = (c: string) => `sha256:${c.repeat(64)}`;
  const pod = (name: string, images: string[], hook = "") =>
    parseManifest(
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n${hook}spec:\n  containers:\n${images.map((image, i) => `    - name: c${i}\n      image: ${JSON.stringify(image)}\n`).join("")}`,
      "ns",
      "c",
    )[0] as RenderedObject;

  it("pins what the lock has, keeps a digest written already, and says why it left each other use alone", () => {
    const object = pod("p", ["r.test/a:1", `r.test/b:1@${digest("b")}`, "r.test/c:1", "UPPER/not valid"]);
    const { object: pinned, unpinned } = pinObject(object, new Map([["r.test/a:1", digest("a")]]));
    const images = ((pinned.body.spec as { containers: { image: string }[] }).containers ?? []).map((container) => container.image);
    expect(images).toStrictEqual([`r.test/a:1@${digest("a")}`, `r.test/b:1@${digest("b")}`, "r.test/c:1", "UPPER/not valid"]);
    expect(unpinned.map((item) => [item.use.written, item.why, item.object === object])).toStrictEqual([
      ["r.test/c:1", "not-locked", true],
      ["UPPER/not valid", "not-an-image", true],
    ]);
    // The object itself is left as it was; one with nothing to pin is the very same object.
    expect((object.body.spec as { containers: { image: string }[] }).containers[0]?.image).toBe("r.test/a:1");
    const same = pod("s", ["r.test/c:1"]);
    expect(pinObject(same, new Map()).object).toBe(same);
  });

  it("leaves hooks alone under helm.v3.Release, naming each unpinned use, and pins them otherwise", () => {
    const hook = pod("h", ["r.test/a:1", `r.test/b:1@${digest("b")}`], "  annotations:\n    helm.sh/hook: pre-install\n");
    const plainPod = pod("p", ["r.test/a:1"]);
    const digests = new Map([["r.test/a:1", digest("a")]]);
    const release = pinObjects([hook, plainPod], digests, { hooksUnpinned: true });
    expect(release.objects[0]).toBe(hook);
    expect(release.unpinned.map((item) => [item.object.name, item.use.written, item.why])).toStrictEqual([["h", "r.test/a:1", "hook-under-release"]]);
    const imageOf = (object: RenderedObject | undefined) => (object?.body.spec as { containers: { image: string }[] } | undefined)?.containers[0]?.image;
    expect(imageOf(release.objects[1])).toBe(`r.test/a:1@${digest("a")}`);
    const chart = pinObjects([hook], digests);
    expect(imageOf(chart.objects[0])).toBe(`r.test/a:1@${digest("a")}`);
    expect(pinObjects([plainPod], digests, { hooksUnpinned: true }).objects[0]).not.toBe(plainPod);
  });

  it("pins an image field of a custom resource it is told about", () => {
    const custom = parseManifest(
      "apiVersion: ops.example.test/v1\nkind: Prometheus\nmetadata:\n  name: p\nspec:\n  image: r.test/prom:2\n",
      "ns",
      "c",
    )[0] as RenderedObject;
    const fields = [{ kind: "Prometheus", path: "spec.image" }];
    expect(pinBody(custom, new Map([["r.test/prom:2", digest("e")]]), fields).body.spec).toStrictEqual({ image: `r.test/prom:2@${digest("e")}` });
    expect(pinBody(custom, new Map([["r.test/prom:2", digest("e")]])).body).toBe(custom.body);
  });
});
