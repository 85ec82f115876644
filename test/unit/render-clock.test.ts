import { describe, expect, it } from "vitest";
import { renderChart, type RenderInput } from "../../src/render/render.js";
import type { Runner } from "../../src/render/run.js";
import { renderInputOf } from "../helpers/render-input.js";
import { tempDir } from "../helpers/tmp.js";

// A chart that reads the clock is rendered twice, apart in time, so that a
// field derived from the time shows as changing on every render. A helm that
// prints the time as a template would (truncated like `now | date`, or
// rounded to the nearest second like `ago`) stands in for the real one.
describe("the two renders of a chart that reads the clock", () => {
  const input = (roundsClock: boolean): RenderInput => renderInputOf("aged", { readsClock: true, roundsClock });

  /** A helm whose first render ends late in its second, when rounding to the nearest second already gives the next one. */
  const helmAt = (time: (ms: number) => number): Runner => {
    let calls = 0;
    return async () => {
      if (++calls === 1) while (Date.now() % 1000 < 600) await new Promise((resolve) => setTimeout(resolve, 5));
      const stdout = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: aged\ndata:\n  at: "${time(Date.now())}"\n`;
      return { code: 0, stdout, stderr: "" };
    };
  };

  it("finds a time truncated to the second changing with the second render in the next second", async () => {
    const rendering = await renderChart(input(false), { cacheRoot: await tempDir(), noCache: true, run: helmAt((ms) => Math.floor(ms / 1000)) });
    expect(rendering.unstable).toStrictEqual(["/ConfigMap/apps/aged data.at"]);
  });

  it("finds a time rounded to the nearest second changing: the second render starts a whole second after the first ended", async () => {
    const rendering = await renderChart(input(true), { cacheRoot: await tempDir(), noCache: true, run: helmAt((ms) => Math.round(ms / 1000)) });
    expect(rendering.unstable).toStrictEqual(["/ConfigMap/apps/aged data.at"]);
  });
});
