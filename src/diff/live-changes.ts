// What an apply would change on a live object, split in two: the change
// under review (the two renders differ there) and drift (the renders agree,
// the cluster does not: a field changed or removed out of band since the
// last deploy, which the apply puts back). Pure: no I/O.
import { type ManagedEntry, fidelity } from "./managed-fields.js";

export interface LiveChanges {
  fields: string[];
  drift: string[];
}

export interface LiveSides {
  /** The live object, and the server's dry-run answer to the apply. */
  live: unknown;
  result: unknown;
  /** The applying manager's entries: in the dry-run answer, and in the live object (absent when it never applied). */
  applied: ManagedEntry;
  owned?: ManagedEntry;
  /** What was deployed last (the old render, or the release's manifest), and the new render; `before` absent: nothing was. */
  before?: unknown;
  after: unknown;
  /** The old side's Secret values are sealed: a Secret value never counts as drift. */
  sealedBefore: boolean;
}

export function liveChanges(sides: LiveSides): LiveChanges {
  const changed = fidelity(sides.applied, sides.live, sides.result).differs.map((item) => item.path);
  // Fields the manager owns now and the apply leaves out: it removes them.
  const removed = sides.owned === undefined ? [] : fidelity(sides.owned, sides.live, sides.result).added;
  const all = [...new Set([...changed, ...removed])].sort();
  if (sides.before === undefined) return { fields: all, drift: [] };
  const reviewed = new Set(fidelity(sides.applied, sides.before, sides.after).differs.map((item) => item.path));
  const isDrift = (path: string) => !reviewed.has(path) && !removed.includes(path) && !(sides.sealedBefore && /^\.(data|stringData)\./.test(path));
  return { fields: all.filter((path) => !isDrift(path)), drift: all.filter(isDrift) };
}

/**
 * Map keys the last deploy set that the new render drops and the live object
 * still has: what `helm upgrade`'s three-way merge removes (a server-side
 * apply by another manager would leave them). Lists are left to the apply.
 */
export function removedKeys(before: unknown, after: unknown, live: unknown, path = ""): string[] {
  if (!isMap(before) || !isMap(live)) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(before)) {
    if (!(key in live)) continue;
    const next = isMap(after) ? after[key] : undefined;
    if (next === undefined) out.push(`${path}.${key}`);
    else out.push(...removedKeys(value, next, live[key], `${path}.${key}`));
  }
  return out;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
