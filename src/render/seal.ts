import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { makeFolder, writeError } from "../util/fs.js";

const CACHE_HINT = "make the cache writable, or point CHARTROOM_CACHE at a folder that is";
import { join } from "node:path";
import { rememberSecret } from "../errors/secrets.js";
import type { RenderedObject } from "../model/objects.js";
import type { ValuesLayer } from "../model/values.js";
import { isRecord } from "../util/json.js";
import { sealDigest, sealedBytes, sealedDigest, sealValue } from "../util/sealed.js";
import { parse } from "yaml";

const FIELDS = ["data", "stringData"] as const;

/** Whether an object is a Secret (core group). */
export function isSecretObject(object: RenderedObject): boolean {
  return object.group === "" && object.kind === "Secret";
}

/**
 * Every Secret value replaced by its sealed form: what the render cache
 * keeps and what reports work from unless secrets are asked for. Keys stay.
 */
export function sealSecrets(objects: RenderedObject[], key: Buffer): RenderedObject[] {
  return objects.map((object) => {
    if (!isSecretObject(object)) return object;
    const body = { ...object.body };
    for (const field of FIELDS) {
      const values = body[field];
      if (isRecord(values)) body[field] = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, sealValue(value, field, key)]));
    }
    return { ...object, body };
  });
}

/**
 * Strings of the platform's values that a Secret holds whole: from now on
 * they are scrubbed from everything chartroom prints, as credentials are.
 */
export function rememberValuesInSecrets(objects: readonly RenderedObject[], layers: readonly ValuesLayer[], key: Buffer): void {
  const held = heldBySecrets(objects, key);
  if (held === undefined) return;
  for (const layer of layers) eachString(valuesOf(layer), (text) => held(text) && rememberSecret(text));
}

/**
 * Where the values hold a string a Secret holds whole, each path as a JSON
 * array of keys and indexes: what a record of a render's inputs leaves out
 * (render/recorded.ts).
 */
export function valuePathsInSecrets(objects: readonly RenderedObject[], layers: readonly ValuesLayer[], key: Buffer): string[] {
  const held = heldBySecrets(objects, key);
  if (held === undefined) return [];
  const paths = new Set<string>();
  for (const layer of layers) eachString(valuesOf(layer), (text, path) => held(text) && paths.add(JSON.stringify(path)));
  return [...paths].sort();
}

/** Whether a string is one of the Secrets' values, sealed under `key`; undefined when the objects have no Secret value. */
function heldBySecrets(objects: readonly RenderedObject[], key: Buffer): ((text: string) => boolean) | undefined {
  const sealed = new Set<string>();
  const lengths = new Set<number>();
  for (const object of objects) {
    if (!isSecretObject(object)) continue;
    for (const field of FIELDS) {
      const values = object.body[field];
      if (!isRecord(values)) continue;
      for (const value of Object.values(values)) {
        const digest = sealedDigest(value);
        if (digest !== undefined) sealed.add(digest);
        const bytes = sealedBytes(value);
        if (bytes !== undefined) lengths.add(bytes);
      }
    }
  }
  if (sealed.size === 0) return undefined;
  // Only a string of a sealed value's length can be it: a values file has thousands of strings.
  return (text) => lengths.has(Buffer.byteLength(text)) && sealed.has(sealDigest(text, key));
}

function valuesOf(layer: ValuesLayer): unknown {
  return layer.values ?? safeParse(layer.text);
}

function safeParse(text: string): unknown {
  try {
    return parse(text, { uniqueKeys: false, maxAliasCount: 1000 });
  } catch {
    return undefined;
  }
}

/** Every string in a values tree, with its path of keys and indexes (one stack for the walk: a values file can hold millions of strings). */
function eachString(value: unknown, visit: (text: string, path: readonly (string | number)[]) => unknown, path: (string | number)[] = []): void {
  if (typeof value === "string") {
    visit(value, path);
  } else if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      eachString(value[index], visit, path);
      path.pop();
    }
  } else if (isRecord(value)) {
    for (const name of Object.keys(value)) {
      path.push(name);
      eachString(value[name], visit, path);
      path.pop();
    }
  }
}

// One key per cache folder for the life of the process.
const keys = new Map<string, Promise<Buffer>>();

/** The cache's sealing key: 32 random bytes in `<cache>/secret-key`, owner-only, made on first use. */
export function sealingKey(cacheRoot: string): Promise<Buffer> {
  let hit = keys.get(cacheRoot);
  if (hit === undefined) {
    hit = loadKey(join(cacheRoot, "secret-key"));
    keys.set(cacheRoot, hit);
  }
  return hit;
}

async function loadKey(path: string): Promise<Buffer> {
  const existing = await readFile(path).catch(() => undefined);
  if (existing !== undefined && existing.length === 32) return existing;
  await makeFolder(join(path, ".."), "the cache", CACHE_HINT, 0o700);
  const key = randomBytes(32);
  try {
    // wx: two runs making the key at once keep the first one's.
    await writeFile(path, key, { mode: 0o600, flag: existing === undefined ? "wx" : "w" });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readFile(path);
    throw writeError(error, path, "the cache's sealing key", CACHE_HINT);
  }
}
