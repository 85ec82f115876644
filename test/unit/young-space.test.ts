import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// V8's settings are the process's: each case runs in a node of its own, which
// makes garbage the way a render's parse does and reports by how much V8 let
// its young generation grow (both semi-spaces) from where it was when the
// steps began (loading tsx has grown it a little already).
const root = join(import.meta.dirname, "..", "..");
// A semi-space setting in the developer's NODE_OPTIONS would turn the CLI's request off: each case says its own.
const cleanEnv = { ...process.env, NODE_OPTIONS: "" };

/** The young generation's size after `steps`, over its size before. */
function youngSpaceGrowth(steps: string): number {
  const script = `
    import { getHeapSpaceStatistics } from "node:v8";
    const youngSpace = await import(${JSON.stringify(join(root, "src/util/young-space.ts"))});
    const garbage = () => { let keep = []; for (let i = 0; i < 400000; i++) { keep.push({ i, s: "x" + i }); if (keep.length > 20000) keep = []; } };
    const size = () => getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size;
    const before = size();
    ${steps}
    process.stdout.write(String(size() / before));
  `;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    env: cleanEnv,
  });
  return Number(out);
}

describe("the young generation", () => {
  it("grows as V8 lets it when nobody asks (the library never does)", () => {
    expect(youngSpaceGrowth("garbage();")).toBeGreaterThanOrEqual(4);
  });

  it("stays at its first size once the CLI asks, through inputs under 4 MB", () => {
    expect(youngSpaceGrowth("youngSpace.keepYoungSpaceSmall(); youngSpace.beforeInput(youngSpace.LARGE_INPUT_BYTES - 1); garbage();")).toBe(1);
  });

  it("grows again once an input of 4 MB or more is read", () => {
    expect(
      youngSpaceGrowth("youngSpace.keepYoungSpaceSmall(); garbage(); youngSpace.beforeInput(youngSpace.LARGE_INPUT_BYTES); garbage();"),
    ).toBeGreaterThanOrEqual(4);
  });

  /** Whether the CLI's request took effect in a node started with `args` and `env`. */
  function keptSmall(args: string[], env: NodeJS.ProcessEnv = {}): string {
    const script = `import("${join(root, "src/util/young-space.ts")}").then((m) => { m.keepYoungSpaceSmall(); process.stdout.write(String(m.youngSpaceKeptSmall())); });`;
    return execFileSync(process.execPath, [...args, "--import", "tsx", "-e", script], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...cleanEnv, ...env },
    });
  }

  it("is taken when node was started without a semi-space setting", () => {
    expect(keptSmall([])).toBe("true");
  });

  it("is left alone when node was started with a semi-space setting of the user's", () => {
    expect(keptSmall(["--max-semi-space-size=8"])).toBe("false");
    expect(keptSmall(["--semi_space_growth_factor=4"])).toBe("false");
  });

  it("is left alone when the user's semi-space setting comes through NODE_OPTIONS (not in process.execArgv)", () => {
    expect(keptSmall([], { NODE_OPTIONS: "--max-semi-space-size=8" })).toBe("false");
  });
});
