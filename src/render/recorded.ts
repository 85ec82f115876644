import { displayName, type RenderedObject } from "../model/objects.js";
import { sha256Hex } from "../util/hash.js";
import { isRecord } from "../util/json.js";
import { holdsSecret } from "../values/secret-keys.js";
import type { RenderInput } from "./render.js";

/**
 * What the lock records of the inputs its facts were rendered from, per
 * stack: a later render of the pin with the very same inputs takes the
 * fields that change on every render from the lock, and renders once where
 * the probe renders twice (a review of a chart with a generated password
 * runs three helm processes, not four).
 *
 * The record is a digest, and a digest of a secret is that secret in
 * another form (a weak one is found again by trying candidates). So values
 * a Secret holds (`secretPaths`, found in the render), and values under a
 * key that looks secret, enter it only as "set": a password changed from one
 * value to another leaves the record as it was, one set or emptied does not.
 */
export interface InputsRecord {
  /** sha256 of the inputs, secret values left out. */
  digest: string;
  /** Where the values hold a string a rendered Secret holds, as JSON arrays of keys and indexes. */
  secretPaths: string[];
}

// What stands for a secret value in the digest: it is set.
const SET = "\u0000set";

/**
 * The digest of a render's inputs, secret values left out; undefined for
 * inputs no record can stand for: a post-renderer (a program whose own
 * inputs chartroom cannot see), or a `--set` flag (helm reads the flag, not
 * the parsed values).
 */
export function inputsDigest(input: Omit<RenderInput, "known">, secretPaths: readonly string[]): string | undefined {
  if (input.postRenderer !== undefined) return undefined;
  const values: unknown[] = [];
  const held = new Set(secretPaths);
  for (const layer of input.values) {
    if (layer.flag !== undefined || layer.values === undefined) return undefined;
    values.push({ name: layer.name, values: withoutSecrets(layer.values, held, [], false) });
  }
  return sha256Hex(
    JSON.stringify({
      format: 1,
      archive: input.archive.digest,
      values,
      ...renderSettings(input),
      schemaFetch: input.schemaFetch ?? null,
    }),
  );
}

/**
 * What helm is run with besides the archive and the values, as both keys of a
 * render name it (render.ts's cache key, and the record here): one list, so
 * an input added to one cannot be missing from the other.
 */
export function renderSettings(input: Pick<RenderInput, "helm" | "kubeVersion" | "apiVersions" | "releaseName" | "namespace" | "includeCrds">) {
  return {
    helm: input.helm.version,
    kubeVersion: input.kubeVersion ?? null,
    apiVersions: input.apiVersions,
    releaseName: input.releaseName,
    namespace: input.namespace,
    includeCrds: input.includeCrds ?? true,
  };
}

function withoutSecrets(value: unknown, held: ReadonlySet<string>, path: (string | number)[], secret: boolean): unknown {
  if (Array.isArray(value)) return value.map((item, index) => withoutSecrets(item, held, [...path, index], secret));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = withoutSecrets(item, held, [...path, key], holdsSecret(key, secret));
    return out;
  }
  const hidden = (secret && (typeof value === "string" || typeof value === "number")) || (typeof value === "string" && held.has(JSON.stringify(path)));
  // An empty value stays what it is: a chart generates what is not set.
  return hidden && value !== "" ? SET : value;
}

/**
 * The lock's fields that change on every render (`Kind ns/name: path`) as
 * `id path` of the objects one render made; undefined when they cannot be
 * named one to one: an object the render does not make, or two objects of
 * one name. (The lock records no inputs of a chart that names objects at
 * random: project/rendering.ts.)
 */
export function knownUnstable(entries: readonly string[], objects: readonly RenderedObject[]): string[] | undefined {
  const ids = new Map<string, string | null>();
  for (const object of objects) {
    const name = displayName(object);
    ids.set(name, ids.has(name) ? null : object.id);
  }
  const out: string[] = [];
  for (const entry of entries) {
    // Kinds, namespaces and names hold no ": ", so the first one ends the name.
    const cut = entry.indexOf(": ");
    const id = cut === -1 ? undefined : ids.get(entry.slice(0, cut));
    if (id === undefined || id === null) return undefined;
    out.push(`${id} ${entry.slice(cut + 2)}`);
  }
  return out.sort();
}
