import * as semver from "../util/semver.js";
import { ChartroomError } from "../errors/index.js";
import { LOCKFILE_VERSION, type LockedChart, type LockedImage, type Lockfile } from "../lockfile/schema.js";
import { findStale, staleReasons } from "../lockfile/stale.js";
import { serialiseLock, writeLock } from "../lockfile/write.js";
import type { ChartVersion } from "../model/charts.js";
import type { ImageSummary, LockChange, LockReport, VerifyReport } from "../report/lock.js";
import { imageSummary, movedError, resolveImages, unlockedUses } from "../project/images.js";
import { mapLimit } from "../util/pool.js";
import { archiveFor, placePinnedArchives } from "../project/archives.js";
import { lockChart } from "../project/pins.js";
import type { Project } from "../project/project.js";
import { selectCharts, sourceOf } from "../project/select.js";
import { whileWriting } from "../project/writing.js";
import { byText } from "../util/order.js";
import { entryOf } from "../util/json.js";

/** Options of `lock`. */
export interface LockOptions {
  /** Re-resolve only these chart keys (plus charts whose declaration changed); all when empty. */
  charts?: readonly string[];
  /** Take these exact versions instead of resolving (an upgrade plan applied as data). */
  versions?: ReadonlyMap<string, ChartVersion>;
  /** Charts resolved, fetched and rendered at once. @default 16 */
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
  /** Record the images' references only, asking no registry (`--offline`). @default false */
  offline?: boolean;
  /**
   * Take the digests locked tags name now, where they moved (otherwise a
   * moved tag is IMAGE_MOVED). The report lists each.
   * @default false
   */
  acceptMovedImages?: boolean;
}

/**
 * Resolve, fetch, verify, inspect and render (for hook facts) the charts that
 * need it, and return the new lock. Writes nothing.
 */
export async function resolveLock(project: Project, options: LockOptions = {}): Promise<{ lock: Lockfile; changes: LockChange[]; images: ImageSummary }> {
  const kept = project.lock?.charts ?? {};
  const only = [...(options.charts ?? []), ...(options.versions?.keys() ?? [])];
  selectCharts(project, only);
  const todo = project.config.charts.filter((spec) => {
    const pin = Object.hasOwn(kept, spec.key) ? kept[spec.key] : undefined;
    return only.length === 0 || only.includes(spec.key) || staleReasons(spec, pin).length > 0;
  });
  let done = 0;
  // 16 charts at once: their fetches wait on the network and their renders on helm (render/template.ts bounds those).
  const resolved = await mapLimit(todo, options.concurrency ?? 16, async (spec) => {
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
  const images = await resolveImages(project, charts, kept, { offline: options.offline, acceptMoved: options.acceptMovedImages });
  if (images.moved.length > 0 && options.acceptMovedImages !== true) throw movedError(project, images.moved);
  for (const [key, pin] of Object.entries(charts)) charts[key] = withImages(pin, images.images.get(key));
  const lock: Lockfile = { lockfileVersion: LOCKFILE_VERSION, charts };
  return { lock, changes: describeChanges(project.lock, lock), images: imageSummary(images) };
}

/** The pin with its images, for the stacks that run any (`{}` says it runs none). */
function withImages(pin: LockedChart, images: Record<string, LockedImage[]> | undefined): LockedChart {
  return { ...pin, images: Object.fromEntries(Object.entries(images ?? {}).filter(([, list]) => list.length > 0)) };
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

/** `lock` with the writer lock held. */
export async function lockHeld(project: Project, options: LockOptions = {}): Promise<LockReport> {
  const { lock: next, changes, images } = await resolveLock(project, options);
  const unchanged = project.lock !== null && serialiseLock(project.lock) === serialiseLock(next);
  if (!unchanged) await writeLock(project.lockPath, next);
  project.lock = next;
  await placePinnedArchives(project);
  return { report: "lock", format: 1, path: project.lockPath, written: !unchanged, changes, images };
}

/**
 * `chartroom lock --frozen`: the lock must fit every declaration and every
 * pinned archive must still be the one it names. Writes nothing.
 */
export async function verify(project: Project, options: Pick<LockOptions, "offline"> = {}): Promise<VerifyReport> {
  const current = project.lock;
  if (current === null) {
    throw new ChartroomError("LOCK_MISSING", `${project.lockPath} does not exist`, {
      place: { file: project.lockPath },
      hint: "run `chartroom lock` and commit charts.lock.json",
    });
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
  // Pins an older chartroom wrote record no images: said, not held against the render.
  const recorded = Object.fromEntries(Object.entries(current.charts).filter(([, pin]) => pin.images !== undefined));
  const notRecorded = project.config.charts.map((spec) => spec.key).filter((key) => !Object.hasOwn(recorded, key));
  const images = await resolveImages(project, recorded, recorded, { offline: options.offline, recheck: true });
  const unlocked = unlockedUses(project, current, images);
  if (unlocked.length > 0) {
    throw new ChartroomError("LOCK_STALE", `charts.lock.json does not record every image the charts run (${unlocked.length})`, {
      place: { file: project.lockPath },
      details: unlocked.map((use) => use.message),
      hint: "the values or the chart name other images now: run `chartroom lock` and commit the result",
    });
  }
  if (images.moved.length > 0) throw movedError(project, images.moved);
  const summary = imageSummary(images);
  return { report: "verify", format: 1, path: project.lockPath, charts, images: notRecorded.length === 0 ? summary : { ...summary, notRecorded } };
}

export function describeChanges(previous: Lockfile | null, next: Lockfile): LockChange[] {
  const before = previous?.charts ?? {};
  const changes: LockChange[] = [];
  for (const [chart, pin] of Object.entries(next.charts)) {
    const old = entryOf(before, chart);
    if (old === undefined) changes.push({ chart, kind: "added", to: pin.version });
    else if (old.version === pin.version && old.digest !== pin.digest)
      changes.push({ chart, kind: "republished", from: old.version, to: pin.version, digests: { from: old.digest, to: pin.digest } });
    else if (semver.valid(old.version) && semver.valid(pin.version) && semver.lt(pin.version, old.version))
      changes.push({ chart, kind: "downgraded", from: old.version, to: pin.version });
    else if (old.version !== pin.version) changes.push({ chart, kind: "updated", from: old.version, to: pin.version });
    else changes.push({ chart, kind: "unchanged", from: old.version, to: pin.version });
  }
  for (const [chart, pin] of Object.entries(before)) {
    if (!Object.hasOwn(next.charts, chart)) changes.push({ chart, kind: "removed", from: pin.version });
  }
  return changes.sort((a, b) => byText(a.chart, b.chart));
}
