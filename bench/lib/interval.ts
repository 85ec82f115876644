// How sure a ratio of two medians is. A bench figure is the median of a
// few paired runs on a busy machine: the cold app diff measured 1.20× in
// one run and 1.35× in the next, with the same code. The interval says how
// far the ratio could be from the one printed, from the runs themselves.

/** The median as the bench takes it: the upper one of an even count. */
export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export interface Interval {
  low: number;
  high: number;
}

/**
 * The middle `level` of the ratios median(ours) / median(peer) over
 * bootstrap draws: each draw takes as many pairs as were run, with
 * replacement, and keeps both sides of a pair together (they ran under the
 * same load). A seeded generator: the same runs give the same interval.
 */
export function ratioInterval(ours: number[], peer: number[], options: { level?: number; draws?: number; seed?: number } = {}): Interval {
  if (ours.length !== peer.length || ours.length === 0) throw new Error(`ratioInterval needs pairs: ${ours.length} runs against ${peer.length}`);
  const level = options.level ?? 0.9;
  const draws = options.draws ?? 2000;
  const random = generator(options.seed ?? 1);
  const ratios: number[] = [];
  for (let draw = 0; draw < draws; draw++) {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < ours.length; i++) {
      const pick = Math.floor(random() * ours.length);
      a.push(ours[pick] as number);
      b.push(peer[pick] as number);
    }
    ratios.push(median(a) / median(b));
  }
  ratios.sort((x, y) => x - y);
  const cut = Math.floor(((1 - level) / 2) * draws);
  return { low: ratios[cut] as number, high: ratios[draws - 1 - cut] as number };
}

/** mulberry32: small, seeded, evenly spread in [0, 1). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Verdict = "met" | "met within noise" | "not met";

/**
 * A ratio against its target: met when the whole interval is under it;
 * within noise when the median pair is but the interval reaches past it
 * (more runs tell); not met when the median pair is over, whatever the interval.
 */
export function verdict(ratio: number, interval: Interval, target: number): Verdict {
  if (ratio > target) return "not met";
  return interval.high <= target ? "met" : "met within noise";
}
