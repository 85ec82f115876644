import { dump, load } from "js-yaml";
import { ChartroomError } from "../errors/index.js";
import { imagesOf, type ImageField } from "../images/extract.js";
import { pinBody } from "../images/pin.js";
import { pinnedReference } from "../images/reference.js";
import { groupOf } from "../render/kinds.js";

// What the post-renderer pinImages gives a helm.v3.Release does to the
// manifests Helm pipes through it (hooks excluded; cli/post-render.ts is the
// program). Each image line is
// rewritten in place, so the `# Source:` comments and the layout stay; a
// document whose images are not all found that way is written out whole.

/** What the generated post-renderer script passes. */
export interface PostRenderSettings {
  chart: string;
  /** Reference as rendered → locked digest. */
  digests: Record<string, string>;
  fields: ImageField[];
  /** The chart's own post-renderer, run first. */
  first?: { command: string; args: string[] };
}

/** The manifests with every image pinned; an image the lock does not record stops the render (exit 1). */
export function pinManifests(text: string, settings: PostRenderSettings): string {
  const digests = new Map(Object.entries(settings.digests));
  const missing: string[] = [];
  const documents = text.split(/^---[ \t]*$/m).map((document) => pinDocument(document, digests, settings.fields, missing));
  if (missing.length > 0) {
    throw new ChartroomError("LOCK_STALE", `charts.lock.json records no digest for ${[...new Set(missing)].join(", ")} (chart ${settings.chart}, pinImages)`, {
      place: { chart: settings.chart },
      hint: "run `chartroom lock` (it records every image the charts run), commit charts.lock.json and deploy again",
    });
  }
  return documents.join("---");
}

function pinDocument(text: string, digests: ReadonlyMap<string, string>, fields: readonly ImageField[], missing: string[]): string {
  let body: unknown;
  try {
    body = load(text);
  } catch {
    return text; // Helm itself reports a document it cannot read.
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) return text;
  const object = manifestObject(body as Record<string, unknown>);
  const uses = imagesOf(object, fields).filter((use) => use.reference !== undefined && use.reference.digest === undefined);
  if (uses.length === 0) return text;
  let out = text;
  for (const use of uses) {
    const digest = digests.get(use.written);
    if (digest === undefined) {
      missing.push(use.written);
      continue;
    }
    out = replaceImageLines(out, use.written, pinnedReference(use.written, digest));
  }
  if (missing.length > 0) return text;
  if (allPinned(out, digests, fields)) return out;
  // A layout the line rewrite missed (flow style, an anchor): the document whole, pinned.
  const pinned = pinBody(object, digests, fields).body;
  const source = /^\s*#\s*Source:.*$/m.exec(text)?.[0];
  return `\n${source === undefined ? "" : `${source.trim()}\n`}${dump(pinned, { lineWidth: -1, noRefs: true })}`;
}

/** A manifest's body as the image readers take it: its group (from apiVersion), kind and body. */
export function manifestObject(body: Record<string, unknown>): { group: string; kind: string; body: Record<string, unknown> } {
  return { group: groupOf(typeof body.apiVersion === "string" ? body.apiVersion : ""), kind: typeof body.kind === "string" ? body.kind : "", body };
}

function replaceImageLines(text: string, written: string, pinned: string): string {
  const escaped = written.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const line = new RegExp(`^(\\s*(?:-\\s+)?image:\\s*)(["']?)${escaped}\\2(\\s*(?:#.*)?)$`, "gm");
  return text.replace(line, (_match, head: string, quote: string, tail: string) => `${head}${quote}${pinned}${quote}${tail}`);
}

function allPinned(text: string, digests: ReadonlyMap<string, string>, fields: readonly ImageField[]): boolean {
  const body = load(text);
  if (body === null || typeof body !== "object") return false;
  return imagesOf(manifestObject(body as Record<string, unknown>), fields).every(
    (use) => use.reference === undefined || use.reference.digest !== undefined || !digests.has(use.written),
  );
}
