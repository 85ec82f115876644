// The Renovate preset's patterns (renovate/chartroom.json) against locks
// chartroom writes, under RE2 (what Renovate uses where its native module
// builds, and its hosted app) as well as JavaScript's RegExp (its fallback).
// test/integration/renovate.test.ts runs Renovate itself with the preset.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import type { Lockfile } from "../../src/lockfile/schema.js";
import { serialiseLock } from "../../src/lockfile/write.js";
import { ROOT } from "../helpers/platform.js";

interface Manager {
  matchStrings: string[];
  datasourceTemplate: string;
}

const preset = JSON.parse(readFileSync(join(ROOT, "renovate", "chartroom.json"), "utf8")) as { customManagers: Manager[] };
const [http, oci] = preset.customManagers as [Manager, Manager];
const example = JSON.parse(readFileSync(join(ROOT, "charts.lock.json"), "utf8")) as Lockfile;

type Groups = Record<string, string>;

/** Every match's named groups, by RE2 and by RegExp (which must agree). */
function matches(manager: Manager, text: string): Groups[] {
  const [pattern] = manager.matchStrings as [string];
  const byRegExp = [...text.matchAll(new RegExp(pattern, "g"))].map((match) => ({ ...match.groups }) as Groups);
  const re2 = RE2JS.compile(pattern);
  const names =
    Object.keys(byRegExp[0] ?? {}).length > 0 ? Object.keys(byRegExp[0] ?? {}) : [...pattern.matchAll(/\(\?<(\w+)>/g)].map((match) => match[1] as string);
  const byRe2: Groups[] = [];
  const matcher = re2.matcher(text);
  while (matcher.find()) byRe2.push(Object.fromEntries(names.map((name) => [name, matcher.group(name) as string])));
  expect(byRe2).toStrictEqual(byRegExp);
  return byRegExp;
}

/** The example's lock with each chart's repository replaced. */
function lockWith(repositories: Record<string, string>): string {
  const lock = structuredClone(example);
  for (const [key, url] of Object.entries(repositories)) if (lock.charts[key] !== undefined) lock.charts[key].repository = url;
  return serialiseLock(lock);
}

describe("the Renovate preset's patterns", () => {
  it("read each chart of an HTTP(S) repository: its key, chart, repository and pinned version", () => {
    const text = lockWith({ ledger: "https://charts.example.test/stable", webapp: "http://127.0.0.1:8080/", storefront: "https://charts.example.test/stable" });
    expect(matches(http, text)).toStrictEqual([
      { depName: "ledger", packageName: "ledger", registryUrl: "https://charts.example.test/stable", currentValue: "0.1.0" },
      { depName: "storefront", packageName: "storefront", registryUrl: "https://charts.example.test/stable", currentValue: "0.1.0" },
      { depName: "webapp", packageName: "webapp", registryUrl: "http://127.0.0.1:8080/", currentValue: "1.0.1" },
    ]);
  });

  it("never pair a chart with the next chart's repository (a file:// or oci:// chart between is skipped whole)", () => {
    // widgets-operator stays file://; storefront's dependencies hold nested "repository" and "version" keys.
    const text = lockWith({ ledger: "oci://registry.example.test/charts", storefront: "file://./charts", webapp: "https://charts.example.test/a" });
    expect(matches(http, text).map((groups) => [groups.depName, groups.registryUrl, groups.currentValue])).toStrictEqual([
      ["webapp", "https://charts.example.test/a", "1.0.1"],
    ]);
    expect(matches(oci, text).map((groups) => [groups.depName, groups.chart, groups.registryPath, groups.currentValue])).toStrictEqual([
      ["ledger", "ledger", "registry.example.test/charts", "0.1.0"],
    ]);
  });

  it("read charts whose entries lack optional fields, and a chart name that differs from the key", () => {
    const lock = structuredClone(example);
    const webapp = lock.charts.webapp as NonNullable<(typeof lock.charts)[string]>;
    delete (webapp as { appVersion?: string }).appVersion;
    webapp.chart = "web-application";
    webapp.repository = "https://charts.example.test/";
    expect(matches(http, serialiseLock(lock))).toStrictEqual([
      { depName: "webapp", packageName: "web-application", registryUrl: "https://charts.example.test/", currentValue: "1.0.1" },
    ]);
    expect([http.datasourceTemplate, oci.datasourceTemplate]).toStrictEqual(["helm", "docker"]);
  });

  it("match nothing in a lock of file:// charts only", () => {
    expect([matches(http, serialiseLock(example)), matches(oci, serialiseLock(example))]).toStrictEqual([[], []]);
  });
});
