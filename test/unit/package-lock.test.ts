// `npm ci` refuses a lock that is out of step with package.json; CI runs it.
// This finds the same drift in the unit tests, before CI does.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
  lockfileVersion: number;
  packages: Record<string, Record<string, unknown> & { version?: string }>;
};
const FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;

describe("package-lock.json", () => {
  it("declares at its root exactly the dependencies package.json declares", () => {
    const root = lock.packages[""] ?? {};
    for (const field of FIELDS) expect([field, root[field] ?? {}]).toStrictEqual([field, manifest[field] ?? {}]);
    expect(lock.lockfileVersion).toBe(3);
  });

  it("holds an installed version of every direct dependency within its range", () => {
    for (const field of ["dependencies", "devDependencies", "optionalDependencies"] as const) {
      for (const [name, range] of Object.entries((manifest[field] ?? {}) as Record<string, string>)) {
        const version = lock.packages[`node_modules/${name}`]?.version;
        expect(version === undefined ? `${name} missing` : semver.satisfies(version, range) ? "ok" : `${name}@${version} outside ${range}`).toBe("ok");
      }
    }
  });
});
