/**
 * Run `work` over `items` with at most `limit` in flight, keeping input order
 * in the result. The first failure rejects after in-flight work settles, so
 * no task keeps running behind the caller's back.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  async function worker(): Promise<void> {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  }
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  if (failure !== undefined) throw failure.error;
  return results;
}

/** One promise per key for the life of the map: "parse once per run". */
export function memoize<K, V>(compute: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const cache = new Map<K, Promise<V>>();
  return (key) => {
    let hit = cache.get(key);
    if (hit === undefined) {
      hit = compute(key);
      cache.set(key, hit);
    }
    return hit;
  };
}

/**
 * Promise.all that rejects only once every promise has settled: a failed
 * render must not leave its sibling still writing into a folder the caller
 * is about to remove.
 */
export async function settleAll<T extends readonly unknown[]>(promises: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const outcomes = await Promise.allSettled(promises);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/** At most `limit` of the tasks given to `run` at once, across every caller; the rest wait their turn in order. */
export function limiter(limit: number): <R>(task: () => Promise<R>) => Promise<R> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running--;
      else next();
    }
  };
}
