import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { load } from "js-yaml";
import { KUBERNETES_SCHEMA } from "../../src/util/kube-yaml.js";
import { buildFixtureRepository } from "../../scripts/fixtures.js";
import { parseBlockYaml } from "../../src/util/fast-yaml.js";
import { runHelm } from "../helpers/helm.js";
import { ROOT } from "../helpers/platform.js";
import { tempDir } from "../helpers/tmp.js";

describe("the example repository in charts/", () => {
  it("is exactly what scripts/build-charts.ts builds from fixtures/charts", async () => {
    const out = join(await tempDir(), "charts");
    await buildFixtureRepository(out);
    const committed = (await readdir(join(ROOT, "charts"))).sort();
    expect((await readdir(out)).sort()).toStrictEqual(committed);
    for (const name of committed) {
      expect(await readFile(join(out, name)), name).toStrictEqual(await readFile(join(ROOT, "charts", name)));
    }
  });

  describe.each([3, 4] as const)("read by Helm %i", (major) => {
    it("renders every archive with helm template", async () => {
      const archives = (await readdir(join(ROOT, "charts"))).filter((name) => name.endsWith(".tgz"));
      for (const archive of archives) {
        const out = await runHelm(major, ["template", "demo", join(ROOT, "charts", archive), "--include-crds"], await tempDir());
        expect(out, archive).toMatch(/^kind: /m);
      }
    });

    it("renders documents the fast YAML reader reads exactly as js-yaml does", async () => {
      let fast = 0;
      let documents = 0;
      for (const archive of (await readdir(join(ROOT, "charts"))).filter((name) => name.endsWith(".tgz"))) {
        const out = await runHelm(
          major,
          ["template", "demo", join(ROOT, "charts", archive), "--include-crds", "--set", "ingress.enabled=true,autoscaling.enabled=true"],
          await tempDir(),
        );
        for (const document of out.split(/^---$/m).filter((d) => d.replace(/^\s*#.*$/gm, "").trim() !== "")) {
          documents++;
          const value = parseBlockYaml(document);
          if (value === undefined) continue;
          fast++;
          expect(value, document).toStrictEqual(load(document, { schema: KUBERNETES_SCHEMA }));
        }
      }
      expect(fast).toBe(documents);
    });

    it("shows the chart metadata the index lists", async () => {
      const out = await runHelm(major, ["show", "chart", join(ROOT, "charts", "webapp-2.0.0.tgz")], await tempDir());
      expect(out).toContain("version: 2.0.0");
      expect(out).toContain("appVersion: 2.0.0");
    });
  });
});
