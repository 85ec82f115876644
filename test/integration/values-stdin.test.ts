// `-f -` reads values from standard input, as helm does: the same render as
// the same text in a file, within the same limits (size, UTF-8, a map), read
// once. In-process with a given stdin, then the compiled CLI with a pipe.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { helm } from "../helpers/helm.js";
import { copyPlatform } from "../helpers/platform.js";
import { compiledCli, runGroup } from "../helpers/process.js";

const VALUES = "replicaCount: 5\n";

async function render(dir: string, argv: string[], stdin?: Buffer, env: NodeJS.ProcessEnv = {}) {
  const asked: number[] = [];
  const readStdin =
    stdin === undefined
      ? undefined
      : async (maxBytes: number) => {
          asked.push(maxBytes);
          return stdin.subarray(0, maxBytes);
        };
  const result = await runCli(["render", "webapp", "--stack", "dev", ...argv], {
    cwd: dir,
    env: { ...process.env, CHARTROOM_CACHE: join(dir, ".cache"), HELM_BIN: await helm(4), ...env },
    colour: false,
    progress: () => {},
    ...(readStdin === undefined ? {} : { readStdin }),
  });
  return { ...result, asked };
}

describe("values on standard input (-f -)", () => {
  it("renders as the same text in a file does, above the platform's values", async () => {
    const dir = await copyPlatform();
    await writeFile(join(dir, "more.yaml"), VALUES);
    const [fromFile, fromStdin, without] = [await render(dir, ["-f", "more.yaml"]), await render(dir, ["-f", "-"], Buffer.from(VALUES)), await render(dir, [])];
    expect([fromStdin.exitCode, fromStdin.errors]).toStrictEqual([0, ""]);
    expect(fromStdin.output).toBe(fromFile.output);
    expect(fromStdin.output).toContain("replicas: 5");
    expect(without.output).not.toContain("replicas: 5");
  }, 120_000);

  it("is read once: `-f -` twice is a usage error", async () => {
    const result = await render(await copyPlatform(), ["-f", "-", "-f", "-"], Buffer.from(VALUES));
    expect([result.exitCode, result.errors.split("\n")[0]]).toStrictEqual([
      1,
      "error USAGE: --values - is given more than once: standard input can be read once",
    ]);
    expect(result.asked).toStrictEqual([]);
  });

  it("says so where there is no standard input to read", async () => {
    const result = await render(await copyPlatform(), ["-f", "-"]);
    expect([result.exitCode, result.errors.split("\n")[0]]).toStrictEqual([1, "error USAGE: --values - reads standard input, and there is none here"]);
  });

  it("holds stdin to the file limit, reading one byte past it and no more", async () => {
    // Half a MiB: above every file of the platform (its lock is the largest, ≈20 KB).
    const limit = 512 * 1024;
    const result = await render(await copyPlatform(), ["-f", "-"], Buffer.from(`a: ${"x".repeat(limit)}\n`), { CHARTROOM_MAX_FILE_BYTES: String(limit) });
    expect(result.exitCode).toBe(1);
    expect(result.errors).toMatch(/^error INPUT_TOO_LARGE: the values given on standard input \(--values -\) are over the 0\.5 MiB chartroom reads/);
    expect(result.asked).toStrictEqual([limit + 1]);
  });

  it.each([
    ["not UTF-8", Buffer.from([0x61, 0x3a, 0x20, 0xff, 0x0a]), /^error FILE_NOT_UTF8: \(stdin\) is not UTF-8 \(an invalid byte on line 1\)/],
    ["not a map", Buffer.from("- a\n- b\n"), /^error VALUES_FILE_INVALID: \(stdin\) must hold a map of values\n {2}where: \(stdin\)\n/],
  ])("names (stdin) when what it holds is %s", async (_, bytes, said) => {
    const result = await render(await copyPlatform(), ["-f", "-"], bytes);
    expect(result.exitCode).toBe(1);
    expect(result.errors).toMatch(said);
    expect(result.errors).not.toMatch(/\n\s+at /);
  });

  it("reads a pipe in the compiled CLI", async () => {
    const dir = await copyPlatform();
    const result = await runGroup(process.execPath, [compiledCli(), "render", "webapp", "--stack", "dev", "-f", "-"], {
      cwd: dir,
      env: { CHARTROOM_CACHE: join(dir, ".cache"), HELM_BIN: await helm(4), NO_COLOR: "1" },
      input: VALUES,
      timeoutMs: 120_000,
    });
    expect([result.code, result.stderr]).toStrictEqual([0, ""]);
    expect(result.stdout).toContain("replicas: 5");
  }, 150_000);
});
