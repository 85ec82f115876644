import { inspectArchive, type ChartInspection } from "../chart/inspect.js";
import type { ChartSpec } from "../config/types.js";
import type { LockedChart } from "../lockfile/schema.js";
import type { ChartVersion, FetchedArchive } from "../model/charts.js";
import { fetchVerified } from "../sources/fetch.js";
import { projectChartPath, pruneProjectCharts, readProjectChart, writeProjectChart } from "../store/project-charts.js";
import { mapLimit } from "../util/pool.js";
import { recordStore } from "../store/records.js";
import * as z from "../util/zod.js";
import type { ValuesContract } from "../values/check.js";
import { rememberPublished } from "../errors/secrets.js";
import { secretStrings } from "../values/secret-keys.js";
import type { Project } from "./project.js";
import { sourceOf } from "./select.js";

/** A pinned chart, a version the repository lists, or an archive fetched and verified already. */
export type ArchiveTarget = { pin: LockedChart } | { version: ChartVersion } | { fetched: FetchedArchive; version: string };

export function targetVersion(target: ArchiveTarget): string {
  return "pin" in target ? target.pin.version : typeof target.version === "string" ? target.version : target.version.version;
}

/**
 * The archive of a target, verified once per run: a pin against every digest
 * the lock holds (for OCI also the manifest's, so a moved tag is caught), a
 * listed version against the listing. Every workflow asks for the same ones.
 */
export function archiveFor(project: Project, spec: ChartSpec, target: ArchiveTarget, listing?: readonly ChartVersion[]): Promise<FetchedArchive> {
  if ("fetched" in target) return Promise.resolve(target.fetched);
  const key =
    "pin" in target
      ? `${spec.key}\u0000pin\u0000${target.pin.digest}\u0000${target.pin.manifestDigest ?? ""}`
      : `${spec.key}\u0000version\u0000${target.version.version}`;
  let hit = project.memo.archives.get(key);
  if (hit === undefined) {
    const source = sourceOf(project, spec);
    if ("pin" in target) {
      const pin = target.pin;
      const version: ChartVersion = listing?.find((v) => v.version === pin.version) ?? { name: pin.chart, version: pin.version, urls: [pin.url] };
      hit = fetchVerified(source, version, project.store, { digest: pin.digest, chart: spec.key, manifestDigest: pin.manifestDigest });
    } else {
      // A digest the index lists is checked like a pin's: the store first, so bytes it holds are not fetched and written again.
      const listed = target.version.digest;
      hit = fetchVerified(source, target.version, project.store, listed === undefined ? undefined : { digest: listed, chart: spec.key });
    }
    project.memo.archives.set(key, hit);
  }
  return hit;
}

/** A fetched archive's inspection, once per digest per run, and cached by digest between runs. */
export function inspectionOf(project: Project, archive: FetchedArchive, label: string): Promise<ChartInspection> {
  let hit = project.memo.inspections.get(archive.digest);
  if (hit === undefined) {
    // A chart's own defaults under secret-looking keys are scrubbed from output too.
    hit = cachedInspection(project, archive, label).then((found) => {
      rememberDefaults(found);
      return found;
    });
    project.memo.inspections.set(archive.digest, hit);
  }
  return hit;
}

// An archive's bytes decide its inspection: a record per digest. Written by
// chartroom itself: the shape is checked, the content trusted.
const inspectionRecord = z.custom<ChartInspection>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as { name?: unknown }).name === "string" &&
    typeof (value as { deterministic?: unknown }).deterministic === "boolean",
);

async function cachedInspection(project: Project, archive: FetchedArchive, label: string): Promise<ChartInspection> {
  // Format 10: a `$schema` naming a meta-schema Helm does not carry is told apart (Helm 4 fetches it).
  const records = recordStore(project.cacheRoot, "inspection", 10, inspectionRecord);
  const cached = await records.read(archive.digest);
  if (cached !== null) return cached;
  const found = await inspectArchive(archive.data, label);
  await records.write(archive.digest, found);
  return found;
}

function rememberDefaults(found: {
  defaults: Record<string, unknown>;
  subcharts: readonly { defaults: Record<string, unknown>; subcharts: readonly unknown[] }[];
}): void {
  for (const text of secretStrings(found.defaults)) rememberPublished(text);
  for (const sub of found.subcharts) rememberDefaults(sub as Parameters<typeof rememberDefaults>[0]);
}

/** What a chart version says about its values: defaults, schema, subcharts. */
export async function contractFor(project: Project, spec: ChartSpec, target: ArchiveTarget): Promise<ValuesContract & { version: string }> {
  const found = await inspectionOf(project, await archiveFor(project, spec, target), spec.key);
  return { version: targetVersion(target), ...contractOf(found) };
}

export function contractOf(found: ChartInspection): ValuesContract {
  return {
    defaults: found.defaults,
    schema: found.schemaDocument,
    schemaDigest: found.schema?.digest,
    subcharts: found.subcharts,
    reads: found.templateReads ?? [],
  };
}

/**
 * Put each pinned archive at its project path (.chartroom/charts/…), from
 * this run's verified fetches, and remove the ones no pin names: what the
 * Pulumi program deploys. Called after the lock is verified or written.
 */
export async function placePinnedArchives(project: Project): Promise<void> {
  const lock = project.lock;
  if (lock === null) return;
  const keep = new Set<string>();
  await mapLimit(project.config.charts, 8, async (spec) => {
    const pin = lock.charts[spec.key];
    if (pin === undefined) return;
    const path = projectChartPath(project.config.dir, pin);
    keep.add(path);
    if ((await readProjectChart(path, pin.digest)) !== null) return;
    await writeProjectChart(path, (await archiveFor(project, spec, { pin })).data);
  });
  await pruneProjectCharts(project.config.dir, keep);
}
