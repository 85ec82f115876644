import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import * as fs from "node:fs";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { observed, persistable, persistedHold, stillHolds, unobserved } from "../../src/util/observe.js";

const dirs: string[] = [];
async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "chartroom-observe-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("observing what user code reads", () => {
  it("records the files read (relative to the code's folder), sync, async and through named imports, and what was absent", async () => {
    const dir = await folder({ "lib/a.ts": "a", "b.txt": "b", "c.txt": "c" });
    const { inputs } = await observed(dir, async () => {
      fs.readFileSync(join(dir, "lib/a.ts"));
      readFileSync(join(dir, "b.txt"), "utf8");
      await readFile(join(dir, "b.txt"));
      expect(() => fs.readFileSync(join(dir, "missing.ts"))).toThrow();
      fs.existsSync(join(dir, "lib/index.ts"));
      fs.closeSync(fs.openSync(join(dir, "c.txt"), "r"));
      fs.closeSync(fs.openSync(join(dir, "written.txt"), "w"));
    });
    expect(Object.keys(inputs.files).sort()).toStrictEqual(["b.txt", "c.txt", "lib/a.ts", "missing.ts"]);
    expect(inputs.files["missing.ts"]).toBe("absent");
    expect(inputs.probes).toStrictEqual({ "lib/index.ts": "absent" });
    expect(inputs.volatile).toBe(false);
  });

  it("holds while the files read the same, in this folder or another with the same files; not once one changes", async () => {
    const dir = await folder({ "lib/a.ts": "a" });
    const copy = await folder({ "lib/a.ts": "a" });
    const other = await folder({ "lib/a.ts": "changed" });
    const { inputs } = await observed(dir, () => fs.readFileSync(join(dir, "lib/a.ts")));
    expect(stillHolds(inputs, dir, process.env)).toBe(true);
    expect(stillHolds(inputs, copy, process.env)).toBe(true);
    expect(stillHolds(inputs, other, process.env)).toBe(false);
    await writeFile(join(dir, "lib/index.ts"), "new");
    const probed = await observed(dir, () => fs.existsSync(join(dir, "lib/other.ts")));
    await writeFile(join(dir, "lib/other.ts"), "appeared");
    expect(stillHolds(probed.inputs, dir, process.env)).toBe(false);
  });

  it("records the environment variables read, set or not, and keeps only keyed digests of their values in a record", async () => {
    process.env.CHARTROOM_OBSERVE_PROBE = "registry-password-123";
    try {
      const { inputs } = await observed("/", () => [process.env.CHARTROOM_OBSERVE_PROBE, process.env.CHARTROOM_OBSERVE_UNSET, "HOME" in process.env]);
      expect(inputs.env).toMatchObject({ CHARTROOM_OBSERVE_PROBE: "registry-password-123", CHARTROOM_OBSERVE_UNSET: undefined });
      const digest = (value: string) => `d(${value.length})`;
      const kept = persistable(inputs, digest);
      expect(JSON.stringify(kept)).not.toContain("registry-password-123");
      expect(persistedHold(kept, "/", process.env, digest)).toBe(true);
      expect(persistedHold(kept, "/", { ...process.env, CHARTROOM_OBSERVE_UNSET: "now set" }, digest)).toBe(false);
      expect(stillHolds(inputs, "/", { ...process.env, CHARTROOM_OBSERVE_PROBE: "other" })).toBe(false);
    } finally {
      delete process.env.CHARTROOM_OBSERVE_PROBE;
    }
  });

  it("marks code that reads the clock, asks for randomness or lists the whole environment as never reusable", async () => {
    const works: (() => unknown)[] = [() => Date.now(), () => new Date(), () => Date(), () => Math.random(), () => Object.keys(process.env)];
    for (const work of works) {
      const { inputs } = await observed("/", work);
      expect(inputs.volatile).toBe(true);
      expect(stillHolds(inputs, "/", process.env)).toBe(false);
    }
    expect((await observed("/", () => new Date(0).toISOString())).inputs.volatile).toBe(false);
  });

  it("records nothing of what runs through unobserved inside an observation, and what follows it as before", async () => {
    const dir = await folder({ "a.txt": "a", "b.txt": "b" });
    const { value, inputs } = await observed(dir, () => {
      const own = unobserved(() => {
        void process.env.CHARTROOM_LOADER_OWN;
        void Object.keys(process.env);
        return fs.readFileSync(join(dir, "a.txt"), "utf8");
      });
      fs.readFileSync(join(dir, "b.txt"));
      return own;
    });
    expect(value).toBe("a");
    expect(inputs).toStrictEqual({ files: { "b.txt": expect.any(String) }, probes: {}, env: {}, volatile: false });
  });

  it("observes again, through every await, once every earlier observation has ended (its async context is off in between)", async () => {
    const dir = await folder({ "a.txt": "a", "b.txt": "b" });
    const first = await observed(dir, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return readFileSync(join(dir, "a.txt"), "utf8");
    });
    // Between observations nothing is recorded anywhere, and a read has nobody to report to.
    readFileSync(join(dir, "b.txt"));
    const second = await observed(dir, async () => {
      await Promise.resolve();
      await new Promise((resolve) => setTimeout(resolve, 1));
      await readFile(join(dir, "b.txt"));
      return readFileSync(join(dir, "a.txt"), "utf8");
    });
    expect(Object.keys(first.inputs.files)).toStrictEqual(["a.txt"]);
    expect(Object.keys(second.inputs.files).sort()).toStrictEqual(["a.txt", "b.txt"]);
  });

  it("counts the reads of the observed work only (not what runs beside it), nested observations in both, and puts everything back", async () => {
    const original = { readFileSync: fs.readFileSync, env: process.env, date: Date, random: Math.random };
    const dir = await folder({ "a.txt": "a", "b.txt": "b", "c.txt": "c" });
    let release = () => {};
    const outer = observed(dir, async () => {
      await new Promise<void>((resolve) => (release = resolve));
      fs.readFileSync(join(dir, "a.txt"));
      return observed(dir, () => fs.readFileSync(join(dir, "c.txt")));
    });
    // Beside it, not inside it: another observation's read, and an unobserved one.
    const beside = await observed(dir, () => fs.readFileSync(join(dir, "b.txt")));
    fs.readFileSync(join(dir, "b.txt"));
    void process.env.CHARTROOM_NOT_OBSERVED;
    release();
    const { value: inner, inputs } = await outer;
    expect(Object.keys(beside.inputs.files)).toStrictEqual(["b.txt"]);
    expect(Object.keys(inputs.files).sort()).toStrictEqual(["a.txt", "c.txt"]);
    expect(inputs.env).toStrictEqual({});
    expect(Object.keys(inner.inputs.files)).toStrictEqual(["c.txt"]);
    expect(fs.readFileSync).toBe(original.readFileSync);
    expect(readFileSync).toBe(original.readFileSync);
    expect(process.env).toBe(original.env);
    expect(Date).toBe(original.date);
    expect(Math.random).toBe(original.random);
  });
});
