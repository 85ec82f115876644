import type { ChartSpec, StackSpec } from "../config/types.js";
import { ChartroomError, InternalError } from "../errors/index.js";
import { imagesOf } from "../images/extract.js";
import type { LockedChart, LockedImage, Lockfile } from "../lockfile/schema.js";
import type { ImageSummary } from "../report/lock.js";
import { stableDisplayName } from "../model/objects.js";
import { ImageResolver, imageRegistries } from "../sources/oci/images.js";
import { mapLimit } from "../util/pool.js";
import type { Project } from "./project.js";
import { lockedUses } from "../lockfile/images.js";
import { didYouMean } from "../util/nearest.js";
import { renderFor } from "./rendering.js";
import { stackName, stacksFor } from "./select.js";
import { entryOf } from "../util/json.js";

/** How `lock` treats images. */
export interface ImageOptions {
  /** Record references only, ask no registry (`--offline`). */
  offline?: boolean;
  /** Take the digest a locked tag names now, when it moved (otherwise IMAGE_MOVED). */
  acceptMoved?: boolean;
  /** Ask again for every locked tag (lock --frozen, plan), not only new ones. */
  recheck?: boolean;
}

/** A locked tag that names another digest now. */
export interface MovedImage {
  chart: string;
  stack: string;
  image: string;
  from: string;
  to: string;
}

/** What the images of a lock came to. */
export interface ImageOutcome {
  /** Per chart key: per stack, the images. */
  images: Map<string, Record<string, LockedImage[]>>;
  moved: MovedImage[];
  /** Uses recorded without a digest, and why. */
  unresolved: { chart: string; stack: string; image: string; why: string }[];
  /** Locked digests that could not be asked again (the registry did not answer): kept, and said. */
  unchecked: { chart: string; stack: string; image: string; why: string }[];
}

/**
 * The images every chart renders in every stack (as the engine deploys
 * them, before any pinning), each with the digest its tag names: kept from
 * `previous` without a request when the same reference was locked before,
 * asked of its registry otherwise (or always, with `recheck`). A registry
 * the config does not name is never asked: the use is recorded unresolved.
 */
export async function resolveImages(
  project: Project,
  charts: Readonly<Record<string, LockedChart>>,
  previous: Readonly<Record<string, LockedChart>>,
  options: ImageOptions = {},
): Promise<ImageOutcome> {
  const resolver = new ImageResolver(imageRegistries(project.config.registries, project.config.repositories.values()), project.env);
  const outcome: ImageOutcome = { images: new Map(), moved: [], unresolved: [], unchecked: [] };
  const jobs = project.config.charts.flatMap((spec) => {
    const pin = Object.hasOwn(charts, spec.key) ? charts[spec.key] : undefined;
    return pin === undefined ? [] : stacksFor(project).map((stack) => ({ spec, pin, stack }));
  });
  // Each job says what it found on its own; merged in declaration order, so the report is the same on every run.
  const results = await mapLimit(jobs, 8, async ({ spec, pin, stack }) => {
    const own: ImageOutcome = { images: new Map(), moved: [], unresolved: [], unchecked: [] };
    return { spec, stack, own, ...(await stackImages(project, spec, pin, stack, lockedUses(previous[spec.key]), resolver, options, own)) };
  });
  checkImageFields(project, results);
  for (const { spec, stack, own, images } of results) {
    const perStack = outcome.images.get(spec.key) ?? {};
    perStack[stackName(stack)] = images;
    outcome.images.set(spec.key, perStack);
    outcome.moved.push(...own.moved);
    outcome.unresolved.push(...own.unresolved);
    outcome.unchecked.push(...own.unchecked);
  }
  return outcome;
}

async function stackImages(
  project: Project,
  spec: ChartSpec,
  pin: LockedChart,
  stack: StackSpec | undefined,
  locked: ReadonlyMap<string, LockedImage>,
  resolver: ImageResolver,
  options: ImageOptions,
  outcome: ImageOutcome,
): Promise<{ images: LockedImage[]; kinds: Set<string> }> {
  const rendering = await renderFor(project, { spec, stack, target: { pin }, raw: true });
  const out: LockedImage[] = [];
  for (const object of rendering.objects) {
    for (const use of imagesOf(object, spec.imageFields)) {
      const entry: LockedImage = { object: stableDisplayName(object), container: use.container, image: use.written };
      const reference = use.reference;
      const earlier = locked.get(use.written);
      const before = earlier?.digest;
      let why: string | undefined;
      if (reference === undefined) why = keep(entry, undefined, "not an image reference");
      else if (reference.digest !== undefined) entry.digest = reference.digest;
      else if (resolver.declared(reference.registry) === undefined) why = keep(entry, earlier, "registry not declared", undeclared(reference.registry));
      else if (options.offline === true) why = keep(entry, earlier, "offline");
      else if (before !== undefined && options.recheck !== true && options.acceptMoved !== true) Object.assign(entry, sameDigest(earlier));
      else {
        try {
          const now = await resolver.resolve(reference);
          entry.digest = now.digest;
          if (now.platforms !== undefined) entry.platforms = now.platforms;
          if (before !== undefined && before !== now.digest) {
            outcome.moved.push({ chart: spec.key, stack: stackName(stack), image: use.written, from: before, to: now.digest });
            if (options.acceptMoved !== true) Object.assign(entry, sameDigest(earlier));
          }
        } catch (error) {
          if (!ChartroomError.isInstance(error) || InternalError.isInternal(error)) throw error;
          const failed = error as ChartroomError;
          const said = `${failed.code}: ${failed.message} (${failed.hint})`;
          why = keep(entry, earlier, failed.code, said);
          if (before !== undefined) outcome.unchecked.push({ chart: spec.key, stack: stackName(stack), image: use.written, why: said });
        }
      }
      if (why !== undefined) outcome.unresolved.push({ chart: spec.key, stack: stackName(stack), image: use.written, why });
      out.push(entry);
    }
  }
  return { images: out, kinds: new Set(rendering.objects.map((object) => object.kind)) };
}

function undeclared(registry: string): string {
  return `registry ${registry} is not declared (add registries["${registry}"] to the config)`;
}

/**
 * Every `imageFields` entry names a kind some stack renders and a path that
 * holds an image there: a misspelt kind or path would otherwise lock and pin
 * nothing, and say nothing.
 */
function checkImageFields(project: Project, results: readonly { spec: ChartSpec; kinds: Set<string>; images: LockedImage[] }[]): void {
  const problems: string[] = [];
  for (const spec of project.config.charts) {
    const mine = results.filter((result) => result.spec === spec);
    if (mine.length === 0) continue; // not asked about this time
    const kinds = [...new Set(mine.flatMap((result) => [...result.kinds]))].sort();
    spec.imageFields.forEach((field, i) => {
      const at = `charts.${spec.key}.imageFields.${i}`;
      if (!kinds.includes(field.kind)) problems.push(`${at}.kind: ${spec.key} renders no ${field.kind} in any stack${didYouMean(field.kind, kinds)}`);
      else if (!mine.some((result) => result.images.some((image) => image.container === field.path && new RegExp(`^${field.kind}[. ]`).test(image.object))))
        problems.push(`${at}.path: no ${field.kind} ${spec.key} renders has a string at ${field.path}`);
    });
  }
  if (problems.length === 0) return;
  throw new ChartroomError("CONFIG_INVALID", `invalid config: ${problems.length === 1 ? problems[0] : `${problems.length} problems`}`, {
    place: { file: project.config.file },
    details: problems.length === 1 ? [] : problems,
    hint: "name a kind the chart renders and the dotted path of its image field (`chartroom render <chart>` shows them)",
  });
}

/** A locked image's digest and platform count, as locked. */
function sameDigest(earlier: LockedImage | undefined): Pick<LockedImage, "digest" | "platforms"> {
  return { digest: earlier?.digest, ...(earlier?.platforms === undefined ? {} : { platforms: earlier.platforms }) };
}

/**
 * Unasked or unanswered: the digest locked before stays (it was verified
 * then); else the lock records a short reason and the report the long one.
 */
function keep(entry: LockedImage, earlier: LockedImage | undefined, reason: string, why = reason): string | undefined {
  if (earlier?.digest !== undefined) {
    Object.assign(entry, sameDigest(earlier));
    return undefined;
  }
  entry.unresolved = reason;
  return why;
}

/** A tag moved since `lock`: the error `lock`, `lock --frozen` and `plan` stop with. */
export function movedError(project: Project, moved: readonly MovedImage[]): ChartroomError {
  const charts = [...new Set(moved.map((entry) => entry.chart))];
  const [first] = moved;
  return new ChartroomError(
    "IMAGE_MOVED",
    moved.length === 1 && first !== undefined
      ? `${first.image} (${first.chart}, stack ${first.stack}) now names ${first.to}; charts.lock.json locks ${first.from}`
      : `${moved.length} locked image tags now name other digests`,
    {
      place: { file: project.lockPath, chart: charts.join(", ") },
      details: moved.length === 1 ? [] : moved.map((entry) => `${entry.chart} (${entry.stack}): ${entry.image}: ${entry.from} → ${entry.to}`),
      hint: "a tag was pushed again: find out why; `chartroom lock --accept-moved-images` takes the new digests and lists them",
    },
  );
}

/** The report's view of an outcome. */
export function imageSummary(outcome: ImageOutcome): ImageSummary {
  let locked = 0;
  for (const perStack of outcome.images.values())
    for (const list of Object.values(perStack)) locked += list.filter((image) => image.digest !== undefined).length;
  return { locked, unresolved: outcome.unresolved, unchecked: outcome.unchecked, moved: outcome.moved };
}

/** Each image use the charts render now that the lock does not record (a values change can name other images). */
export function unlockedUses(project: Project, current: Lockfile, outcome: ImageOutcome): { chart: string; message: string }[] {
  const problems: { chart: string; message: string }[] = [];
  for (const spec of project.config.charts) {
    // A pin an older chartroom wrote records no images: nothing to hold the render to (the report says so).
    const locked = current.charts[spec.key]?.images;
    if (locked === undefined) continue;
    for (const [stack, images] of Object.entries(outcome.images.get(spec.key) ?? {})) {
      const had = new Set((entryOf(locked, stack) ?? []).map(useKey));
      for (const image of images)
        if (!had.has(useKey(image)))
          problems.push({
            chart: spec.key,
            message: `${spec.key} (${stack}): ${image.object} ${image.container} runs ${image.image}, which the lock does not record`,
          });
    }
  }
  return problems;
}

function useKey(image: LockedImage): string {
  return `${image.object}\u0000${image.container}\u0000${image.image}`;
}
