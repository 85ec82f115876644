/**
 * Items of `left` paired with items of `right` that fall in the same slot,
 * first with first, in the order each list has them; the rest unpaired.
 */
export function pairBySlot<T>(left: readonly T[], right: readonly T[], slot: (item: T) => string): Map<T, T> {
  const waiting = new Map<string, T[]>();
  for (const item of right) {
    const key = slot(item);
    const list = waiting.get(key);
    if (list === undefined) waiting.set(key, [item]);
    else list.push(item);
  }
  const pairs = new Map<T, T>();
  for (const item of left) {
    const twin = waiting.get(slot(item))?.shift();
    if (twin !== undefined) pairs.set(item, twin);
  }
  return pairs;
}
