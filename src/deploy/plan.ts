import { readFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { inspectArchive, type ChartInspection } from "../chart/inspect.js";
import { normaliseConfig } from "../config/normalise.js";
import type { ChartSpec, Config } from "../config/types.js";
import { ChartroomError } from "../errors.js";
import { readLock } from "../lock/read.js";
import { LOCKFILE_NAME, type EngineChoice, type LockedChart } from "../lock/schema.js";
import { staleReasons } from "../lock/stale.js";
import { diskArchiveStore } from "../sources/archive-cache.js";
import { cacheDir } from "../util/cache-dir.js";
import { sha256Digest } from "../util/hash.js";
import { mergeLayers, type Values } from "../values/coalesce.js";
import type { ValuesContract } from "../values/check.js";
import { readValuesLayers, type ParsedLayer } from "../values/layers.js";
import { chooseEngine, mergeStacks } from "./engine.js";

/** Everything a deployment needs, read from the config, the lock, values files and the pinned archive. */
export interface DeploymentPlan {
  spec: ChartSpec;
  pin: LockedChart;
  engine: EngineChoice;
  /** What helm is given as the chart: a repository chart name, `oci://…/chart`, or a local archive path. */
  chart: string;
  /** The exact version, for repository and OCI charts (a local archive is its own version). */
  version?: string;
  /** The repository, with the names of the variables holding its credentials. */
  repository?: { repo: string; usernameEnv?: string; passwordEnv?: string; tokenEnv?: string; caFile?: string };
  plainHttp: boolean;
  layers: ParsedLayer[];
  /** The values files merged (the chart's defaults not included: Helm adds them). */
  fileValues: Values;
  contract: ValuesContract;
}

export interface PlanOptions {
  /** The stack (a key of `stacks` in the config). */
  stack: string;
  /** Folder of chartroom.config.ts, charts.lock.json and values/. @default process.cwd() */
  dir?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Plan every declared chart for a stack. Reads the lock, never the network:
 * a chart missing from the lock or stale against its declaration is an error
 * that says to run `chartroom lock`.
 */
export async function planDeployments(written: unknown, options: PlanOptions): Promise<DeploymentPlan[]> {
  const dir = options.dir ?? process.cwd();
  const config = normaliseConfig(written, join(dir, "chartroom.config.ts"));
  if (config.stacks.length > 0 && !config.stacks.some((stack) => stack.name === options.stack)) {
    throw new ChartroomError("CONFIG_INVALID", `stack "${options.stack}" is not declared in chartroom.config.ts`, {
      place: { file: config.file, key: "stacks" },
      hint: `declared stacks: ${config.stacks.map((stack) => stack.name).join(", ")}`,
    });
  }
  const lockPath = join(dir, LOCKFILE_NAME);
  const lock = await readLock(lockPath);
  if (lock === null) throw new ChartroomError("LOCK_MISSING", `${lockPath} does not exist`, { place: { file: lockPath }, hint: "run `chartroom lock` and commit charts.lock.json" });
  const inspections = new Map<string, Promise<ChartInspection>>();
  const plans: DeploymentPlan[] = [];
  for (const spec of config.charts) {
    const pin = lock.charts[spec.key];
    const stale = staleReasons(spec, pin);
    if (pin === undefined || stale.length > 0) {
      throw new ChartroomError("LOCK_STALE", `charts.lock.json does not match the declaration of ${spec.key}`, {
        place: { file: lockPath, chart: spec.key },
        details: stale,
        hint: "run `chartroom lock` and commit charts.lock.json",
      });
    }
    plans.push(await planOne(config, spec, pin, options, inspections));
  }
  return plans;
}

async function planOne(config: Config, spec: ChartSpec, pin: LockedChart, options: PlanOptions, inspections: Map<string, Promise<ChartInspection>>): Promise<DeploymentPlan> {
  const dir = config.dir;
  const hooks = pin.renderedHooks === undefined ? pin.hooks : mergeStacks(pin.renderedHooks);
  const engine = chooseEngine(spec, hooks, pin.renderedHooks === undefined ? "templates" : "rendered");
  const archive = await pinnedArchive(spec, pin, options.env);
  let inspection = inspections.get(pin.digest);
  if (inspection === undefined) {
    inspection = inspectArchive(archive.data, spec.key);
    inspections.set(pin.digest, inspection);
  }
  const found = await inspection;
  const layers = await readValuesLayers(dir, spec.key, options.stack);
  const plan: DeploymentPlan = {
    spec,
    pin,
    engine,
    chart: archive.chart,
    plainHttp: spec.repository.plainHttp,
    layers,
    fileValues: mergeLayers(layers.map((layer) => layer.values)),
    contract: { defaults: found.defaults, schema: found.schemaDocument, schemaDigest: found.schema?.digest, subcharts: found.subcharts },
  };
  if (spec.repository.kind !== "file") {
    plan.version = pin.version;
    plan.repository = { repo: spec.repository.url, ...spec.repository.auth, ...(spec.repository.caFile === undefined ? {} : { caFile: spec.repository.caFile }) };
  }
  return plan;
}

/**
 * The pinned archive, its digest checked: from the file repository itself,
 * else from the cache (filled by `chartroom lock`, `plan` or `check`).
 */
async function pinnedArchive(spec: ChartSpec, pin: LockedChart, env: NodeJS.ProcessEnv = process.env): Promise<{ data: Buffer; chart: string }> {
  const repository = spec.repository;
  if (repository.kind === "file" && repository.path !== undefined) {
    const path = isAbsolute(pin.url) ? pin.url : join(repository.path, pin.url);
    const data = await readFile(path).catch(() => {
      throw new ChartroomError("LOCK_STALE", `the pinned archive of ${spec.key} is missing: ${path}`, { place: { chart: spec.key, file: path }, hint: "run `chartroom lock`" });
    });
    if (sha256Digest(data) !== pin.digest) {
      throw new ChartroomError("DIGEST_MISMATCH", `${path} has digest ${sha256Digest(data)}, but charts.lock.json pins ${pin.digest}`, {
        place: { chart: spec.key, file: path },
        hint: `the archive changed since it was locked; review it, then run \`chartroom lock ${spec.key}\``,
      });
    }
    // Relative to the program's folder, so the state does not depend on where the checkout lives.
    return { data, chart: relative(process.cwd(), path).split(sep).join("/") };
  }
  const data = await diskArchiveStore(cacheDir(env)).get(pin.digest);
  if (data === null) {
    throw new ChartroomError("LOCK_MISSING", `the pinned archive of ${spec.key} ${pin.version} is not in the cache, and the Pulumi program does not use the network`, {
      place: { chart: spec.key },
      hint: "run `chartroom plan` (it fetches and verifies every pin) before running the program",
    });
  }
  return { data, chart: repository.kind === "oci" ? `${repository.url}/${spec.chart}` : spec.chart };
}
