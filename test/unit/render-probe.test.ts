import { describe, expect, it } from "vitest";
import { renderChart } from "../../src/render/render.js";
import { renderInputOf } from "../helpers/render-input.js";
import type { Runner } from "../../src/render/run.js";
import { tempDir } from "../helpers/tmp.js";

// A chart whose templates call something random is rendered twice to find the
// fields that change on every render. Its crds/ files are copied by helm, never
// rendered, so the second render leaves them out (kube-prometheus-stack: 4.5 MB
// of its 5.2). A helm that prints a CRD under --include-crds and a random
// password stands in for the real one.
describe("the probe's second render", () => {
  const input = renderInputOf("operator");
  const crd = [
    "# Source: operator/crds/widgets.yaml",
    "apiVersion: apiextensions.k8s.io/v1",
    "kind: CustomResourceDefinition",
    "metadata:",
    "  name: widgets.example.test",
    "spec:",
    "  group: example.test",
  ].join("\n");

  const helm = (calls: string[][]): Runner => {
    let n = 0;
    return async (_file, args) => {
      calls.push(args);
      const secret = `# Source: operator/templates/secret.yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: auth\nstringData:\n  password: random-${++n}\n`;
      const stdout = args.includes("--include-crds") ? `---\n${crd}\n---\n${secret}` : `---\n${secret}`;
      return { code: 0, stdout, stderr: "" };
    };
  };

  it("leaves out crds/, and the rendering keeps them and finds only the random field", async () => {
    const calls: string[][] = [];
    const rendering = await renderChart(input, { cacheRoot: await tempDir(), noCache: true, run: helm(calls) });
    expect(calls.map((args) => args.includes("--include-crds")).sort()).toStrictEqual([false, true]);
    expect(rendering.objects.map((object) => object.id)).toStrictEqual([
      "apiextensions.k8s.io/CustomResourceDefinition//widgets.example.test",
      "/Secret/apps/auth",
    ]);
    expect(rendering.unstable).toStrictEqual(["/Secret/apps/auth stringData.password"]);
  });

  it("leaves them out of the later render of a chart that reads the clock as well", async () => {
    const calls: string[][] = [];
    const rendering = await renderChart({ ...input, readsClock: true }, { cacheRoot: await tempDir(), noCache: true, run: helm(calls) });
    expect(calls.map((args) => args.includes("--include-crds")).sort()).toStrictEqual([false, true]);
    expect(rendering.objects).toHaveLength(2);
    expect(rendering.unstable).toStrictEqual(["/Secret/apps/auth stringData.password"]);
  });

  it("renders once, with crds/, a chart whose templates cannot change", async () => {
    const calls: string[][] = [];
    const rendering = await renderChart({ ...input, deterministic: true }, { cacheRoot: await tempDir(), noCache: true, run: helm(calls) });
    expect(calls.map((args) => args.includes("--include-crds"))).toStrictEqual([true]);
    expect(rendering.objects).toHaveLength(2);
    expect(rendering.unstable).toStrictEqual([]);
  });
});

// The lock records the fields that change on every render of a pin's very
// inputs (render/recorded.ts): a render that knows them renders once.
describe("a render that knows its fields that change on every render", () => {
  const input = renderInputOf("web");
  const helm = (calls: string[][]): Runner => {
    let n = 0;
    return async (_file, args) => {
      calls.push(args);
      return {
        code: 0,
        stdout: `---\n# Source: web/templates/secret.yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: auth\nstringData:\n  password: random-${++n}\n`,
        stderr: "",
      };
    };
  };

  it("renders once and takes them, named in that render", async () => {
    const calls: string[][] = [];
    const seen: string[][] = [];
    const known = (objects: readonly { id: string }[]) => {
      seen.push(objects.map((object) => object.id));
      return ["/Secret/apps/auth stringData.password"];
    };
    const rendering = await renderChart({ ...input, known: () => known }, { cacheRoot: await tempDir(), noCache: true, run: helm(calls) });
    expect(calls).toHaveLength(1);
    expect(seen).toStrictEqual([["/Secret/apps/auth"]]);
    expect(rendering.unstable).toStrictEqual(["/Secret/apps/auth stringData.password"]);
  });

  it("renders the second time when they cannot be named, and finds them itself", async () => {
    const calls: string[][] = [];
    const rendering = await renderChart({ ...input, known: () => () => undefined }, { cacheRoot: await tempDir(), noCache: true, run: helm(calls) });
    expect(calls.map((args) => args.includes("--include-crds"))).toStrictEqual([true, false]);
    expect(rendering.unstable).toStrictEqual(["/Secret/apps/auth stringData.password"]);
  });

  it("is rendered once anyway when its templates cannot change", async () => {
    const calls: string[][] = [];
    let asked = false;
    const known = () => {
      asked = true;
      return () => [];
    };
    await renderChart({ ...input, deterministic: true, known }, { cacheRoot: await tempDir(), noCache: true, run: helm(calls) });
    expect(calls).toHaveLength(1);
    expect(asked).toBe(false);
  });

  it("is asked only when helm is to run, and renders twice when there is no record of these inputs", async () => {
    const calls: string[][] = [];
    let asked = 0;
    const known = () => {
      asked++;
      return undefined;
    };
    const cacheRoot = await tempDir();
    const first = await renderChart({ ...input, known }, { cacheRoot, run: helm(calls) });
    expect([calls.length, asked]).toStrictEqual([2, 1]);
    expect(first.unstable).toStrictEqual(["/Secret/apps/auth stringData.password"]);
    // The cache has it now: neither helm nor the record is asked.
    expect((await renderChart({ ...input, known }, { cacheRoot, run: helm(calls) })).cached).toBe(true);
    expect([calls.length, asked]).toStrictEqual([2, 1]);
  });
});
