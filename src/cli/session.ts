import { join } from "node:path";
import { loadConfig } from "../config/load.js";
import type { ChartSpec, Config } from "../config/types.js";
import { ChartroomError } from "../errors.js";
import { didYouMean } from "../util/nearest.js";
import { readLock } from "../lock/read.js";
import { LOCKFILE_NAME, type LockedChart, type Lockfile } from "../lock/schema.js";
import { verifyPin } from "../lock/verify.js";
import { locateHelm, type HelmBinary } from "../render/helm-binary.js";
import { sourcesFor } from "../sources/api.js";
import { diskArchiveStore, fetchVerified, type ArchiveStore } from "../sources/archive-cache.js";
import type { ChartSource, ChartVersion, FetchedArchive } from "../sources/types.js";
import { cacheDir } from "../util/cache-dir.js";
import type { CliContext, ParsedArgs } from "./command.js";

/** What most commands start from: the config, its lock, one source per repository. */
export interface Session {
  config: Config;
  lockPath: string;
  lock: Lockfile | null;
  sources: Map<string, ChartSource>;
  store: ArchiveStore;
  cacheRoot: string;
  /** Located on first use: commands that never render never need helm. */
  helm: () => Promise<HelmBinary>;
  /** Archives fetched and verified in this run, by chart and target: each is fetched once. */
  archives: Map<string, Promise<FetchedArchive>>;
}

/** A pinned chart, or a version the repository lists. */
export type ArchiveTarget = { pin: LockedChart } | { version: ChartVersion };

/**
 * The archive of a target, verified once per run: a pin against every digest
 * the lock holds (for OCI, one manifest request), a listed version against
 * the listing. Render, contract and plan steps all ask for the same ones.
 */
export function archiveFor(session: Session, spec: ChartSpec, target: ArchiveTarget, listing?: readonly ChartVersion[]): Promise<FetchedArchive> {
  const key = "pin" in target ? `${spec.key}\u0000pin\u0000${target.pin.digest}\u0000${target.pin.manifestDigest ?? ""}` : `${spec.key}\u0000version\u0000${target.version.version}`;
  let hit = session.archives.get(key);
  if (hit === undefined) {
    const source = session.sources.get(spec.repository.name);
    if (source === undefined) throw new Error(`no source for ${spec.repository.name}`);
    hit = "pin" in target ? verifyPin(source, spec.key, target.pin, session.store, listing) : fetchVerified(source, target.version, session.store);
    session.archives.set(key, hit);
  }
  return hit;
}

export async function openSession(context: CliContext, args: ParsedArgs): Promise<Session> {
  return openSessionAt(context, context.cwd, args.values.config as string | undefined);
}

/** A session for the config in `cwd` (or `file`): also used for the tree at a git ref. */
export async function openSessionAt(context: CliContext, cwd: string, file?: string): Promise<Session> {
  const config = await loadConfig({ cwd, file });
  const lockPath = join(config.dir, LOCKFILE_NAME);
  const cacheRoot = cacheDir(context.env);
  let helm: Promise<HelmBinary> | undefined;
  return {
    config,
    lockPath,
    lock: await readLock(lockPath),
    sources: sourcesFor(config.repositories.values(), { cacheRoot, env: context.env }),
    store: diskArchiveStore(cacheRoot),
    cacheRoot,
    helm: () => (helm ??= locateHelm({ cacheRoot, env: context.env })),
    archives: new Map(),
  };
}

/** Keep the declared charts named on the command line (all when none named). */
export function selectCharts<T extends { key: string }>(charts: readonly T[], names: string[]): T[] {
  return names.length === 0 ? [...charts] : charts.filter((chart) => names.includes(chart.key));
}

/** The declared chart named on the command line, or an error listing the declared ones. */
export function requireChart(session: Session, key: string | undefined, verb: string): ChartSpec {
  const keys = session.config.charts.map((chart) => chart.key);
  const spec = session.config.charts.find((chart) => chart.key === key);
  if (spec !== undefined) return spec;
  throw new ChartroomError("UNKNOWN_CHART", key === undefined ? `name a chart to ${verb}` : `"${key}" is not a chart declared in the config${didYouMean(key, keys)}`, {
    place: key === undefined ? {} : { chart: key },
    hint: `declared charts: ${keys.join(", ")}`,
  });
}
