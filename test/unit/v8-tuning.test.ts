import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { budgetDefaultOf } from "../../src/util/v8-tuning.js";

// V8's settings are the process's: each case runs in a node of its own.
const root = join(import.meta.dirname, "..", "..");
const module = JSON.stringify(join(root, "src/util/v8-tuning.ts"));
// A V8 setting in the developer's NODE_OPTIONS would turn the CLI's request off: each case says its own.
const cleanEnv = { ...process.env, NODE_OPTIONS: "" };

/** What `script` (an ES module, with `tuning` imported) writes, run by a node started with `args`. */
function inNode(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(process.execPath, [...args, "--import", "tsx", "--input-type=module", "-e", `const tuning = await import(${module});\n${script}`], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...cleanEnv, ...env },
  });
}

/**
 * The young generation's size after `steps`, over its size before: garbage
 * is made the way a render's parse does (loading tsx has grown it a little already).
 */
function youngSpaceGrowth(steps: string): number {
  return Number(
    inNode(`
      import("node:v8").then(({ getHeapSpaceStatistics }) => {
        const garbage = () => { let keep = []; for (let i = 0; i < 400000; i++) { keep.push({ i, s: "x" + i }); if (keep.length > 20000) keep = []; } };
        const size = () => getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size;
        const before = size();
        ${steps}
        process.stdout.write(String(size() / before));
      });`),
  );
}

describe("the young generation", () => {
  it("grows as V8 lets it when nobody asks (the library never does)", () => {
    expect(youngSpaceGrowth("garbage();")).toBeGreaterThanOrEqual(4);
  });

  it("stays at its first size once the CLI asks, through inputs under 4 MB", () => {
    expect(youngSpaceGrowth("tuning.tuneForShortRun(); tuning.beforeInput(tuning.LARGE_INPUT_BYTES - 1); garbage();")).toBe(1);
  });

  it("grows again once an input of 4 MB or more is read", () => {
    expect(youngSpaceGrowth("tuning.tuneForShortRun(); garbage(); tuning.beforeInput(tuning.LARGE_INPUT_BYTES); garbage();")).toBeGreaterThanOrEqual(4);
  });
});

/**
 * Full collections while the script comes to hold `megabytes` more, after
 * `steps`, counted by Node's gc entries (a collection `steps` made is not).
 */
function fullCollections(steps: string, megabytes: number, args: string[] = []): number {
  return Number(
    inNode(
      `
      const { PerformanceObserver, constants } = await import("node:perf_hooks");
      const { getHeapStatistics } = await import("node:v8");
      ${steps}
      let full = 0;
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++;
      });
      observer.observe({ entryTypes: ["gc"] });
      const held = () => getHeapStatistics().used_heap_size;
      const start = held();
      const kept = [];
      while (held() < start + ${megabytes} * 1024 * 1024) for (let i = 0; i < 10000; i++) kept.push({ i, s: "x" + i });
      await new Promise((resolve) => setTimeout(resolve, 100));
      process.stdout.write(String(full));`,
      args,
    ),
  );
}

describe("the old generation's first limit", () => {
  it("is V8's own when nobody asks: holding 15 MB more brings a full collection (the library never asks)", () => {
    expect(fullCollections("", 15)).toBeGreaterThanOrEqual(1);
  });

  it("is ten times what node holds once the CLI asks at its start: holding 15 MB more brings none", () => {
    expect(fullCollections("tuning.tuneForShortRun();", 15)).toBe(0);
  });

  it("is V8's own where the CLI's cache holds renderings (a warm run reads them back): holding 15 MB more brings a full collection", () => {
    expect(fullCollections("tuning.tuneForShortRun(undefined, { coldCache: false });", 15)).toBeGreaterThanOrEqual(1);
  });

  it("is the only one so set: after another full collection, holding 40 MB more brings one again", () => {
    expect(fullCollections("tuning.tuneForShortRun(); gc();", 40, ["--expose-gc"])).toBeGreaterThanOrEqual(1);
  });

  it("leaves natives syntax off, as node started", () => {
    const natives = 'try { new Function("%CollectGarbage(0)"); process.stdout.write("on"); } catch { process.stdout.write("off"); }';
    expect(inNode(`tuning.tuneForShortRun(); ${natives}`)).toBe("off");
  });

  it("is left as V8 sets it when node was started with a heap growing setting of the user's", () => {
    expect(fullCollections("tuning.tuneForShortRun();", 15, ["--heap-growing-percent=50"])).toBeGreaterThanOrEqual(1);
  });
});

// V8 optimizes synchronously here (--no-concurrent-recompilation), so whether
// a function is TurboFan's after so many calls does not depend on timing.
// Under Node 20's V8 a small function is optimized after ≈250 calls by
// default and ≈4,500 with the budget sixteen times larger: 1,000 calls sit between.
const optimizedAfter = (calls: number) => `
  const status = new Function("f", "return %GetOptimizationStatus(f)");
  const hot = (a) => { let s = 0; for (let i = 0; i < 10; i++) s += a * i; return s; };
  for (let i = 0; i < ${calls}; i++) hot(i);
  process.stdout.write(String((status(hot) & 64) !== 0));`;
const NATIVES = ["--allow-natives-syntax", "--no-concurrent-recompilation"];
const budgetKnown = budgetDefaultOf(process.versions.v8) !== undefined;

describe("optimizing compiler", () => {
  it("optimizes a hot function as V8 does when nobody asks", () => {
    expect(inNode(optimizedAfter(1000), NATIVES)).toBe("true");
  });

  it.runIf(budgetKnown)("optimizes nothing once the CLI asks, however hot", () => {
    expect(inNode(`tuning.tuneForShortRun();${optimizedAfter(100_000)}`, NATIVES)).toBe("false");
  });

  it.runIf(budgetKnown)("waits sixteen times longer once the CLI asks, when the user keeps TurboFan on", () => {
    expect(inNode(`tuning.tuneForShortRun();${optimizedAfter(1000)}`, [...NATIVES, "--turbofan"])).toBe("false");
    expect(inNode(`tuning.tuneForShortRun();${optimizedAfter(100_000)}`, [...NATIVES, "--turbofan"])).toBe("true");
  });

  it.runIf(budgetKnown)("optimizes again, sixteen times later, once an input of 1 MB is read", () => {
    const optimizedOnceRead = (calls: number) =>
      inNode(`tuning.tuneForShortRun(); tuning.beforeInput(tuning.TURBOFAN_INPUT_BYTES);${optimizedAfter(calls)}`, NATIVES);
    expect([optimizedOnceRead(1000), optimizedOnceRead(100_000)]).toStrictEqual(["false", "true"]);
    expect(inNode(`tuning.tuneForShortRun(); tuning.beforeInput(tuning.TURBOFAN_INPUT_BYTES - 1);${optimizedAfter(100_000)}`, NATIVES)).toBe("false");
  });

  it.runIf(budgetKnown)("optimizes as V8 does again once an input of 4 MB or more is read, and inside withV8Defaults", () => {
    expect(inNode(`tuning.tuneForShortRun(); tuning.beforeInput(tuning.LARGE_INPUT_BYTES);${optimizedAfter(1000)}`, NATIVES)).toBe("true");
    expect(inNode(`tuning.tuneForShortRun(); tuning.withV8Defaults(() => {${optimizedAfter(1000)}});`, NATIVES)).toBe("true");
  });

  it("takes the budget's default for this V8 from the table, where node's own flags say the same", () => {
    const nodeSays = /--interrupt-budget \(.*\)\n\s+type: int\s+default: --interrupt-budget=(\d+)/.exec(
      execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" }),
    )?.[1];
    expect(nodeSays).toBeDefined();
    // A V8 missing from the table keeps its budget; one in it must name V8's own default, or every run would refuse the code cache.
    if (budgetKnown) expect(budgetDefaultOf(process.versions.v8)).toBe(Number(nodeSays));
  });

  it("changes nothing but the young generation under a V8 whose budget default it does not know", () => {
    expect(inNode("tuning.tuneForShortRun('99.1.0'); process.stdout.write(tuning.tunedFlags().join(' '));")).toBe("--semi-space-growth-factor=1");
  });
});

describe("the user's own V8 settings", () => {
  /** The flags the CLI's request changed in a node started with `args` and `env`. */
  const tuned = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    inNode("tuning.tuneForShortRun(); process.stdout.write(tuning.tunedFlags().join(' '));", args, env);
  const optimizer = budgetKnown ? " --interrupt-budget=1081344 --no-turbofan" : "";

  it("are all the CLI's to set when node was started with none", () => {
    expect(tuned([])).toBe(`--semi-space-growth-factor=1${optimizer}`);
  });

  it("leave the young generation alone when node was started with a semi-space setting", () => {
    expect(tuned(["--max-semi-space-size=8"])).toBe(optimizer.trim());
    expect(tuned(["--semi_space_growth_factor=4"])).toBe(optimizer.trim());
  });

  it("leave the young generation alone when the semi-space setting comes through NODE_OPTIONS (not in process.execArgv)", () => {
    expect(tuned([], { NODE_OPTIONS: "--max-semi-space-size=8" })).toBe(optimizer.trim());
  });

  it.runIf(budgetKnown)("leave the budget alone when node was started with one", () => {
    expect(tuned(["--interrupt_budget=5000"])).toBe("--semi-space-growth-factor=1 --no-turbofan");
  });

  it.runIf(budgetKnown)("leave TurboFan alone when node was started with a setting of it, or without a JIT", () => {
    for (const flag of ["--turbofan", "--no-opt", "--noopt", "--no_turbofan", "--jitless"]) {
      expect(tuned([flag]), flag).toBe("--semi-space-growth-factor=1 --interrupt-budget=1081344");
    }
    // A flag that only begins the same is another setting.
    expect(tuned(["--optimize-for-size"])).toBe(`--semi-space-growth-factor=1${optimizer}`);
  });

  it.runIf(budgetKnown)("give TurboFan back once an input of 1 MB is read, and the rest at 4 MB", () => {
    const tunedAfter = (bytes: string) =>
      inNode(`tuning.tuneForShortRun(); tuning.beforeInput(${bytes}); process.stdout.write(tuning.tunedFlags().join(' ') || 'none');`);
    expect(tunedAfter("tuning.TURBOFAN_INPUT_BYTES - 1")).toBe(`--semi-space-growth-factor=1${optimizer}`);
    expect(tunedAfter("tuning.TURBOFAN_INPUT_BYTES")).toBe("--semi-space-growth-factor=1 --interrupt-budget=1081344");
    expect(tunedAfter("tuning.LARGE_INPUT_BYTES - 1")).toBe("--semi-space-growth-factor=1 --interrupt-budget=1081344");
  });

  it("are all given back once an input of 4 MB or more is read", () => {
    expect(
      inNode("tuning.tuneForShortRun(); tuning.beforeInput(tuning.LARGE_INPUT_BYTES); process.stdout.write(tuning.tunedFlags().join(' ') || 'none');"),
    ).toBe("none");
  });
});

describe("Node's own modules under the CLI's settings", () => {
  // V8 refuses the code cache Node embeds for its modules when any flag differs from
  // its default, and compiles each from source (a warm diff: 5 % more instructions).
  it("are loaded the first time with V8's defaults through the bundle's require, everything else as tuned", () => {
    const boot = JSON.stringify(join(root, "src/cli/boot.ts"));
    const seen = inNode(`
      const { bundleRequire } = await import(${boot});
      tuning.tuneForShortRun();
      const calls = [];
      const fake = (id) => { calls.push([id, tuning.atV8Defaults()]); return {}; };
      const kind = (id) => (id === "kubernetes-models/v1/Pod" ? () => "pod" : undefined);
      const hook = bundleRequire(fake, kind);
      for (const id of ["node:crypto", "node:crypto", "zlib", "yaml", "kubernetes-models/v1/Pod"]) hook(id);
      calls.push(["after", tuning.atV8Defaults()]);
      process.stdout.write(JSON.stringify(calls));`);
    expect(JSON.parse(seen)).toStrictEqual([
      ["node:crypto", true],
      ["node:crypto", false],
      ["zlib", true],
      ["yaml", false],
      ["after", false],
    ]);
  });
});

describe("Node's modules chartroom loads on first use", () => {
  it("load with V8's defaults, so through Node's code cache (test/fixtures/v8/flag-windows.cjs lists what loaded under tuned flags)", () => {
    const firstUse = JSON.stringify(join(root, "src/util/on-first-use.ts"));
    const preload = join(root, "test/fixtures/v8/flag-windows.cjs");
    const tuned = (script: string) =>
      JSON.parse(inNode(`const { onFirstUse } = await import(${firstUse}); tuning.tuneForShortRun(); ${script}`, ["-r", preload])) as string[];
    expect(tuned('onFirstUse("node:zlib")();')).not.toContain("zlib");
    // The meter itself: a module required plainly under tuned flags is listed.
    expect(tuned('(await import("node:module")).createRequire(import.meta.url)("node:zlib");')).toContain("zlib");
  });
});
