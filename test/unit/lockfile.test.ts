import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { ChartroomError } from "../../src/errors/index.js";
import { parseLock, readLock } from "../../src/lockfile/read.js";
import { type Lockfile, lockfileSchema } from "../../src/lockfile/schema.js";
import { serialiseLock } from "../../src/lockfile/write.js";
import { tempDir } from "../helpers/tmp.js";

const entry = {
  version: "1.0.0",
  repository: "file://./charts",
  chart: "app",
  range: "^1",
  digest: "sha256:ab",
  url: "app-1.0.0.tgz",
  chartApiVersion: "v2" as const,
  schema: null,
  crds: [],
  dependencies: [],
  hooks: {},
  engine: { name: "chart" as const, reasons: ["x"] },
};

function failure(text: string): ChartroomError {
  try {
    parseLock(text, "/p/charts.lock.json");
  } catch (error) {
    if (ChartroomError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the lock to be refused");
}

describe("serialiseLock", () => {
  it("sorts keys at every level, indents by two spaces and ends with a newline", () => {
    const lock: Lockfile = { lockfileVersion: "1.0", charts: { zeta: entry, alpha: { ...entry, chart: "alpha" } } };
    const text = serialiseLock(lock);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.indexOf('"alpha"')).toBeLessThan(text.indexOf('"zeta"'));
    expect(text.indexOf('"chart"')).toBeLessThan(text.indexOf('"version"'));
    expect(text).toContain('\n  "charts": {\n    "alpha": {\n      "chart": "alpha",');
  });

  it("gives the same bytes whatever order the keys were inserted in", () => {
    const a: Lockfile = { lockfileVersion: "1.0", charts: { x: entry, y: entry } };
    const b: Lockfile = { charts: { y: { ...entry }, x: { ...entry } }, lockfileVersion: "1.0" };
    expect(serialiseLock(a)).toBe(serialiseLock(b));
  });

  it("round-trips through parseLock", () => {
    const lock: Lockfile = { lockfileVersion: "1.0", charts: { app: entry } };
    expect(parseLock(serialiseLock(lock), "x")).toStrictEqual(JSON.parse(serialiseLock(lock)));
  });
});

describe("reading a lock", () => {
  it("returns null when there is none", async () => {
    expect(await readLock(join(await tempDir(), "charts.lock.json"))).toBeNull();
  });

  it("names the file, line and column of broken JSON", () => {
    const error = failure('{\n  "lockfileVersion": "1.0",\n  "charts": {,}\n}\n');
    expect(error.code).toBe("LOCK_INVALID");
    expect(error.place).toMatchObject({ file: "/p/charts.lock.json", line: 3 });
    expect(error.hint).toContain("chartroom lock");
  });

  it("refuses a lock from a newer major with an upgrade hint", () => {
    const error = failure(JSON.stringify({ lockfileVersion: "2.1", charts: {} }));
    expect(error.code).toBe("LOCK_TOO_NEW");
    expect(error.message).toContain("2.1");
    expect(error.hint).toContain("upgrade chartroom");
  });

  it("accepts a newer minor of the same major", () => {
    expect(parseLock(JSON.stringify({ lockfileVersion: "1.7", charts: {} }), "x").charts).toStrictEqual({});
  });

  it("names the first malformed field", () => {
    const error = failure(JSON.stringify({ lockfileVersion: "1.0", charts: { app: { ...entry, digest: 5 } } }));
    expect(error.code).toBe("LOCK_INVALID");
    expect(error.place.key).toBe("charts.app.digest");
    // zod's own words, in English (zod/mini has none until util/zod.ts sets them).
    expect(error.message).toBe("/p/charts.lock.json is malformed: charts.app.digest: Invalid input: expected string, received number");
  });

  it.each([
    ["a chart named __proto__", (lock: string) => lock.replace('"charts": {', '"charts": {"__proto__": {"x": 1},')],
    ["__proto__ inside an entry", (lock: string) => lock.replace('"chart": "app"', '"__proto__": {"polluted": true}, "chart": "app"')],
    ["a constructor key", (lock: string) => lock.replace('"charts": {', '"constructor": {"prototype": {}}, "charts": {')],
    ["__proto__ written with escapes", (lock: string) => lock.replace('"chart": "app"', '"\\u005f_pro\\u0074o__": {"polluted": true}, "chart": "app"')],
    ["constructor written with an escape", (lock: string) => lock.replace('"charts": {', '"con\\u0073tructor": {}, "charts": {')],
  ])("refuses %s as LOCK_INVALID, polluting nothing", (_, edit) => {
    const text = edit(serialiseLock({ lockfileVersion: "1.0", charts: { app: entry } } as Lockfile));
    const error = failure(text);
    expect(error.code).toBe("LOCK_INVALID");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reads a lock whose values (not keys) say constructor or prototype", () => {
    const text = serialiseLock({ lockfileVersion: "1.0", charts: { app: { ...entry, range: "constructor prototype __proto__" } } });
    expect(parseLock(text, "x").charts.app?.range).toBe("constructor prototype __proto__");
  });

  it("checks a lock's text against the schema once per process, and a text that failed every time", () => {
    const check = vi.spyOn(lockfileSchema, "safeParse");
    try {
      const text = serialiseLock({ lockfileVersion: "1.0", charts: { once: { ...entry, chart: "once" } } });
      const first = parseLock(text, "x");
      const second = parseLock(text, "y");
      expect(check).toHaveBeenCalledTimes(1);
      // Each read is its own value: a workflow that changes one side's lock leaves the other alone.
      expect(second).toStrictEqual(first);
      expect(second).not.toBe(first);
      parseLock(serialiseLock({ lockfileVersion: "1.0", charts: {} }), "z");
      expect(check).toHaveBeenCalledTimes(2);
      const bad = JSON.stringify({ lockfileVersion: "1.0", charts: { app: { ...entry, digest: 5 } } });
      expect(failure(bad).code).toBe("LOCK_INVALID");
      expect(failure(bad).code).toBe("LOCK_INVALID");
    } finally {
      check.mockRestore();
    }
  });

  it("returns the JSON as written: the schema transforms nothing, fills in nothing and drops nothing at any depth", () => {
    const full = {
      lockfileVersion: "1.3",
      future: { kept: true },
      charts: {
        app: {
          ...entry,
          prerelease: true,
          appVersion: "2",
          manifestDigest: "sha256:cd",
          pinnedDigest: "sha256:ef",
          schema: { digest: "d", dialect: "x", later: 1 },
          crds: ["crds/a.yaml"],
          dependencies: [{ name: "db", version: "1", vendored: false, added: 1 }],
          hooks: { "pre-install": ["templates/job.yaml"] },
          renderedHooks: { prod: { "pre-install": ["Job/x"] } },
          unstable: { prod: ["Secret/x:data.password"] },
          renderInputs: { prod: { digest: "a".repeat(64), secretPaths: ["a.b"], later: 1 } },
          customResourceGroups: { prod: ["example.com"] },
          images: { prod: [{ object: "Deployment.apps web/web", container: "containers[web]", image: "nginx:1", digest: "sha256:01", platforms: 2 }] },
          engine: { name: "chart", reasons: ["x"], later: 1 },
          signer: { fingerprint: "F", user: "u", later: 1 },
          later: "kept",
        },
      },
    };
    const text = JSON.stringify(full);
    expect(lockfileSchema.parse(JSON.parse(text))).toStrictEqual(full);
    expect(parseLock(text, "x")).toStrictEqual(full);
  });

  it("reads from disk", async () => {
    const path = join(await tempDir(), "charts.lock.json");
    await writeFile(path, serialiseLock({ lockfileVersion: "1.0", charts: { app: entry } }));
    expect((await readLock(path))?.charts.app?.version).toBe("1.0.0");
  });
});
