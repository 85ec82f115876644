import { pathToFileURL } from "node:url";
import { inspectArchive } from "../chart/inspect.js";
import type { ChartSpec, Config } from "../config/types.js";
import { chooseEngine, mergeStacks } from "../deploy/engine.js";
import { ChartroomError } from "../errors.js";
import { fetchVerified, type ArchiveStore } from "../sources/archive-cache.js";
import type { ChartSource, FetchedArchive } from "../sources/types.js";
import { didYouMean } from "../util/nearest.js";
import { mapLimit } from "../util/pool.js";
import { resolveVersion } from "./resolve.js";
import { LOCKFILE_VERSION, type LockedChart, type Lockfile } from "./schema.js";
import { staleReasons } from "./stale.js";

/** What rendering with the platform's values found, per stack. */
export interface RenderFacts {
  hooks: Record<string, Record<string, string[]>>;
  unstable: Record<string, string[]>;
}

export interface LockChange {
  chart: string;
  kind: "added" | "updated" | "removed" | "unchanged";
  from?: string;
  to?: string;
}

export interface UpdateLockInput {
  config: Config;
  previous: Lockfile | null;
  /** Re-resolve only these keys (plus entries whose declaration changed); all when empty. */
  only?: string[];
  sources: Map<string, ChartSource>;
  store: ArchiveStore;
  /** @default 8 */
  concurrency?: number;
  /** Renders the chart per stack with the platform's values (the CLI passes helm in). */
  renderFacts?: (spec: ChartSpec, archive: FetchedArchive) => Promise<RenderFacts>;
  onProgress?: (event: { chart: string; done: number; total: number }) => void;
}

/**
 * Resolve, fetch, verify and inspect the charts that need it, and return the
 * new lock. Writes nothing: the caller writes the lock once all succeeded.
 */
export async function updateLock(input: UpdateLockInput): Promise<{ lock: Lockfile; changes: LockChange[] }> {
  const { config, previous } = input;
  const kept = previous?.charts ?? {};
  const only = input.only ?? [];
  checkKnown(only, config.charts);
  const todo = config.charts.filter((spec) => {
    const pin = Object.hasOwn(kept, spec.key) ? kept[spec.key] : undefined;
    return only.length === 0 || only.includes(spec.key) || staleReasons(spec, pin).length > 0;
  });
  let done = 0;
  const resolved = await mapLimit(todo, input.concurrency ?? 8, async (spec) => {
    const entry = await lockChart(spec, input);
    input.onProgress?.({ chart: spec.key, done: ++done, total: todo.length });
    return entry;
  });
  const charts: Record<string, LockedChart> = {};
  for (const spec of config.charts) {
    const fresh = resolved[todo.indexOf(spec)];
    const pin = fresh ?? kept[spec.key];
    if (pin !== undefined) charts[spec.key] = pin;
  }
  const lock: Lockfile = { lockfileVersion: LOCKFILE_VERSION, charts };
  return { lock, changes: describeChanges(previous, lock) };
}

function checkKnown(only: string[], charts: readonly ChartSpec[]): void {
  const keys = charts.map((spec) => spec.key);
  for (const key of only) {
    if (!keys.includes(key)) {
      throw new ChartroomError("UNKNOWN_CHART", `"${key}" is not a chart declared in the config${didYouMean(key, keys)}`, {
        place: { chart: key },
        hint: `declared charts: ${keys.join(", ")}`,
      });
    }
  }
}

async function lockChart(spec: ChartSpec, input: UpdateLockInput): Promise<LockedChart> {
  const source = input.sources.get(spec.repository.name);
  if (source === undefined) throw new Error(`no source for repository ${spec.repository.name}`);
  const versions = await source.listVersions(spec.chart);
  const resolved = resolveVersion({ key: spec.key, chart: spec.chart, range: spec.range, prerelease: spec.prerelease, repository: spec.repository.url }, versions);
  // An OCI digest pin is fetched by digest, so a moved tag cannot change it.
  const version = spec.digest !== undefined && spec.repository.kind === "oci" ? { ...resolved, manifestDigest: spec.digest } : resolved;
  const archive = await fetchVerified(source, version, input.store);
  checkDigestPin(spec, archive.manifestDigest ?? archive.digest);
  const inspection = await inspectArchive(archive.data, `${spec.chart}-${version.version}`);
  const facts = input.renderFacts === undefined ? undefined : await input.renderFacts(spec, archive);
  const entry: LockedChart = {
    repository: spec.repository.url,
    chart: spec.chart,
    range: spec.range,
    version: version.version,
    digest: archive.digest,
    url: relativeTo(archive.url, source.url, spec.repository.path),
    chartApiVersion: inspection.apiVersion,
    schema: inspection.schema,
    crds: inspection.crds,
    dependencies: inspection.dependencies,
    hooks: inspection.hooks,
    engine: chooseEngine(spec, facts === undefined ? inspection.hooks : mergeStacks(facts.hooks), facts === undefined ? "templates" : "rendered"),
  };
  if (facts !== undefined) {
    entry.renderedHooks = facts.hooks;
    entry.unstable = facts.unstable;
  }
  if (spec.prerelease) entry.prerelease = true;
  if (archive.manifestDigest !== undefined) entry.manifestDigest = archive.manifestDigest;
  if (spec.digest !== undefined) entry.pinnedDigest = spec.digest;
  const appVersion = version.appVersion ?? inspection.appVersion;
  if (appVersion !== undefined) entry.appVersion = appVersion;
  return entry;
}

function checkDigestPin(spec: ChartSpec, actual: string): void {
  if (spec.digest === undefined || spec.digest === actual) return;
  throw new ChartroomError("DIGEST_MISMATCH", `${spec.chart} ${spec.range} has digest ${actual}, but the config pins ${spec.digest}`, {
    place: { chart: spec.key, key: `charts.${spec.key}.version` },
    hint: "the published chart differs from the one you pinned; check the digest in the config",
  });
}

/** Archives inside the repository are recorded by relative path, so the lock is portable. */
function relativeTo(archiveUrl: string, repositoryUrl: string, folder?: string): string {
  const base = folder !== undefined ? pathToFileURL(`${folder}/`).toString() : repositoryUrl.endsWith("/") ? repositoryUrl : `${repositoryUrl}/`;
  return archiveUrl.startsWith(base) ? archiveUrl.slice(base.length) : archiveUrl;
}

export function describeChanges(previous: Lockfile | null, next: Lockfile): LockChange[] {
  const before = previous?.charts ?? {};
  const changes: LockChange[] = [];
  for (const [chart, pin] of Object.entries(next.charts)) {
    const old = Object.hasOwn(before, chart) ? before[chart] : undefined;
    if (old === undefined) changes.push({ chart, kind: "added", to: pin.version });
    else if (old.version !== pin.version || old.digest !== pin.digest) changes.push({ chart, kind: "updated", from: old.version, to: pin.version });
    else changes.push({ chart, kind: "unchanged", from: old.version, to: pin.version });
  }
  for (const [chart, pin] of Object.entries(before)) {
    if (!Object.hasOwn(next.charts, chart)) changes.push({ chart, kind: "removed", from: pin.version });
  }
  return changes.sort((a, b) => a.chart.localeCompare(b.chart));
}
