// A config loaded twice in one process (diff --base loads the base and the
// working tree's) is reused only while what it read as it loaded still holds.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { tempDir } from "../helpers/tmp.js";

interface Counter {
  chartroomLoads?: Record<string, number>;
}
const counter = globalThis as Counter;

/** A platform whose config counts its own evaluations under `tag`, imports ./lib/namespace.ts, and runs `extra`. */
async function platform(tag: string, namespace: string, extra = ""): Promise<string> {
  const dir = await tempDir();
  await mkdir(join(dir, "lib"));
  await writeFile(join(dir, "lib", "namespace.ts"), `export const namespace = ${JSON.stringify(namespace)};\n`);
  await writeFile(
    join(dir, "chartroom.config.ts"),
    `import { defineConfig } from "chartroom";
import { namespace } from "./lib/namespace";
const g = globalThis as { chartroomLoads?: Record<string, number> };
g.chartroomLoads = { ...g.chartroomLoads, ${JSON.stringify(tag)}: (g.chartroomLoads?.[${JSON.stringify(tag)}] ?? 0) + 1 };
${extra}
export default defineConfig({ repositories: { local: "file://./charts" }, charts: { webapp: { repository: "local", version: "~1.0.0", namespace } } });
`,
  );
  return dir;
}

const loads = (tag: string) => counter.chartroomLoads?.[tag] ?? 0;

describe("loading the same config twice", () => {
  it("reuses it when the files it imported read the same, in another checkout too", async () => {
    const [a, b] = [await platform("same", "web"), await platform("same", "web")];
    expect((await loadConfig({ cwd: a })).charts[0]?.namespace).toBe("web");
    expect((await loadConfig({ cwd: b })).charts[0]?.namespace).toBe("web");
    expect(loads("same")).toBe(1);
  });

  it("loads it again when a file it imports differs (the base checkout's lib/ is not the working tree's)", async () => {
    const [a, b] = [await platform("imports", "web"), await platform("imports", "shop")];
    expect((await loadConfig({ cwd: a })).charts[0]?.namespace).toBe("web");
    expect((await loadConfig({ cwd: b })).charts[0]?.namespace).toBe("shop");
    expect(loads("imports")).toBe(2);
  });

  it("loads it again when a variable it read changed, and every time when it reads the clock", async () => {
    const reads = await platform("env", "web", "void process.env.CHARTROOM_TEST_REGION;");
    process.env.CHARTROOM_TEST_REGION = "eu";
    await loadConfig({ cwd: reads });
    await loadConfig({ cwd: reads });
    process.env.CHARTROOM_TEST_REGION = "us";
    await loadConfig({ cwd: reads });
    delete process.env.CHARTROOM_TEST_REGION;
    expect(loads("env")).toBe(2);
    const clock = await platform("clock", "web", "void Date.now();");
    await loadConfig({ cwd: clock });
    await loadConfig({ cwd: clock });
    expect(loads("clock")).toBe(2);
  });
});
