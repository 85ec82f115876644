import { diffValues } from "../util/tree.js";
import { formatPath } from "../util/tree-path.js";
import { z } from "zod";
import { recordStore } from "../store/records.js";
import { sha256Hex } from "../util/hash.js";
import type { SharedBlocks } from "./fast-yaml.js";
import { parseManifest } from "./manifest.js";
import { type RenderedObject } from "../model/objects.js";
import type { Runner } from "./run.js";
import { helmTemplate, type TemplateRequest } from "./template.js";
import { settleAll } from "../util/pool.js";
import { rememberValuesInSecrets, sealingKey, sealSecrets } from "./seal.js";

/** What `helm template` gets, with the archive's digest (part of the cache key) instead of a bare path. */
export interface RenderInput extends Omit<TemplateRequest, "chart" | "timeoutMs"> {
  archive: { path: string; digest: string };
  /**
   * The chart's templates call nothing that differs between renders: one
   * render is enough (else a second finds the fields that change every time).
   * @default false
   */
  deterministic?: boolean;
}

export interface Rendering {
  objects: RenderedObject[];
  /** `id path` of every field that differed between two renders of the same inputs. */
  unstable: string[];
  cached: boolean;
  /** The render's inputs as a key (renderKey); absent for a revealed render, whose Secrets are not sealed. */
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
 * Render a chart twice with the same inputs and keep what differs as
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
  const cache = recordStore(options.cacheRoot, "render", 3, renderRecordSchema, { mode: 0o600 });
  const key = await sealingKey(options.cacheRoot);
  const cacheKey = renderKey(input);
  const reveal = options.reveal === true;
  if (options.noCache !== true && !reveal) {
    const hit = await cache.read(cacheKey);
    if (hit !== null) {
      rememberValuesInSecrets(hit.objects, input.values, key);
      return { ...hit, cached: true, key: cacheKey };
    }
  }
  options.onHelm?.();
  const request = { ...input, chart: input.archive.path };
  const [first, second] = input.deterministic === true ? await helmTemplate(request, options.run).then((text) => [text, text] as const) : await settleAll([helmTemplate(request, options.run), helmTemplate(request, options.run)]);
  const shared = options.shared ?? new Map();
  const parsed = parseManifest(first, input.namespace, input.label, shared);
  const again = first === second ? parsed : parseManifest(second, input.namespace, input.label, shared);
  const sealed = sealSecrets(parsed, key);
  rememberValuesInSecrets(sealed, input.values, key);
  const unstable = first === second ? [] : unstableFields(sealed, again === parsed ? sealed : sealSecrets(again, key));
  if (reveal) return { objects: parsed, unstable, cached: false };
  const rendering = { objects: sealed, unstable };
  await cache.write(cacheKey, rendering);
  return { ...rendering, cached: false, key: cacheKey };
}

// Written by chartroom itself: the shape is checked, each object is trusted.
const renderRecordSchema = z.object({
  objects: z.array(z.custom<RenderedObject>((object) => typeof object === "object" && object !== null && typeof (object as { id?: unknown }).id === "string")),
  unstable: z.array(z.string()),
});

export function renderKey(input: RenderInput): string {
  return sha256Hex(
    JSON.stringify({
      format: 2,
      digest: input.archive.digest,
      values: input.values.map((layer) => layer.text),
      helm: input.helm.version,
      kubeVersion: input.kubeVersion ?? null,
      apiVersions: input.apiVersions,
      releaseName: input.releaseName,
      namespace: input.namespace,
      includeCrds: input.includeCrds ?? true,
      postRenderer: input.postRenderer ?? null,
    }),
  );
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
