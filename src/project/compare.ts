import { engineOf, UNLOCKED_ENGINE } from "../engine/choice.js";
import type { EngineName } from "../model/engine.js";
import type { ChartSpec, StackSpec } from "../config/types.js";
import type { ChartReport, LiveInput, LiveSection } from "../diff/model.js";
import { chartReport, type ChartSide, type ReportOptions } from "../diff/report.js";
import { ChartroomError } from "../errors/index.js";
import type { ChartVersion } from "../model/charts.js";
import type { ValuesLayer } from "../model/values.js";
import type { SharedBlocks } from "../util/fast-yaml.js";
import type { RenderedObject } from "../model/objects.js";
import { sameValue } from "../util/tree.js";
import { mergeLayers } from "../values/coalesce.js";
import { contractDiff, type ContractChange } from "../values/contract.js";
import { highestInRange, latestVersion } from "../versions/resolve.js";
import { offlineRefusal } from "../engine/offline.js";
import { archiveFor, contractFor, inspectionOf, type ArchiveTarget } from "./archives.js";
import type { Project } from "./project.js";
import { valuesLayers } from "./values-files.js";
import { describeEngineHelm, engineHelmNote, installedProvider } from "./provider-helm.js";
import { isSecretObject } from "../render/seal.js";
import { renderFor } from "./rendering.js";
import { lockedDigests } from "../lockfile/images.js";
import { sourceOf, stackName } from "./select.js";
import { settleAll } from "../util/pool.js";

/** One side of a comparison: a project (the working tree, or the tree at a git ref) and what to render from it. */
export interface Side {
  project: Project;
  spec: ChartSpec;
  target: ArchiveTarget;
}

export interface CompareOptions extends ReportOptions {
  /** @default false */
  noCache?: boolean;
  /** Values on both sides above the platform's, as values given in code are. */
  extra?: readonly ValuesLayer[];
  /** With a cluster: review the new side's objects against it (rendered again with Secret values as they are, when it has Secrets). */
  live?: (input: LiveInput) => Promise<LiveSection>;
}

async function renderSide(
  side: Side | null,
  stack: StackSpec | undefined,
  options: CompareOptions,
  shared: SharedBlocks,
): Promise<(ChartSide & { helm: string }) | null> {
  if (side === null) return null;
  const rendering = await renderFor(side.project, {
    spec: side.spec,
    stack,
    target: side.target,
    noCache: options.noCache,
    shared,
    extra: options.extra,
    reveal: options.showSecrets,
  });
  return {
    version: rendering.version,
    objects: rendering.objects,
    unstable: new Set(rendering.unstable),
    helm: rendering.helm,
    digests: lockedDigests(side.project.lock?.charts[side.spec.key]),
  };
}

/** Render both sides for one stack and compare them. */
export async function compareSides(
  before: Side | null,
  after: Side | null,
  stack: StackSpec | undefined,
  options: CompareOptions,
  beforeStack: StackSpec | undefined = stack,
): Promise<ChartReport> {
  const shared: SharedBlocks = new Map();
  const [old, next] = await settleAll([renderSide(before, beforeStack, options, shared), renderSide(after, stack, options, shared)]);
  const spec = (after ?? before)?.spec;
  const pin = [after, before].map((side) => (side !== null && "pin" in side.target ? side.target.pin : undefined)).find((p) => p !== undefined);
  const engine = (spec === undefined ? undefined : engineOf(spec, pin)) ?? UNLOCKED_ENGINE;
  const report = chartReport(
    { chart: spec?.key ?? "?", stack: stackName(stack), engine, imageFields: spec?.imageFields ?? [], ...(stack?.offline === true ? { offline: true } : {}) },
    old,
    next,
    options,
  );
  const helm = (next ?? old)?.helm;
  if (helm !== undefined) report.helm = helm;
  // Both engines render and install with the Helm SDK the provider embeds.
  const provider = await installedProvider((after ?? before)?.project as Project);
  if (provider !== undefined) report.engineHelm = describeEngineHelm(provider);
  const mismatch = helm === undefined || provider === undefined ? undefined : engineHelmNote(helm.split(" ")[0] ?? helm, provider);
  if (mismatch !== undefined) report.notes.push(mismatch);
  const offline = after === null ? undefined : await offlineNote(after, engine);
  if (offline !== undefined) report.notes.push(offline);
  if (before !== null && after !== null && next !== null && old?.version !== next?.version) {
    report.contract = await renderedIgnores(after, stack, options, next, await contractChanges(before, after, stack));
  }
  if (options.live !== undefined && after !== null && next !== null) {
    // The server must see the real Secret values (the render seals them); the report only ever names their paths.
    const sealed = options.showSecrets !== true && next.objects.some(isSecretObject);
    const objects = sealed
      ? (await renderFor(after.project, { spec: after.spec, stack, target: after.target, noCache: true, extra: options.extra, reveal: true })).objects
      : next.objects;
    const spec = after.spec;
    report.live = await options.live({
      engine,
      objects,
      previous: old?.objects ?? [],
      previousSealed: options.showSecrets !== true,
      release: { name: spec.releaseName, namespace: spec.namespace },
    });
  }
  return report;
}

/**
 * A key the new version's defaults and schema do not know may still be read
 * by its templates. Each such finding is checked by rendering the new
 * version once more without the key: only when nothing changes is it
 * reported as ignored.
 */
async function renderedIgnores(
  after: Side,
  stack: StackSpec | undefined,
  options: CompareOptions,
  rendered: ChartSide,
  changes: ContractChange[],
): Promise<ContractChange[]> {
  const kept: ContractChange[] = [];
  for (const change of changes) {
    if (change.kind !== "ignored") {
      kept.push(change);
      continue;
    }
    const without: ValuesLayer = { name: `(without ${change.path})`, text: JSON.stringify(nullAt(change.path.split("."))) };
    const again = await renderFor(after.project, {
      spec: after.spec,
      stack,
      target: after.target,
      noCache: options.noCache,
      reveal: options.showSecrets,
      extra: [...(options.extra ?? []), without],
    });
    if (sameRender(rendered, again.objects)) kept.push(change);
  }
  return kept;
}

function nullAt(path: readonly string[]): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), null);
}

/** The same objects, those with fields that change at every render left out (they differ anyway). */
function sameRender(rendered: ChartSide, objects: readonly RenderedObject[]): boolean {
  const churning = new Set([...rendered.unstable].map((entry) => entry.split(" ")[0]));
  const stable = (list: readonly RenderedObject[]) => list.filter((object) => !churning.has(object.id)).map((object) => [object.id, object.body]);
  return sameValue(stable(rendered.objects), stable(objects));
}

/** The values contract change between the two sides' versions, for the values the newer side sets. */
async function contractChanges(before: Side, after: Side, stack: StackSpec | undefined): Promise<ContractChange[]> {
  const [was, now] = await settleAll([contractFor(before.project, before.spec, before.target), contractFor(after.project, after.spec, after.target)]);
  const layers = await valuesLayers(after.project, after.spec.key, stack?.name);
  return contractDiff(mergeLayers(layers.map((layer) => layer.values)), was, now);
}

/** A chart the provider cannot render without a cluster, said before `pulumi preview` says it. */
async function offlineNote(side: Side, engine: EngineName): Promise<string | undefined> {
  const inspection = await inspectionOf(side.project, await archiveFor(side.project, side.spec, side.target), side.spec.key);
  return offlineRefusal(engine, inspection.kubeVersion);
}

/** `1.2.3 | wanted | latest`: the version a chart would move to, as the repository lists it. */
export async function versionTarget(project: Project, spec: ChartSpec, to: string): Promise<ChartVersion> {
  const versions = await sourceOf(project, spec).listVersions(spec.chart);
  const found =
    to === "wanted"
      ? highestInRange(versions, spec.range, spec.prerelease)
      : to === "latest"
        ? latestVersion(versions, spec.prerelease)
        : versions.find((v) => v.version === to);
  if (found === undefined) {
    throw new ChartroomError("VERSION_NOT_FOUND", `${spec.chart} has no version "${to}" in ${spec.repository.url}`, {
      place: { chart: spec.key },
      hint: "pass an exact version, `wanted` or `latest`; `chartroom outdated` lists what exists",
    });
  }
  return found;
}
