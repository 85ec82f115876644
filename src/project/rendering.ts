import { engineOf } from "../engine/choice.js";
import { ENGINES } from "../engine/records.js";
import type { EngineName } from "../model/engine.js";
import type { ChartSpec, StackSpec } from "../config/types.js";
import type { ValuesLayer } from "../model/values.js";
import type { SharedBlocks } from "../util/fast-yaml.js";
import { renderChart, renderKey, renderKeys, type RenderInput, type Rendering } from "../render/render.js";
import { engineKubernetes } from "../engine/offline.js";
import { templateCalls, type ChartInspection } from "../chart/inspect.js";
import { archiveFor, inspectionOf, targetVersion, type ArchiveTarget } from "./archives.js";
import type { Project } from "./project.js";
import { valuesFiles, valuesLayers } from "./values-files.js";
import { splitExtra, withFlags } from "../values/layers.js";
import { pinObjects, type Unpinned } from "../images/pin.js";
import { sha256Digest } from "../util/hash.js";
import { stableStringify } from "../util/json.js";
import { lockedDigests } from "../lockfile/images.js";
import { postRendererFor } from "./post-renderer.js";
import { inputsDigest, knownUnstable, type InputsRecord } from "../render/recorded.js";
import { sealingKey, valuePathsInSecrets } from "../render/seal.js";
import type { RenderedObject } from "../model/objects.js";
import { stackName } from "./select.js";

export interface RenderRequest {
  spec: ChartSpec;
  stack: StackSpec | undefined;
  /** A locked pin, or a version listed by the repository. */
  target: ArchiveTarget;
  /** @default false */
  noCache?: boolean;
  /** Shared between the two sides of one comparison. */
  shared?: SharedBlocks;
  /** Values above the platform's, as values given in code are. */
  extra?: readonly ValuesLayer[];
  /** Secret values as rendered, not sealed (--show-secrets); never cached. */
  reveal?: boolean;
  /** As helm renders it, images not pinned even when the chart pins them (what `lock` reads its images from). */
  raw?: boolean;
  /**
   * For a reader of the objects only (policies, `check`, `render`): a chart
   * whose output changes between renders is rendered once, not twice to find
   * what changes (nor a second apart when it reads the clock). Unstable
   * fields and generated names are then not known.
   * @default false
   */
  once?: boolean;
}

export interface ChartRendering extends Rendering {
  version: string;
  /** The helm that rendered it, as `3.18.6 (HELM_BIN)`. */
  helm: string;
  /** With pinImages: the image uses left as rendered, and why. */
  unpinned?: Unpinned[];
}

/** Fetch (verified) and render one chart for one stack with the platform's values. */
export async function renderFor(project: Project, request: RenderRequest): Promise<ChartRendering> {
  const input = await inputFor(project, request);
  const known = knownFromLock(request, input);
  if (known !== undefined) input.known = known;
  const onHelm = () => {
    for (const start of project.memo.whenHelmRuns.splice(0)) start();
  };
  const render = () => renderChart(input, { cacheRoot: project.cacheRoot, noCache: request.noCache, shared: request.shared, reveal: request.reveal, onHelm });
  // Revealed Secrets are kept no longer than their caller holds them.
  const keys = renderKeys(input);
  const memoKey = (key: string) => `${request.noCache === true}\u0000${key}`;
  // Rendered once: this run's rendering of the same inputs with the second render serves as well (a diff's side).
  const probed = keys.probed === keys.key ? undefined : project.memo.renderings.get(memoKey(keys.probed));
  const rendering = await (request.reveal === true ? render() : (probed ?? recently(project, memoKey(keys.key), render)));
  const done = { ...rendering, version: targetVersion(request.target), helm: `${input.helm.version} (${input.helm.origin})` };
  return request.raw === true || !request.spec.pinImages ? done : pinned(project, request.spec, done);
}

// Renderings a run keeps at hand: enough for a diff's sides and the policies
// over the same charts, few enough that a lock of hundreds keeps no more in
// memory than it did.
const RECENT = 16;

/**
 * A rendering asked for again in the same run (a diff's side, then the
 * policies over that chart) is the one already made: not read from the cache
 * and parsed a second time.
 */
function recently(project: Project, key: string, render: () => Promise<Rendering>): Promise<Rendering> {
  const recent = project.memo.renderings;
  let hit = recent.get(key);
  if (hit === undefined) {
    hit = render();
    const made = hit;
    // One that failed is not kept.
    made.catch(() => recent.get(key) === made && recent.delete(key));
  }
  // The most recently asked for is the last to go.
  recent.delete(key);
  recent.set(key, hit);
  if (recent.size > RECENT) recent.delete(recent.keys().next().value as string);
  return hit;
}

/**
 * What the engine deploys with pinImages: every image at the digest the lock
 * records (hooks left alone under helm.v3.Release, whose Helm post-renders
 * none). The render key names the digests, so cached findings follow them.
 */
function pinned(project: Project, spec: ChartSpec, rendering: ChartRendering): ChartRendering {
  const digests = lockedDigests(project.lock?.charts[spec.key]);
  const engine = engineOfPlatform(project, spec);
  const hooksUnpinned = engine !== undefined && !ENGINES[engine].pinsHookImages;
  const { objects, unpinned } = pinObjects(rendering.objects, digests, { fields: spec.imageFields, hooksUnpinned });
  const key = rendering.key === undefined ? undefined : `${rendering.key} pinned ${sha256Digest(stableStringify([...digests].sort()))}`;
  return { ...rendering, objects, unpinned, ...(key === undefined ? {} : { key }) };
}

/**
 * Everything a render depends on, as a key, without rendering or fetching:
 * equal keys render equal objects. Undefined when the archive's digest is
 * not known beforehand (a version the lock does not pin and the index lists
 * without a digest).
 */
export async function renderInputsKey(project: Project, request: RenderRequest): Promise<string | undefined> {
  const target = request.target;
  const digest = "pin" in target ? target.pin.digest : "fetched" in target ? target.fetched.digest : target.version.digest;
  if (digest === undefined) return undefined;
  const { spec, stack } = request;
  // The files' bytes, unparsed: equal bytes parse equally, and hundreds of pairs are compared.
  const files = (await valuesFiles(project, spec.key, stack?.name)).map((file) => ({ name: file.name, text: file.text ?? "\u0000absent" }));
  const input = await inputOf(project, request, { path: "", digest }, "", files);
  return `${renderKey(input)} ${engineOfPlatform(project, spec) ?? "?"}`;
}

async function renderInput(project: Project, request: RenderRequest, digest: string): Promise<RenderInput> {
  const { spec, stack } = request;
  const layers = await valuesLayers(project, spec.key, stack?.name);
  // A --set that helm would refuse over these values files (a.b=1 where a is text) is refused here, in chartroom's words.
  const { files, flags } = splitExtra(request.extra ?? []);
  withFlags([...layers, ...files], flags);
  return inputOf(project, request, { path: project.store.pathOf(digest), digest }, `${spec.key}-${targetVersion(request.target)}`, layers);
}

async function inputOf(project: Project, request: RenderRequest, archive: RenderInput["archive"], label: string, files: ValuesLayer[]): Promise<RenderInput> {
  const { spec, stack } = request;
  return {
    helm: await project.helm(engineOfPlatform(project, spec)),
    archive,
    label,
    releaseName: spec.releaseName,
    namespace: spec.namespace,
    // As the engine renders it: an offline stack's helm.v4.Chart charts for the provider's v1.20.0.
    ...engineKubernetes(engineOfPlatform(project, spec), stack),
    values: [...files, ...(request.extra ?? [])],
    includeCrds: !spec.skipCrds,
    ...(spec.postRenderer === undefined ? {} : { postRenderer: postRendererFor(spec.postRenderer, project.config.dir) }),
  };
}

/** What `helm template` gets for a request, and what the chart's templates say about rendering it twice. */
async function inputFor(project: Project, request: RenderRequest): Promise<RenderInput> {
  const archive = await archiveFor(project, request.spec, request.target);
  const inspection = await inspectionOf(project, archive, `${request.spec.chart}-${targetVersion(request.target)}`);
  const base = await renderInput(project, request, archive.digest);
  // Under tpl, the values' own template calls count as the chart's.
  const evaluated = inspection.evaluatesValues === true ? base.values.map((layer) => templateCalls(layer.text)) : [];
  return {
    ...base,
    deterministic: inspection.deterministic && !evaluated.some((calls) => calls.changes),
    readsClock: inspection.readsClock === true || evaluated.some((calls) => calls.readsClock),
    roundsClock: inspection.roundsClock === true || evaluated.some((calls) => calls.roundsClock),
    ...schemaFetchOf(inspection),
    ...(request.once === true ? { once: true } : {}),
  };
}

/**
 * A pin's fields that change on every render, from the lock, when it
 * recorded them for these very inputs (render/recorded.ts): the pinned side
 * of a review is rendered once.
 */
function knownFromLock(request: RenderRequest, input: RenderInput): RenderInput["known"] {
  if (!("pin" in request.target) || input.deterministic === true || input.once === true) return undefined;
  const stack = stackName(request.stack);
  const record = request.target.pin.renderInputs?.[stack];
  const entries = request.target.pin.unstable?.[stack];
  if (record === undefined || entries === undefined) return undefined;
  return () => (inputsDigest(input, record.secretPaths) === record.digest ? (objects) => knownUnstable(entries, objects) : undefined);
}

/**
 * What the lock records of the inputs a pin's facts were rendered from, for
 * one stack (render/recorded.ts): nothing for a chart rendered once anyway,
 * nor for one that names objects at random (only a second render tells
 * those names from the rest, and the lock lists no object without a field
 * that changes).
 */
export async function inputsRecordOf(project: Project, request: RenderRequest, objects: readonly RenderedObject[]): Promise<InputsRecord | undefined> {
  const input = await inputFor(project, request);
  if (input.deterministic === true || input.once === true || objects.some((object) => object.generatedName !== undefined)) return undefined;
  const secretPaths = valuePathsInSecrets(objects, input.values, await sealingKey(project.cacheRoot));
  const digest = inputsDigest(input, secretPaths);
  return digest === undefined ? undefined : { digest, secretPaths };
}

/** The engine a chart renders for: as declared, else as last locked (unknown before the first lock). */
function engineOfPlatform(project: Project, spec: ChartSpec): EngineName | undefined {
  return engineOf(spec, project.lock?.charts[spec.key]);
}

/** What Helm would fetch validating the chart's values (render/template.ts turns its validation off then). */
function schemaFetchOf(inspection: ChartInspection): Pick<RenderInput, "schemaFetch"> {
  if (inspection.schemaReachesOut === true) return { schemaFetch: "references" };
  return inspection.schemaNamesUnknownMeta === true ? { schemaFetch: "meta-schema" } : {};
}
