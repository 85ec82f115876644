import { describe, expect, it } from "vitest";
import { median, ratioInterval, verdict } from "../../bench/lib/interval.js";

describe("the bench's ratio interval", () => {
  it("takes the upper median of an even count, as the bench's medians do", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([])).toBe(0);
  });

  it("is a single point when every pair measured the same", () => {
    expect(ratioInterval([120, 120, 120], [100, 100, 100])).toEqual({ low: 1.2, high: 1.2 });
  });

  it("holds the ratio of medians, and widens with the spread of the pairs", () => {
    const peer = [100, 102, 98, 101, 99, 100, 103, 97, 100];
    const steady = ratioInterval([124, 126, 122, 125, 123, 124, 127, 121, 124], peer);
    const noisy = ratioInterval([105, 140, 118, 135, 110, 124, 145, 102, 130], peer);
    const ratio = median([124, 126, 122, 125, 123, 124, 127, 121, 124]) / median(peer);
    expect(steady.low).toBeLessThanOrEqual(ratio);
    expect(steady.high).toBeGreaterThanOrEqual(ratio);
    expect(steady.high - steady.low).toBeLessThan(0.06);
    expect(noisy.high - noisy.low).toBeGreaterThan(3 * (steady.high - steady.low));
  });

  it("keeps both sides of a pair together: load that moves both moves no ratio", () => {
    // Each pair ran under its own load, the peer always 1/1.25 of ours.
    const peer = [80, 160, 100, 240, 120];
    const ours = peer.map((cost) => cost * 1.25);
    expect(ratioInterval(ours, peer)).toEqual({ low: 1.25, high: 1.25 });
  });

  it("gives the same interval for the same runs, and a wider one at a higher level", () => {
    const ours = [130, 118, 125, 140, 121];
    const peer = [100, 99, 104, 101, 98];
    expect(ratioInterval(ours, peer)).toEqual(ratioInterval(ours, peer));
    const ninety = ratioInterval(ours, peer);
    const wide = ratioInterval(ours, peer, { level: 0.99 });
    expect(wide.low).toBeLessThanOrEqual(ninety.low);
    expect(wide.high).toBeGreaterThanOrEqual(ninety.high);
  });

  it("cuts (1 - level) / 2 of the draws from each end", () => {
    // Two pairs: a draw's upper median is 100 only when both picks are the first pair
    // (a quarter of the draws), 200 otherwise. The middle 90 % holds both; the middle 40 %
    // (from the 30th percentile) only 2.
    const ours = [100, 200];
    const peer = [100, 100];
    expect(ratioInterval(ours, peer, { level: 0.9 })).toEqual({ low: 1, high: 2 });
    expect(ratioInterval(ours, peer, { level: 0.4 })).toEqual({ low: 2, high: 2 });
  });

  it("refuses runs that are not pairs", () => {
    expect(() => ratioInterval([1, 2], [1])).toThrow("needs pairs: 2 runs against 1");
    expect(() => ratioInterval([], [])).toThrow("needs pairs");
  });

  it("says met only when the whole interval is under the target, and never met over it", () => {
    expect(verdict(1.24, { low: 1.18, high: 1.29 }, 1.3)).toBe("met");
    expect(verdict(1.3, { low: 1.2, high: 1.3 }, 1.3)).toBe("met");
    expect(verdict(1.24, { low: 1.18, high: 1.34 }, 1.3)).toBe("met within noise");
    expect(verdict(1.31, { low: 1.18, high: 1.34 }, 1.3)).toBe("not met");
  });
});
