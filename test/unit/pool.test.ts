import { describe, expect, it } from "vitest";
import { limiter } from "../../src/util/pool.js";

/** A task that resolves when told to, counting how many run at once. */
function gate() {
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const release: (() => void)[] = [];
  const task = (n: number) => async () => {
    started.push(n);
    most = Math.max(most, ++running);
    await new Promise<void>((resolve) => release.push(resolve));
    running--;
    return n;
  };
  return { task, started, release, most: () => most };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("limiter", () => {
  it("runs at most its limit at once, the rest in the order they came, each with its own result", async () => {
    const run = limiter(3);
    const g = gate();
    const results = Array.from({ length: 8 }, (_, n) => run(g.task(n)));
    await settle();
    expect(g.started).toStrictEqual([0, 1, 2]);
    for (let step = 0; step < 8; step++) {
      g.release.shift()?.();
      await settle();
    }
    expect(await Promise.all(results)).toStrictEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(g.started).toStrictEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(g.most()).toBe(3);
  });

  it("gives a failed task's slot to the next, and the failure to its caller only", async () => {
    const run = limiter(1);
    const failed = run(async () => {
      throw new Error("helm exited 1");
    });
    const next = run(async () => "rendered");
    await expect(failed).rejects.toThrow("helm exited 1");
    expect(await next).toBe("rendered");
    // The slot is free again: a later task starts at once.
    let started = false;
    const later = run(async () => {
      started = true;
    });
    await settle();
    expect(started).toBe(true);
    await later;
  });
});
