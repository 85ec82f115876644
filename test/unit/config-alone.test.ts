// Configs and policy rules that import nothing but "chartroom" and Node's
// built-ins run without jiti (src/config/alone.ts); anything else goes to jiti.
import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluateAlone } from "../../src/config/alone.js";
import { loadConfig } from "../../src/config/load.js";
import { transpiled } from "../../src/config/transpiled.js";
import { observed } from "../../src/util/observe.js";
import { tempDir } from "../helpers/tmp.js";

const provided = { chartroom: { __esModule: true, defineConfig: (config: unknown) => config } };

async function moduleFile(text: string, name = "chartroom.config.ts"): Promise<string> {
  const file = join(await tempDir(), name);
  await writeFile(file, text);
  return file;
}

/** Whether jiti's transpile cache holds a file containing `marker`: jiti loaded the module. */
async function jitiTranspiled(marker: string): Promise<boolean> {
  const folder = join(tmpdir(), "jiti");
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    if ((await readFile(join(folder, name), "utf8").catch(() => "")).includes(marker)) return true;
  }
  return false;
}

const CONFIG = `export default defineConfig({ repositories: { local: "file://./charts" }, charts: { webapp: { repository: "local", version: "~1.0.0", namespace: "web" } } });\n`;

describe("a module run alone", () => {
  it("runs TypeScript that imports chartroom and Node's built-ins, with its own file and folder", async () => {
    const file = await moduleFile(
      `import { defineConfig } from "chartroom";\nimport { basename } from "node:path";\nimport * as os from "os";\nconst where: string = basename(__dirname) + "|" + basename(__filename) + "|" + typeof os.tmpdir;\nexport const seen = where;\nexport default defineConfig({ name: "x" });\n`,
    );
    const module = evaluateAlone(file, provided) as { exports: { default: unknown; seen: string } };
    expect(module.exports.default).toEqual({ name: "x" });
    expect(module.exports.seen).toMatch(/\|chartroom\.config\.ts\|function$/);
  });

  it('gives `import x from "chartroom"` what an ES module without a default gives: undefined', async () => {
    const file = await moduleFile(`import chartroom from "chartroom";\nexport default { had: chartroom };\n`);
    const module = evaluateAlone(file, provided) as { exports: { default: { had: unknown } } };
    expect(module.exports.default.had).toBeUndefined();
  });

  it("runs CommonJS written as such", async () => {
    const file = await moduleFile(`const { defineConfig } = require("chartroom");\nmodule.exports = defineConfig({ n: 1 });\n`, "chartroom.config.js");
    expect(evaluateAlone(file, provided)?.exports).toEqual({ n: 1 });
  });

  it.each([
    ["another file of the project", `import { x } from "./lib";\nexport default x;\n`],
    ["a package", `import { parse } from "yaml";\nexport default parse("a: 1");\n`],
    ["import.meta", `export default { url: import.meta.url };\n`],
    ["a dynamic import of a file of its own", `export default { later: () => import("./lib") };\n`],
    ["top-level await", `const v = await Promise.resolve(1);\nexport default { v };\n`],
    ["require built from a value", `const name = "node:path";\nexport default require(name);\n`],
    ["the word require in a string", `export default { note: "require('x')" };\n`],
    ["text sucrase cannot read", `export default { a: ;\n`],
  ])("leaves a module that uses %s to jiti", async (_, text) => {
    expect(evaluateAlone(await moduleFile(text), provided)).toBeUndefined();
  });

  it("throws what the module throws as it runs, as it is", async () => {
    const file = await moduleFile(`throw new RangeError("no region given");\n`);
    expect(() => evaluateAlone(file, provided)).toThrow(RangeError);
  });
});

describe("loading a config", () => {
  it("runs a config that imports only chartroom without jiti, and one that imports a file of its own through it", async () => {
    const alone = randomUUID();
    const dir = await tempDir();
    await writeFile(join(dir, "chartroom.config.ts"), `import { defineConfig } from "chartroom";\n// ${alone}\n${CONFIG}`);
    expect((await loadConfig({ cwd: dir })).charts[0]?.namespace).toBe("web");
    expect(await jitiTranspiled(alone)).toBe(false);

    const other = randomUUID();
    const withLib = await tempDir();
    await writeFile(join(withLib, "lib.ts"), "export const namespace = 'shop';\n");
    await writeFile(
      join(withLib, "chartroom.config.ts"),
      `import { defineConfig } from "chartroom";\nimport { namespace } from "./lib";\n// ${other}\n${CONFIG.replace('namespace: "web"', "namespace")}`,
    );
    expect((await loadConfig({ cwd: withLib })).charts[0]?.namespace).toBe("shop");
    expect(await jitiTranspiled(other)).toBe(true);
  });

  it("still sees what a config run alone reads: another value of a variable loads it again", async () => {
    const counter = globalThis as { chartroomAloneLoads?: number };
    const dir = await tempDir();
    await writeFile(
      join(dir, "chartroom.config.ts"),
      `import { defineConfig } from "chartroom";\nconst g = globalThis as { chartroomAloneLoads?: number };\ng.chartroomAloneLoads = (g.chartroomAloneLoads ?? 0) + 1;\nvoid process.env.CHARTROOM_TEST_ALONE;\n${CONFIG}`,
    );
    process.env.CHARTROOM_TEST_ALONE = "eu";
    await loadConfig({ cwd: dir });
    await loadConfig({ cwd: dir });
    process.env.CHARTROOM_TEST_ALONE = "us";
    await loadConfig({ cwd: dir });
    delete process.env.CHARTROOM_TEST_ALONE;
    expect(counter.chartroomAloneLoads).toBe(2);
  });
});

describe("sucrase's code kept in the cache folder", () => {
  const SOURCE = 'import { defineConfig } from "chartroom";\nconst name: string = "kept";\nexport default defineConfig({ name });\n';

  it("is written owner-only at the first run and read, not made, at the next; another source or path is another file", async () => {
    const cache = await tempDir();
    const file = await moduleFile(SOURCE);
    const code = transpiled(SOURCE, file, cache);
    expect(code).toContain('"kept"');
    expect(code).not.toContain(": string");
    const folder = join(cache, "config-code");
    const [kept, ...more] = await readdir(folder);
    expect(more).toStrictEqual([]);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await stat(join(folder, kept as string))).mode & 0o777).toBe(0o600);
    // What the file holds is what the next run takes.
    await writeFile(join(folder, kept as string), `${code}\n// read from the cache\n`);
    expect(transpiled(SOURCE, file, cache)).toContain("// read from the cache");
    expect(transpiled(SOURCE.replace("kept", "other"), file, cache)).toContain('"other"');
    expect(transpiled(SOURCE, `${file}.other.ts`, cache)).not.toContain("// read from the cache");
    expect(await readdir(folder)).toHaveLength(3);
    // Without a cache folder: made every time, kept nowhere.
    expect(transpiled(SOURCE, file)).toBe(code);
  });

  it("is not kept before the cache folder exists: a run that fails at its config leaves no folder behind", async () => {
    const cache = join(await tempDir(), "cache");
    const file = await moduleFile(SOURCE);
    expect(transpiled(SOURCE, file, cache)).toContain('"kept"');
    await expect(readdir(cache)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("costs a run nothing where it cannot be written (a file stands where its folder would)", async () => {
    const cache = await tempDir();
    await mkdir(cache, { recursive: true });
    await writeFile(join(cache, "config-code"), "not a folder");
    const file = await moduleFile(SOURCE);
    expect(evaluateAlone(file, provided, cache)?.exports).toMatchObject({ default: { name: "kept" } });
    expect(await readFile(join(cache, "config-code"), "utf8")).toBe("not a folder");
    // Written but not put in place (a folder stands at its name): no temporary file is left.
    const other = await tempDir();
    transpiled(SOURCE, file, other);
    const [name] = await readdir(join(other, "config-code"));
    const blocked = await tempDir();
    await mkdir(join(blocked, "config-code", name as string), { recursive: true });
    expect(evaluateAlone(file, provided, blocked)?.exports).toMatchObject({ default: { name: "kept" } });
    expect(await readdir(join(blocked, "config-code"))).toStrictEqual([name]);
  });

  it("is no input of the config: an observed load names the config's own file only, read from the cache or not", async () => {
    const cache = await tempDir();
    const file = await moduleFile(SOURCE);
    for (let run = 0; run < 2; run++) {
      const { inputs } = await observed(join(file, ".."), () => evaluateAlone(file, provided, cache));
      expect([Object.keys(inputs.files), Object.keys(inputs.probes)]).toStrictEqual([["chartroom.config.ts"], []]);
    }
    expect(await readdir(join(cache, "config-code"))).toHaveLength(1);
  });
});
