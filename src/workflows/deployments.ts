import { isAbsolute, join, relative, sep } from "node:path";
import type { ChartSpec } from "../config/types.js";
import { ChartroomError } from "../errors/index.js";
import type { LockedChart } from "../lockfile/schema.js";
import type { EngineChoice } from "../model/engine.js";
import { staleReasons } from "../lockfile/stale.js";
import { readFileOrNull } from "../util/fs.js";
import { sha256Digest } from "../util/hash.js";
import { projectChartPath, readProjectChart, writeProjectChart } from "../store/project-charts.js";
import { mergeLayers, type Values } from "../values/coalesce.js";
import { secretStrings } from "../values/secret-keys.js";
import type { ValuesContract } from "../values/check.js";
import type { ParsedLayer } from "../values/layers.js";
import { chooseEngine, mergeStacks } from "../engine/choice.js";
import { contractOf, inspectionOf } from "../project/archives.js";
import type { Project } from "../project/project.js";
import { valuesLayers } from "../project/values-files.js";
import { lockedDigests } from "../lockfile/images.js";
import { stackName, stacksFor } from "../project/select.js";
import { postRendererFor } from "../project/post-renderer.js";

/** Everything a deployment needs, read from the config, the lock, values files and the pinned archive. */
export interface DeploymentPlan {
  spec: ChartSpec;
  pin: LockedChart;
  engine: EngineChoice;
  /**
   * The verified archive's path, relative to the program's working folder
   * (`.chartroom/charts/<chart>-<version>-<sha12>.tgz` under the project):
   * the same on every machine, so a Release is not upgraded because the
   * checkout moved. No repository, version or credential reaches Pulumi.
   */
  chart: string;
  layers: ParsedLayer[];
  /** The values files merged (the chart's defaults not included: Helm adds them). */
  fileValues: Values;
  contract: ValuesContract;
  /** Strings of the values files under secret-looking keys: kept secret wherever the chart puts them. */
  fileSecrets: string[];
  /** The chart renders a Secret: values given to a helm.v3.Release are kept secret as a whole. */
  rendersSecrets: boolean;
  /** With pinImages: the digest the lock records for each image reference, as rendered. */
  images?: ReadonlyMap<string, string>;
  /** The declared post-renderer, a relative command made relative to the program's working folder (where the engine's helm runs it). */
  postRenderer?: { command: string; args: string[] };
}

/**
 * Plan every declared chart for a stack. Reads the lock, never the network:
 * a chart missing from the lock or stale against its declaration is an error
 * that says to run `chartroom lock`.
 */
export async function deploymentPlans(project: Project, options: { stack: string }): Promise<DeploymentPlan[]> {
  const stack = stacksFor(project, project.config.stacks.length > 0 ? options.stack : undefined)[0];
  const lock = project.lock;
  if (lock === null)
    throw new ChartroomError("LOCK_MISSING", `${project.lockPath} does not exist`, {
      place: { file: project.lockPath },
      hint: "run `chartroom lock` and commit charts.lock.json",
    });
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
  const { data, path } = await pinnedArchive(project, spec, pin);
  const found = await inspectionOf(project, { data, digest: pin.digest, url: pin.url }, spec.key);
  if (found.schemaReachesOut === true) {
    // The provider's Helm validates values against the schema, fetching what it references, at every preview.
    throw new ChartroomError(
      "ARCHIVE_UNSAFE",
      `${spec.key} ${pin.version}'s values.schema.json references URLs or files, which the engine's Helm would fetch at every preview and update`,
      {
        place: { chart: spec.key },
        hint: `\`chartroom check\` lists the references (schema-external-ref); pin a version whose schema is self-contained`,
      },
    );
  }
  const layers = await valuesLayers(project, spec.key, stack);
  // The lock keys images by declared stack ("default" when the config declares none).
  if (spec.pinImages) checkImagesLocked(project, spec, pin, project.config.stacks.length > 0 ? stack : stackName(undefined));
  return {
    spec,
    pin,
    engine,
    chart: relative(process.cwd(), path).split(sep).join("/"),
    layers,
    fileValues: mergeLayers(layers.map((layer) => layer.values)),
    contract: contractOf(found),
    fileSecrets: secretStrings(layers.map((layer) => layer.values)),
    rendersSecrets: found.rendersSecrets === true,
    ...(spec.pinImages ? { images: lockedDigests(pin) } : {}),
    ...(spec.postRenderer === undefined ? {} : { postRenderer: postRendererFor(spec.postRenderer, project.config.dir, process.cwd()) }),
  };
}

/**
 * With pinImages every image the chart runs in the stack has a locked
 * digest, or the program stops before anything is registered (rather than
 * deploy a tag nobody reviewed).
 */
function checkImagesLocked(project: Project, spec: ChartSpec, pin: LockedChart, stack: string): void {
  if (pin.images === undefined) {
    throw new ChartroomError("LOCK_STALE", `${spec.key} pins its images (pinImages), and charts.lock.json records none for it`, {
      place: { file: project.lockPath, chart: spec.key },
      hint: "run `chartroom lock` (this chartroom records each chart's images) and commit charts.lock.json",
    });
  }
  const unlocked = (Object.hasOwn(pin.images, stack) ? (pin.images[stack] ?? []) : []).filter((image) => image.digest === undefined);
  if (unlocked.length === 0) return;
  throw new ChartroomError(
    "IMAGE_UNLOCKED",
    `${spec.key} pins its images (pinImages), and charts.lock.json has no digest for ${unlocked.length} of them in stack ${stack}`,
    {
      place: { file: project.lockPath, chart: spec.key },
      details: unlocked.map((image) => `${image.object} ${image.container}: ${image.image} (${image.unresolved ?? "no digest"})`),
      hint: "`chartroom images` says why; declare each image's registry under registries and run `chartroom lock`",
    },
  );
}

/**
 * The pinned archive at its project path, its digest checked again now;
 * copied there from the cache when `chartroom lock` left it only there.
 * Never the network: a program deploys what was verified, or stops.
 */
async function pinnedArchive(project: Project, spec: ChartSpec, pin: LockedChart): Promise<{ data: Buffer; path: string }> {
  const path = projectChartPath(project.config.dir, pin);
  const placed = await readProjectChart(path, pin.digest);
  if (placed !== null) return { data: placed, path };
  // The cache (filled by chartroom lock, plan, diff…), or a file:// repository: both on this disk.
  const local = (await project.store.get(pin.digest)) ?? (await fileRepositoryArchive(spec, pin));
  if (local !== null) {
    await writeProjectChart(path, local);
    return { data: local, path };
  }
  throw new ChartroomError(
    "LOCK_MISSING",
    `the pinned archive of ${spec.key} ${pin.version} is not at ${relative(project.config.dir, path)} (or is not the one the lock pins), and a Pulumi program does not use the network`,
    {
      place: { chart: spec.key, file: path },
      hint: "run `chartroom lock --frozen`: it fetches and verifies every pinned archive and puts it there",
    },
  );
}

async function fileRepositoryArchive(spec: ChartSpec, pin: LockedChart): Promise<Buffer | null> {
  const folder = spec.repository.path;
  if (spec.repository.kind !== "file" || folder === undefined) return null;
  const data = await readFileOrNull(isAbsolute(pin.url) ? pin.url : join(folder, pin.url));
  return data !== null && sha256Digest(data) === pin.digest ? data : null;
}
