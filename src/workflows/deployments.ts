import { readFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import type { ChartSpec } from "../config/types.js";
import { ChartroomError } from "../errors/index.js";
import type { LockedChart } from "../lockfile/schema.js";
import { type EngineChoice } from "../model/engine.js";
import { staleReasons } from "../lockfile/stale.js";
import { sha256Digest } from "../util/hash.js";
import { mergeLayers, type Values } from "../values/coalesce.js";
import type { ValuesContract } from "../values/check.js";
import { readValuesLayers, type ParsedLayer } from "../values/layers.js";
import { chooseEngine, mergeStacks } from "../engine/choice.js";
import { contractOf, inspectionOf } from "./archives.js";
import type { Project } from "./project.js";
import { stacksFor } from "./select.js";

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

/**
 * Plan every declared chart for a stack. Reads the lock, never the network:
 * a chart missing from the lock or stale against its declaration is an error
 * that says to run `chartroom lock`.
 */
export async function deploymentPlans(project: Project, options: { stack: string }): Promise<DeploymentPlan[]> {
  const stack = stacksFor(project, project.config.stacks.length > 0 ? options.stack : undefined)[0];
  const lock = project.lock;
  if (lock === null) throw new ChartroomError("LOCK_MISSING", `${project.lockPath} does not exist`, { place: { file: project.lockPath }, hint: "run `chartroom lock` and commit charts.lock.json" });
  const plans: DeploymentPlan[] = [];
  for (const spec of project.config.charts) {
    const pin = lock.charts[spec.key];
    const stale = staleReasons(spec, pin);
    if (pin === undefined || stale.length > 0) {
      throw new ChartroomError("LOCK_STALE", `charts.lock.json does not match the declaration of ${spec.key}`, {
        place: { file: project.lockPath, chart: spec.key },
        details: stale,
        hint: "run `chartroom lock` and commit charts.lock.json",
      });
    }
    plans.push(await planOne(project, spec, pin, stack?.name ?? options.stack));
  }
  return plans;
}

async function planOne(project: Project, spec: ChartSpec, pin: LockedChart, stack: string): Promise<DeploymentPlan> {
  const hooks = pin.renderedHooks === undefined ? pin.hooks : mergeStacks(pin.renderedHooks);
  const engine = chooseEngine(spec, hooks, pin.renderedHooks === undefined ? "templates" : "rendered");
  const archive = await pinnedArchive(project, spec, pin);
  const found = await inspectionOf(project, { data: archive.data, digest: pin.digest, url: pin.url }, spec.key);
  const layers = await readValuesLayers(project.config.dir, spec.key, stack);
  const plan: DeploymentPlan = {
    spec,
    pin,
    engine,
    chart: archive.chart,
    plainHttp: spec.repository.plainHttp,
    layers,
    fileValues: mergeLayers(layers.map((layer) => layer.values)),
    contract: contractOf(found),
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
async function pinnedArchive(project: Project, spec: ChartSpec, pin: LockedChart): Promise<{ data: Buffer; chart: string }> {
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
  const data = await project.store.get(pin.digest);
  if (data === null) {
    throw new ChartroomError("LOCK_MISSING", `the pinned archive of ${spec.key} ${pin.version} is not in the cache, and the Pulumi program does not use the network`, {
      place: { chart: spec.key },
      hint: "run `chartroom plan` (it fetches and verifies every pin) before running the program",
    });
  }
  return { data, chart: repository.kind === "oci" ? `${repository.url}/${spec.chart}` : spec.chart };
}
