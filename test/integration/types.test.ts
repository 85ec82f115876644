import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { cli, copyPlatform, ROOT } from "../helpers/platform.js";

const run = promisify(execFile);

/** tsc --noEmit over the generated types and one program, resolving "chartroom" to this checkout. */
async function typecheck(dir: string, program: string): Promise<{ ok: boolean; output: string }> {
  await writeFile(join(dir, "program.ts"), program);
  const config = {
    compilerOptions: {
      strict: true,
      module: "NodeNext",
      moduleResolution: "NodeNext",
      target: "ES2022",
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      typeRoots: [join(ROOT, "node_modules", "@types")],
      paths: { chartroom: [join(ROOT, "src", "index.ts")] },
    },
    files: ["chartroom.types.ts", "program.ts"],
  };
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify(config));
  try {
    const { stdout } = await run(join(ROOT, "node_modules", ".bin", "tsc"), ["-p", join(dir, "tsconfig.json")]);
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}

describe("chartroom types", () => {
  it("writes types that tsc uses to check values given in code", async () => {
    const dir = await copyPlatform();
    await rm(join(dir, "chartroom.types.ts"));
    const result = await cli(dir, ["types"]);
    expect(result.output).toBe("wrote chartroom.types.ts (4 charts)");
    const right = await typecheck(
      dir,
      `import { chartValues } from "chartroom";\nchartValues("webapp", { replicaCount: 3, service: { type: "NodePort" }, podAnnotations: { "a.example.test/b": "c" } });\nchartValues("ledger", { migrations: { enabled: false } });\n`,
    );
    expect(right.output).toBe("");
    expect(right.ok).toBe(true);
    const wrongType = await typecheck(dir, `import { chartValues } from "chartroom";\nchartValues("webapp", { replicaCount: "three" });\n`);
    expect(wrongType.ok).toBe(false);
    expect(wrongType.output).toContain("program.ts(2,");
    expect(wrongType.output).toContain("Type 'string' is not assignable to type 'number'");
    const wrongEnum = await typecheck(dir, `import { chartValues } from "chartroom";\nchartValues("webapp", { config: { logLevel: "verbose" } });\n`);
    // Compilers print the union in different orders: check the refused literal and each allowed one.
    const enumError = /Type '"verbose"' is not assignable to type '([^']+)'/.exec(wrongEnum.output)?.[1] ?? "";
    for (const level of ['"debug"', '"info"', '"warn"', '"error"']) expect(enumError).toContain(level);
    const typo = await typecheck(dir, `import { chartValues } from "chartroom";\nchartValues("webapp", { replicaCuont: 3 });\n`);
    expect(typo.output).toContain("'replicaCuont' does not exist");
    const unknownChart = await typecheck(dir, `import { chartValues } from "chartroom";\nchartValues("nosuchchart", {});\n`);
    expect(unknownChart.ok).toBe(false);
    expect(unknownChart.output).toContain(`Argument of type '"nosuchchart"' is not assignable`);
  });

  it("is deterministic, and --check fails on a stale file", async () => {
    const dir = await copyPlatform();
    await cli(dir, ["types"]);
    const first = await readFile(join(dir, "chartroom.types.ts"), "utf8");
    expect((await cli(dir, ["types"])).output).toBe("unchanged chartroom.types.ts (4 charts)");
    expect(await readFile(join(dir, "chartroom.types.ts"), "utf8")).toBe(first);
    expect((await cli(dir, ["types", "--check"])).exitCode).toBe(0);
    await writeFile(join(dir, "chartroom.types.ts"), first.replace("replicaCount?: number", "replicaCount?: string"));
    const stale = await cli(dir, ["types", "--check"]);
    expect(stale.exitCode).toBe(1);
    expect(stale.output).toContain("chartroom.types.ts is stale: run `chartroom types`");
  });

  it("matches the committed chartroom.types.ts of the example platform", async () => {
    const dir = await copyPlatform();
    await cli(dir, ["types"]);
    expect(await readFile(join(dir, "chartroom.types.ts"), "utf8")).toBe(await readFile(join(ROOT, "chartroom.types.ts"), "utf8"));
  });
});
