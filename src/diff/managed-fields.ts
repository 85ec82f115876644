// What a field manager owns in an object (its managedFields entry, the
// fieldsV1 trie the API server keeps), compared with another version of the
// object: the live object against chartroom's render (the cluster tests'
// fidelity), or against the server's dry-run answer (the live review).
// Pure: no I/O.
import { isDeepStrictEqual } from "node:util";
import { InternalError } from "../errors/index.js";

export interface ManagedEntry {
  manager: string;
  operation: string;
  subresource?: string;
  fieldsV1?: Trie;
}

export interface Trie {
  [key: string]: Trie;
}

export interface Fidelity {
  /** Owned leaves whose live value differs from the other one (the live value undefined: the field is new). */
  differs: { path: string; live: unknown; rendered: unknown }[];
  /** Owned leaves the other object does not have (in a render: what the server filled in for the manager). */
  added: string[];
}

type Json = unknown;

/** The entry of a manager in an object's managedFields (the first, for one operation), if it has one. */
export function entryOf(managed: readonly ManagedEntry[] | undefined, manager: string, operation = "Apply"): ManagedEntry | undefined {
  return managed?.find((entry) => entry.manager === manager && entry.operation === operation && entry.subresource === undefined);
}

/**
 * Walk the trie of `entry` over the live object and the rendered one at once:
 * every owned leaf (a field, an atomic struct or list, a set member) is
 * compared whole.
 */
export function fidelity(entry: ManagedEntry, live: Json, rendered: Json): Fidelity {
  const out: Fidelity = { differs: [], added: [] };
  walk(entry.fieldsV1 ?? {}, live, rendered, "", out);
  return out;
}

function walk(trie: Trie, live: Json, rendered: Json, path: string, out: Fidelity): void {
  for (const [key, below] of Object.entries(trie)) {
    if (key === ".") continue;
    const [liveChild, renderedChild, step] = descend(key, live, rendered);
    const at = `${path}${step}`;
    const leaf = Object.keys(below).length === 0;
    if (renderedChild === undefined) {
      // The render has nothing here: the whole subtree is what the server filled in.
      out.added.push(at);
      continue;
    }
    if (leaf) {
      if (!isDeepStrictEqual(liveChild, renderedChild)) out.differs.push({ path: at, live: liveChild, rendered: renderedChild });
      continue;
    }
    walk(below, liveChild, renderedChild, at, out);
  }
}

/** The children of both objects that a trie key names, and the key as a path step. */
function descend(key: string, live: Json, rendered: Json): [Json, Json, string] {
  const kind = key.slice(0, 2);
  const rest = key.slice(2);
  if (kind === "f:") return [field(live, rest), field(rendered, rest), `.${rest}`];
  if (kind === "k:") {
    const wanted = JSON.parse(rest) as Record<string, unknown>;
    return [member(live, wanted), member(rendered, wanted), `[${rest}]`];
  }
  if (kind === "v:") {
    const value = JSON.parse(rest) as unknown;
    const has = (list: Json) => (Array.isArray(list) && list.some((item) => isDeepStrictEqual(item, value)) ? value : undefined);
    return [has(live), has(rendered), `[=${rest}]`];
  }
  if (kind === "i:") {
    const index = Number(rest);
    return [Array.isArray(live) ? live[index] : undefined, Array.isArray(rendered) ? rendered[index] : undefined, `[${index}]`];
  }
  throw new InternalError(`unknown fieldsV1 key ${key}`);
}

function field(object: Json, name: string): Json {
  return object !== null && typeof object === "object" && !Array.isArray(object) ? (object as Record<string, Json>)[name] : undefined;
}

/**
 * The list member with these key fields. A key field the render leaves out
 * (a port's `protocol`) is one the server defaulted: the member still matches
 * on the keys it has.
 */
function member(list: Json, wanted: Record<string, unknown>): Json {
  if (!Array.isArray(list)) return undefined;
  return list.find((item: Record<string, unknown>) => {
    const present = Object.keys(wanted).filter((name) => item?.[name] !== undefined);
    return present.length > 0 && present.every((name) => isDeepStrictEqual(item[name], wanted[name]));
  });
}
