// What modules a Node process loaded, for tests of what a run needs to start.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { helm } from "./helm.js";
import { ROOT } from "./platform.js";
import { type ProcessOutcome, runGroup } from "./process.js";

export interface LoadedModules extends ProcessOutcome {
  /** Node's own modules, as process.moduleLoadList names them (`zlib`, `internal/modules/esm/module_job`). */
  builtins: string[];
  /** Every request a require answered (a failed one is not), in order. */
  required: string[];
}

/**
 * `node <args>` in the repository with chartroom's cache in `dir` and the
 * pinned Helm 4, and the modules it loaded, written by a preload as it exits.
 */
export async function modulesLoaded(dir: string, args: string[]): Promise<LoadedModules> {
  const preload = join(dir, "modules.cjs");
  const list = join(dir, "modules.json");
  await writeFile(
    preload,
    [
      'const M = require("node:module"); const load = M._load; const required = [];',
      "M._load = function (request) { const loaded = load.apply(this, arguments); required.push(request); return loaded; };",
      'process.on("exit", () => {',
      '  const builtins = process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice(13));',
      `  require("node:fs").writeFileSync(${JSON.stringify(list)}, JSON.stringify({ builtins, required }));`,
      "});",
      "",
    ].join("\n"),
  );
  const outcome = await runGroup(process.execPath, ["-r", preload, ...args], {
    cwd: ROOT,
    env: { CHARTROOM_CACHE: join(dir, ".cache"), HELM_BIN: await helm(4), NO_COLOR: "1" },
    timeoutMs: 120_000,
  });
  return { ...outcome, ...(JSON.parse(await readFile(list, "utf8")) as { builtins: string[]; required: string[] }) };
}
