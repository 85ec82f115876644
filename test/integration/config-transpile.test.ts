// Its own file (its own worker): nothing transpiled yet when the config
// below is loaded, as on a CLI run whose transpile cache is cold.
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { tempDir } from "../helpers/tmp.js";

describe("a config the transpiler has not seen before", () => {
  it("is reused in the same process: what the transpiler reads as it loads is not the config's doing", async () => {
    const counter = globalThis as { chartroomFreshLoads?: number };
    const dirs = [await tempDir(), await tempDir()];
    // A text no earlier run transpiled: jiti's file cache misses and the transpiler runs inside the first load.
    const text = `import { defineConfig } from "chartroom";
// ${randomUUID()}
const g = globalThis as { chartroomFreshLoads?: number };
g.chartroomFreshLoads = (g.chartroomFreshLoads ?? 0) + 1;
export default defineConfig({ repositories: { local: "file://./charts" }, charts: { webapp: { repository: "local", version: "~1.0.0", namespace: "web" } } });
`;
    for (const dir of dirs) await writeFile(join(dir, "chartroom.config.ts"), text);
    for (const dir of dirs) expect((await loadConfig({ cwd: dir })).charts[0]?.namespace).toBe("web");
    expect(counter.chartroomFreshLoads).toBe(1);
  });
});
