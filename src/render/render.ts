import { diffValues } from "../util/tree.js";
import { formatPath } from "../util/tree-path.js";
import * as z from "../util/zod.js";
import { recordStore } from "../store/records.js";
import { RENDER_RECORDS } from "../util/cache-root.js";
import { sha256Hex } from "../util/hash.js";
import type { SharedBlocks } from "../util/fast-yaml.js";
import { parseManifest } from "./manifest.js";
import { namedAs, templateSlot, type RenderedObject } from "../model/objects.js";
import { pairBySlot } from "../util/pairs.js";
import type { Runner } from "./run.js";
import { helmTemplate, skipsSchemaValidation, type TemplateRequest } from "./template.js";
import { settleAll } from "../util/pool.js";
import { rememberValuesInSecrets, sealingKey, sealSecrets } from "./seal.js";
import { renderSettings } from "./recorded.js";

/** What `helm template` gets, with the archive's digest (part of the cache key) instead of a bare path. */
export interface RenderInput extends Omit<TemplateRequest, "chart" | "timeoutMs"> {
  archive: { path: string; digest: string };
  /**
   * The chart's templates call nothing that differs between renders: one
   * render is enough (else a second finds the fields that change every time).
   * @default false
   */
  deterministic?: boolean;
  /** Its templates read the clock: the two renders are made in different seconds, so a time-derived field shows as changing. */
  readsClock?: boolean;
  /** They round the time since a date to the second (`ago`): the two renders are a whole second apart. */
  roundsClock?: boolean;
  /**
   * Nothing will ask which fields change on every render (a check, the
   * policies, `render`): one render, even of a chart whose output changes
   * between renders. A rendering of the same inputs made with the second
   * render is taken when the cache has one.
   * @default false
   */
  once?: boolean;
  /**
   * The fields the lock recorded as changing on every render of these very
   * inputs (render/recorded.ts), asked only when helm is to run (checking
   * the record reads every value): undefined when there is no such record,
   * else what names them as `id path` of the objects the first render made,
   * taken instead of a second render. That gives undefined when they do not
   * name those objects one to one; the second render runs then.
   */
  known?: () => ((objects: readonly RenderedObject[]) => string[] | undefined) | undefined;
}

export interface Rendering {
  objects: RenderedObject[];
  /** `id path` of every field that differed between two renders of the same inputs; none asked for when rendered `once`. */
  unstable: string[];
  cached: boolean;
  /** The render's inputs as a key (renderKey); absent for a revealed render, whose Secrets are not sealed, and a post-rendered one, which is never cached. */
  key?: string;
}

export interface RenderOptions {
  cacheRoot: string;
  /** Called when helm is about to run (the cache did not have the answer). */
  onHelm?: () => void;
  noCache?: boolean;
  /**
   * Secret values as rendered (for --show-secrets): neither read from nor
   * written to the cache. Otherwise every Secret value is sealed (a keyed
   * digest and its length), in the cache and in what is returned.
   * @default false
   */
  reveal?: boolean;
  run?: Runner;
  /** Blocks read by earlier parses (the other side of a diff), reused when the text matches. */
  shared?: SharedBlocks;
}

/**
 * Render a chart twice with the same inputs (the second without crds/) and keep what differs as
 * "changes on every render" (randAlphaNum, genCA, now…). Both are cached
 * under a key of every input, so a warm run renders nothing.
 */
// Renders under way in this process, by key: one key is never rendered twice at once.
const inFlight = new Map<string, Promise<Rendering>>();

export function renderChart(input: RenderInput, options: RenderOptions): Promise<Rendering> {
  const key = `${options.cacheRoot}\u0000${options.reveal === true}\u0000${options.noCache === true}\u0000${renderKey(input)}`;
  let running = inFlight.get(key);
  if (running === undefined) {
    running = renderOnce(input, options).finally(() => inFlight.delete(key));
    inFlight.set(key, running);
  }
  return running;
}

async function renderOnce(input: RenderInput, options: RenderOptions): Promise<Rendering> {
  // Rendered Secrets are sealed before they reach the cache; the cache is owner-only all the same.
  // Format 4: objects with generated names are marked.
  const cache = recordStore(options.cacheRoot, RENDER_RECORDS, 4, renderRecordSchema, { mode: 0o600 });
  const key = await sealingKey(options.cacheRoot);
  const { key: cacheKey, probed } = renderKeys(input);
  const reveal = options.reveal === true;
  // A post-renderer is a program chartroom cannot see into: what it reads (its
  // own script, a kustomization and its patches) may change between runs under
  // the same key. Its renderings are never cached, nor what the rules find in them.
  const cacheable = input.postRenderer === undefined;
  if (options.noCache !== true && !reveal && cacheable) {
    // Rendered once: the rendering made with the second render serves as well (a diff's, or the lock's).
    for (const candidate of probed === cacheKey ? [cacheKey] : [probed, cacheKey]) {
      const hit = await cache.read(candidate);
      if (hit === null) continue;
      rememberValuesInSecrets(hit.objects, input.values, key);
      return { ...hit, cached: true, key: candidate };
    }
  }
  options.onHelm?.();
  const request = { ...input, chart: input.archive.path };
  const render = () => helmTemplate(request, options.run);
  // The probe's second render leaves out crds/: helm copies those files, it never renders
  // them, so they cannot change between renders (kube-prometheus-stack: 4.5 MB of its 5.2).
  const again = () => helmTemplate({ ...request, includeCrds: false }, options.run);
  const shared = options.shared ?? new Map();
  const parse = (text: string) => parseManifest(text, input.namespace, input.label, shared);
  const { first, second, parsed, known } = await probe(input, render, again, parse);
  const reparsed = first === second ? parsed : parse(second);
  const generated = first === second ? new Map<RenderedObject, RenderedObject>() : generatedNames(parsed, reparsed);
  const sealed = sealSecrets(markGenerated(parsed, generated), key);
  rememberValuesInSecrets(sealed, input.values, key);
  const unstable = known ?? (first === second ? [] : unstableFields(sealed, reparsed === parsed ? sealed : sealSecrets(withTwinIds(reparsed, generated), key)));
  if (reveal) return { objects: parsed, unstable, cached: false };
  const rendering = { objects: sealed, unstable };
  if (!cacheable) return { ...rendering, cached: false };
  await cache.write(cacheKey, rendering);
  return { ...rendering, cached: false, key: cacheKey };
}

interface Probed {
  first: string;
  /** The second render's text; the first's when there was none. */
  second: string;
  /** The first render's objects. */
  parsed: RenderedObject[];
  /** The fields that change on every render, from the lock's record (RenderInput.known). */
  known?: string[];
}

/**
 * The render, and the probe's second one where the fields that change on
 * every render are to be found: at once, or a second apart for a chart that
 * reads the clock, or only when the lock's record cannot name them.
 */
async function probe(
  input: RenderInput,
  render: () => Promise<string>,
  again: () => Promise<string>,
  parse: (text: string) => RenderedObject[],
): Promise<Probed> {
  if (input.deterministic === true || input.once === true) {
    const text = await render();
    return { first: text, second: text, parsed: parse(text) };
  }
  const naming = input.known?.();
  if (naming === undefined && input.readsClock !== true) {
    const [first, second] = await settleAll([render(), again()]);
    return { first, second, parsed: parse(first) };
  }
  const first = await render();
  const parsed = parse(first);
  const known = naming?.(parsed);
  if (known !== undefined) return { first, second: first, parsed, known };
  return { first, second: await (input.readsClock === true ? aSecondLater(again, input.roundsClock === true) : again()), parsed };
}

// Written by chartroom itself: the shape is checked, each object is trusted.
const renderRecordSchema = z.object({
  objects: z.array(z.custom<RenderedObject>((object) => typeof object === "object" && object !== null && typeof (object as { id?: unknown }).id === "string")),
  unstable: z.array(z.string()),
});

export function renderKey(input: RenderInput): string {
  return renderKeys(input).key;
}

// The key digests every values file's text (≈35 ms for a 10 MB file), and a
// rendering is asked for by its key in several places: once per input object.
const digests = new WeakMap<RenderInput, string>();

/**
 * The key of `input`'s rendering, and the key of the rendering made with the
 * second render, which serves it as well: the same key, unless it is
 * rendered `once` where the probe would have rendered twice.
 */
export function renderKeys(input: RenderInput): { key: string; probed: string } {
  let probed = digests.get(input);
  if (probed === undefined) {
    probed = sha256Hex(
      JSON.stringify({
        format: 2,
        digest: input.archive.digest,
        values: input.values.map((layer) => layer.text),
        ...renderSettings(input),
        postRenderer: input.postRenderer ?? null,
        skipSchemaValidation: skipsSchemaValidation(input),
      }),
    );
    digests.set(input, probed);
  }
  return { key: rendersOnce(input) ? sha256Hex(`${probed} once`) : probed, probed };
}

/** One render where the probe would have made two: the rendering knows no unstable fields, and is kept apart. */
function rendersOnce(input: Pick<RenderInput, "once" | "deterministic">): boolean {
  return input.once === true && input.deterministic !== true;
}

/**
 * The second of two renders, started in a later second than the first
 * ended: `now | date …` then differs between them at any precision down to
 * the second, and is told apart from a real change (rendered at once, both
 * fell in the same second and the field looked stable). A time rounded to
 * the nearest second (`ago`) needs the two a whole second apart: the second
 * render starts a second after the first ended.
 */
async function aSecondLater(again: () => Promise<string>, wholeSecond: boolean): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, (wholeSecond ? 1000 : 1000 - (Date.now() % 1000)) + 5));
  return again();
}

/**
 * Objects whose names differ between two renders of the same inputs
 * (`randAlphaNum` in a name): the first render's object → its twin in the
 * second, paired by kind, namespace and template, in order.
 */
function generatedNames(first: RenderedObject[], second: RenderedObject[]): Map<RenderedObject, RenderedObject> {
  const ids = (list: RenderedObject[]) => new Set(list.map((object) => object.id));
  const [one, two] = [ids(first), ids(second)];
  return pairBySlot(
    first.filter((object) => !two.has(object.id)),
    second.filter((object) => !one.has(object.id)),
    templateSlot,
  );
}

function markGenerated(objects: RenderedObject[], pairs: ReadonlyMap<RenderedObject, RenderedObject>): RenderedObject[] {
  return objects.map((object) => {
    const twin = pairs.get(object);
    return twin === undefined ? object : { ...object, generatedName: namePattern(object.name, twin.name) };
  });
}

/** The second render's twins under the first render's ids and names, so that their other fields are compared. */
function withTwinIds(objects: RenderedObject[], pairs: ReadonlyMap<RenderedObject, RenderedObject>): RenderedObject[] {
  const firstOf = new Map([...pairs].map(([first, twin]) => [twin, first]));
  return objects.map((object) => {
    const first = firstOf.get(object);
    return first === undefined ? object : namedAs(object, first);
  });
}

/** `web-test-x7k2q` and `web-test-p0a9z` → `web-test-*`: the common start, cut back to its last separator. */
function namePattern(a: string, b: string): string {
  let common = 0;
  while (common < a.length && a[common] === b[common]) common++;
  const prefix = a.slice(0, common);
  const cut = Math.max(prefix.lastIndexOf("-"), prefix.lastIndexOf("."));
  return `${cut === -1 ? "" : prefix.slice(0, cut + 1)}*`;
}

function unstableFields(first: RenderedObject[], second: RenderedObject[]): string[] {
  const again = new Map(second.map((object) => [object.id, object]));
  const out: string[] = [];
  for (const object of first) {
    const twin = again.get(object.id);
    if (twin === undefined) continue;
    for (const change of diffValues(object.body, twin.body)) out.push(`${object.id} ${formatPath(change.path)}`);
  }
  return out.sort();
}
