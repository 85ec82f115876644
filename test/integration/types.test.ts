import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { generateTypes } from "../../src/codegen/types.js";
import { countingListener } from "../helpers/listener.js";
import { cli, copyPlatform, ROOT } from "../helpers/platform.js";
import { tempDir } from "../helpers/tmp.js";

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

/** A schema written to get code into chartroom.types.ts, and to make `types` fetch and read files. */
function hostileSchema(origin: string): Record<string, unknown> {
  return {
    type: "object",
    description: "*/ console.log('INJECTED'); process.exit(7); /*",
    properties: {
      a: { type: "string", tsType: "string; console.log('INJECTED'); process.exit(7); type X = string" },
      "b*/ console.log('INJECTED') /*": { type: "number", description: "end */ console.log('INJECTED'); /*" },
      "c\"; console.log('INJECTED'); \"": { type: "string" },
      d: { enum: ["x'; console.log('INJECTED'); '", 'y"; } console.log("INJECTED"); {'], default: "*/ console.log('INJECTED') /*" },
      e: { const: "*/ console.log('INJECTED') /*", examples: ["*/ console.log('INJECTED') /*"] },
      f: { type: "object", tsEnumNames: ["}; console.log('INJECTED'); enum Q {"], enum: [1] },
      "g\n}\nconsole.log('INJECTED')\n": { type: "string" },
      h: { $ref: `${origin}/schema.json` },
      i: { $ref: "file:///etc/hostname" },
      j: { type: "array", items: { tsType: "never; console.log('INJECTED')" }, minItems: 100000 },
      k: { deprecated: true, description: "@deprecated */ console.log('INJECTED') /*", $id: "*/ console.log('INJECTED') /*" },
      l: { enum: Array.from({ length: 300_000 }, (_, i) => `v${i}`) },
    },
  };
}

describe("chartroom types", () => {
  it("turns a hostile schema into types only: no request made, tsc passes, no JavaScript emitted", async () => {
    const listener = await countingListener("127.0.0.1");
    try {
      const dir = await tempDir();
      const text = await generateTypes([
        { key: "hostile", version: "1.0.0", contract: { defaults: {}, schema: hostileSchema(listener.origin), subcharts: [] } },
      ]);
      await writeFile(join(dir, "chartroom.types.ts"), text);
      const checked = await typecheck(dir, `import { chartValues } from "chartroom";\nchartValues("hostile", { a: "x", l: "v1" });\n`);
      expect(checked.output).toBe("");
      const emitted = ts.transpileModule(text, {
        compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, removeComments: true },
      }).outputText;
      expect(emitted).toBe("export {};\n");
      expect(listener.connections()).toBe(0);
      // Names and literals stay, quoted: the types still describe the values.
      expect(text).toContain(`"c\\"; console.log('INJECTED'); \\""?: string;`);
      expect(text).not.toContain("tsType");
    } finally {
      await listener.close();
    }
  });

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
