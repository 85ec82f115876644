import { pathToFileURL } from "node:url";
import semver from "semver";
import type { ChartSpec } from "../config/types.js";
import { chooseEngine, mergeStacks } from "../engine/choice.js";
import { ChartroomError } from "../errors/index.js";
import { LOCKFILE_VERSION, type LockedChart, type Lockfile } from "../lockfile/schema.js";
import { findStale, staleReasons } from "../lockfile/stale.js";
import { readLock } from "../lockfile/read.js";
import { serialiseLock, writeLock } from "../lockfile/write.js";
import { verifyProvenance, type Signer } from "../chart/provenance.js";
import type { ChartVersion, FetchedArchive } from "../model/charts.js";
import { readFileFor } from "../util/fs.js";
import type { LockChange, LockReport, VerifyReport } from "../report/lock.js";
import { fetchVerified } from "../sources/fetch.js";
import { lockWaitMs, withWriterLock } from "../store/writer-lock.js";
import { mapLimit } from "../util/pool.js";
import { meetsConstraint } from "../util/helm-range.js";
import { resolveVersion } from "../versions/resolve.js";
import { archiveFor, inspectionOf, placePinnedArchives } from "./archives.js";
import type { Project } from "./project.js";
import { renderFacts } from "./render-facts.js";
import { selectCharts, sourceOf } from "./select.js";

/** Options of `lock`. */
export interface LockOptions {
  /** Re-resolve only these chart keys (plus charts whose declaration changed); all when empty. */
  charts?: readonly string[];
  /** Take these exact versions instead of resolving (an upgrade plan applied as data). */
  versions?: ReadonlyMap<string, ChartVersion>;
  /** @default 8 */
  concurrency?: number;
  /**
   * Pin an archive republished under its pinned version with other bytes
   * (otherwise DIGEST_MISMATCH). The report says "republished".
   * @default false
   */
  acceptRepublished?: boolean;
  /**
   * Pin a version whose provenance another key of the keyring signed than the
   * one the lock records (otherwise PROVENANCE_INVALID).
   * @default false
   */
  acceptNewSigner?: boolean;
  /**
   * Let a pin move to a lower version when the repository no longer lists
   * the pinned one (otherwise an error). The report says "downgraded".
   * @default false
   */
  allowDowngrade?: boolean;
}

/**
 * Resolve, fetch, verify, inspect and render (for hook facts) the charts that
 * need it, and return the new lock. Writes nothing.
 */
export async function resolveLock(project: Project, options: LockOptions = {}): Promise<{ lock: Lockfile; changes: LockChange[] }> {
  const kept = project.lock?.charts ?? {};
  const only = [...(options.charts ?? []), ...(options.versions?.keys() ?? [])];
  selectCharts(project, only);
  const todo = project.config.charts.filter((spec) => {
    const pin = Object.hasOwn(kept, spec.key) ? kept[spec.key] : undefined;
    return only.length === 0 || only.includes(spec.key) || staleReasons(spec, pin).length > 0;
  });
  let done = 0;
  const resolved = await mapLimit(todo, options.concurrency ?? 8, async (spec) => {
    const entry = await lockChart(project, spec, options.versions?.get(spec.key), options);
    project.progress(`[${++done}/${todo.length}] locked ${spec.key} ${entry.version}`);
    return entry;
  });
  const charts: Record<string, LockedChart> = {};
  for (const spec of project.config.charts) {
    const fresh = resolved[todo.indexOf(spec)];
    const pin = fresh ?? kept[spec.key];
    if (pin !== undefined) charts[spec.key] = pin;
  }
  const lock: Lockfile = { lockfileVersion: LOCKFILE_VERSION, charts };
  return { lock, changes: describeChanges(project.lock, lock) };
}

/**
 * `chartroom lock`: resolve, then write charts.lock.json once everything
 * succeeded (and only if it changed). One writer at a time: the lock is read
 * again once the writer lock is held, so a run that waited builds on the
 * other's result.
 */
export async function lock(project: Project, options: LockOptions = {}): Promise<LockReport> {
  return whileWriting(project, "chartroom lock", () => lockHeld(project, options));
}

/** Run `work` holding the platform's writer lock, with the lock as it is on disk now. */
export async function whileWriting<T>(project: Project, command: string, work: () => Promise<T>): Promise<T> {
  return withWriterLock(project.lockPath, { command, waitMs: lockWaitMs(project.env), onWait: (line) => project.progress(line) }, async () => {
    project.lock = await readLock(project.lockPath);
    return work();
  });
}

/** `lock` with the writer lock held. */
export async function lockHeld(project: Project, options: LockOptions = {}): Promise<LockReport> {
  const { lock: next, changes } = await resolveLock(project, options);
  const unchanged = project.lock !== null && serialiseLock(project.lock) === serialiseLock(next);
  if (!unchanged) await writeLock(project.lockPath, next);
  project.lock = next;
  await placePinnedArchives(project);
  return { report: "lock", format: 1, path: project.lockPath, written: !unchanged, changes };
}

/**
 * `chartroom lock --frozen`: the lock must fit every declaration and every
 * pinned archive must still be the one it names. Writes nothing.
 */
export async function verify(project: Project): Promise<VerifyReport> {
  const current = project.lock;
  if (current === null) {
    throw new ChartroomError("LOCK_MISSING", `${project.lockPath} does not exist`, { place: { file: project.lockPath }, hint: "run `chartroom lock` and commit charts.lock.json" });
  }
  const stale = findStale(project.config.charts, current);
  if (stale.length > 0) {
    throw new ChartroomError("LOCK_STALE", `charts.lock.json does not match the config (${stale.length} problem${stale.length === 1 ? "" : "s"})`, {
      place: { file: project.lockPath },
      details: stale.map((entry) => `${entry.chart}: ${entry.reason}`),
      hint: "run `chartroom lock` and commit the result",
    });
  }
  let done = 0;
  const charts = await mapLimit(project.config.charts, 8, async (spec) => {
    const pin = current.charts[spec.key] as LockedChart;
    await archiveFor(project, spec, { pin }, await sourceOf(project, spec).listVersions(spec.chart));
    project.progress(`[${++done}/${project.config.charts.length}] verified ${spec.key}`);
    return { chart: spec.key, version: pin.version, digest: pin.digest };
  });
  await placePinnedArchives(project);
  return { report: "verify", format: 1, path: project.lockPath, charts };
}

async function lockChart(project: Project, spec: ChartSpec, given: ChartVersion | undefined, options: LockOptions): Promise<LockedChart> {
  const source = sourceOf(project, spec);
  const old = project.lock?.charts[spec.key];
  const listed = given === undefined ? await source.listVersions(spec.chart) : [];
  const resolved = given ?? resolveVersion({ key: spec.key, chart: spec.chart, range: spec.range, prerelease: spec.prerelease, repository: spec.repository.url }, listed);
  if (given === undefined && old !== undefined) checkNoSilentDowngrade(spec, old, resolved, listed, options);
  // An OCI digest pin is fetched by digest, so a moved tag cannot change it.
  const version = spec.digest !== undefined && spec.repository.kind === "oci" ? { ...resolved, manifestDigest: spec.digest } : resolved;
  const archive = await fetchVerified(source, version, project.store);
  checkDigestPin(spec, archive.manifestDigest ?? archive.digest);
  if (old !== undefined && old.version === version.version && old.repository === spec.repository.url && old.digest !== archive.digest && options.acceptRepublished !== true) {
    throw new ChartroomError("DIGEST_MISMATCH", `${spec.chart} ${version.version} was republished: charts.lock.json pins ${old.digest}, the repository now serves ${archive.digest}`, {
      place: { file: project.lockPath, chart: spec.key },
      hint: `a published version should never change; find out why it did, then accept it with chartroom lock ${spec.key} --accept-republished`,
    });
  }
  const inspection = await inspectionOf(project, archive, `${spec.chart}-${version.version}`);
  if (inspection.name !== spec.chart || inspection.version !== version.version) {
    throw new ChartroomError("ARCHIVE_INVALID", `the archive listed as ${spec.chart} ${version.version} holds ${inspection.name} ${inspection.version} (its Chart.yaml)`, {
      place: { url: archive.url, chart: spec.key },
      hint: "the repository's index or tag does not match its archive; do not pin it, and tell the repository's owner",
    });
  }
  const signer = spec.verify === undefined ? undefined : await checkSigner(project, spec, version, archive, old, options);
  const facts = await renderFacts(project, spec, archive, version.version);
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
    dependencies: inspection.dependencies.map((dependency) => ({ ...dependency })),
    hooks: inspection.hooks,
    renderedHooks: facts.hooks,
    unstable: facts.unstable,
    engine: chooseEngine(spec, mergeStacks(facts.hooks), "rendered"),
  };
  if (spec.prerelease) entry.prerelease = true;
  if (signer !== undefined) entry.signer = signer;
  if (archive.manifestDigest !== undefined) entry.manifestDigest = archive.manifestDigest;
  if (spec.digest !== undefined) entry.pinnedDigest = spec.digest;
  const appVersion = version.appVersion ?? inspection.appVersion;
  if (appVersion !== undefined) entry.appVersion = appVersion;
  return entry;
}

/**
 * A pin never moves down on its own: when the pinned version is gone from
 * the listing (withdrawn, or an entry too broken to read) and the range
 * still takes it, say so instead of pinning something older.
 */
function checkNoSilentDowngrade(spec: ChartSpec, old: LockedChart, resolved: ChartVersion, listed: readonly ChartVersion[], options: LockOptions): void {
  if (options.allowDowngrade === true || !semver.valid(old.version) || !semver.valid(resolved.version) || !semver.lt(resolved.version, old.version)) return;
  if (!meetsConstraint(old.version, spec.range, spec.prerelease)) return; // the range moved down on purpose
  const stillListed = listed.some((version) => version.version === old.version);
  throw new ChartroomError("VERSION_NOT_FOUND", `${spec.chart} ${old.version} is pinned, but ${spec.repository.url} ${stillListed ? "lists it in a form chartroom cannot use" : "no longer lists it (or lists it broken)"}; chartroom will not move the pin down to ${resolved.version} on its own`, {
    place: { file: `${spec.repository.url}`, chart: spec.key },
    hint: `check the repository's index; to pin ${resolved.version} on purpose: chartroom lock ${spec.key} --allow-downgrade`,
  });
}

function checkDigestPin(spec: ChartSpec, actual: string): void {
  if (spec.digest === undefined || spec.digest === actual) return;
  throw new ChartroomError("DIGEST_MISMATCH", `${spec.chart} ${spec.range} has digest ${actual}, but the config pins ${spec.digest}`, {
    place: { chart: spec.key, key: `charts.${spec.key}.version` },
    hint: "the published chart differs from the one you pinned; check the digest in the config",
  });
}

/**
 * The archive's provenance verified against the declaration's keyring, before
 * it is pinned: missing, unverifiable, vouching for other bytes, or signed by
 * another key than the lock recorded is PROVENANCE_INVALID.
 */
async function checkSigner(project: Project, spec: ChartSpec, version: ChartVersion, archive: FetchedArchive, old: LockedChart | undefined, options: LockOptions): Promise<Signer> {
  const keyring = spec.verify?.keyring as string;
  const chart = { key: spec.key, name: spec.chart, version: version.version, digest: archive.digest, url: archive.url };
  const provenance = await sourceOf(project, spec).provenance(version);
  if (provenance === null) {
    throw new ChartroomError("PROVENANCE_INVALID", `${spec.chart} ${version.version} has no provenance file, and the config asks for one (verify)`, {
      place: { chart: spec.key, url: archive.url },
      hint: "the publisher did not sign this version (`helm package --sign`); pin a signed one, or set verify: false on the chart to take it unchecked",
    });
  }
  const bytes = await readFileFor(keyring, "the keyring", { place: { key: `charts.${spec.key}.verify.keyring` }, hint: "export the signer's public key with `gpg --export <key> > keyring.gpg`" });
  const signer = await verifyProvenance({ provenance, keyring: bytes, keyringPath: keyring, chart });
  if (old?.signer !== undefined && old.signer.fingerprint !== signer.fingerprint && options.acceptNewSigner !== true) {
    throw new ChartroomError("PROVENANCE_INVALID", `${spec.chart} ${version.version} is signed by ${describeSigner(signer)}, but charts.lock.json records ${describeSigner(old.signer)} for ${spec.key}`, {
      place: { chart: spec.key, file: project.lockPath },
      hint: `find out why the signer changed; to accept it: chartroom lock ${spec.key} --accept-new-signer`,
    });
  }
  return signer;
}

function describeSigner(signer: Signer): string {
  return `${signer.user ?? "a key"} (${signer.fingerprint})`;
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
    else if (old.version === pin.version && old.digest !== pin.digest) changes.push({ chart, kind: "republished", from: old.version, to: pin.version, digests: { from: old.digest, to: pin.digest } });
    else if (semver.valid(old.version) && semver.valid(pin.version) && semver.lt(pin.version, old.version)) changes.push({ chart, kind: "downgraded", from: old.version, to: pin.version });
    else if (old.version !== pin.version) changes.push({ chart, kind: "updated", from: old.version, to: pin.version });
    else changes.push({ chart, kind: "unchanged", from: old.version, to: pin.version });
  }
  for (const [chart, pin] of Object.entries(before)) {
    if (!Object.hasOwn(next.charts, chart)) changes.push({ chart, kind: "removed", from: pin.version });
  }
  return changes.sort((a, b) => a.chart.localeCompare(b.chart));
}
