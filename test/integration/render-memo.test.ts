// A run asks for the same rendering more than once (a diff's side, then the
// policies over that chart): it is made or read once, and a run keeps only a
// few of them.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openProject } from "../../src/project/project.js";
import { renderFor } from "../../src/project/rendering.js";
import type { ChartSpec } from "../../src/config/types.js";
import { countingHelm } from "../helpers/helm.js";
import { copyPlatform } from "../helpers/platform.js";

/** The example platform with a helm that counts renders, and what renderFor needs for one chart's pin in the dev stack. */
async function platformWithPin(key: string) {
  const dir = await copyPlatform();
  const counting = await countingHelm(dir);
  const open = () => openProject({ dir, env: { ...process.env, CHARTROOM_CACHE: join(dir, ".cache"), HELM_BIN: counting.path } });
  const project = await open();
  const spec = project.config.charts.find((chart) => chart.key === key) as ChartSpec;
  const pin = { pin: project.lock?.charts[key] as NonNullable<NonNullable<typeof project.lock>["charts"][string]> };
  const stack = project.config.stacks.find((item) => item.name === "dev");
  return { counting, open, project, spec, pin, stack };
}

describe("renderings within one run", () => {
  it("are made once and handed out again, in that run only, and no more than 16 kept", async () => {
    const { counting, open, project, spec, pin, stack } = await platformWithPin("ledger");
    // noCache: the disk cache is not asked, so each helm run shows.
    const first = await renderFor(project, { spec, stack, target: pin, noCache: true });
    const again = await renderFor(project, { spec, stack, target: pin, noCache: true });
    expect(again.objects).toBe(first.objects);
    expect(await counting.renders()).toBe(1);
    // Another run renders for itself.
    await renderFor(await open(), { spec, stack, target: pin, noCache: true });
    expect(await counting.renders()).toBe(2);
    // Sixteen other renderings later (each its own namespace), the first is gone: rendered again.
    for (let n = 0; n < 16; n++) await renderFor(project, { spec: { ...spec, namespace: `ns-${n}` }, stack, target: pin, noCache: true });
    expect(await counting.renders()).toBe(18);
    await renderFor(project, { spec, stack, target: pin, noCache: true });
    expect(await counting.renders()).toBe(19);
  });

  it("hand a reader of the objects the rendering made with the second render, and never the other way round", async () => {
    // webapp's password is random when the values do not set it: its output changes between renders.
    const { counting, open, project, spec, pin: locked, stack } = await platformWithPin("webapp");
    // Without the lock's record of its inputs (render/recorded.ts), which would spare the probe its second render.
    const pin = { pin: { ...locked.pin, renderInputs: undefined } };
    const probed = await renderFor(project, { spec, stack, target: pin, noCache: true });
    expect(await counting.renders()).toBe(2);
    expect(probed.unstable).toStrictEqual([expect.stringMatching(/ data\.password$/)]);
    expect((await renderFor(project, { spec, stack, target: pin, noCache: true, once: true })).objects).toBe(probed.objects);
    expect(await counting.renders()).toBe(2);
    // In another run, rendered once first: the probe still renders twice.
    const other = await open();
    expect((await renderFor(other, { spec, stack, target: pin, noCache: true, once: true })).unstable).toStrictEqual([]);
    expect(await counting.renders()).toBe(3);
    expect((await renderFor(other, { spec, stack, target: pin, noCache: true })).unstable).toStrictEqual(probed.unstable);
    expect(await counting.renders()).toBe(5);
  });
});
