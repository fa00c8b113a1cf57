/**
 * A seeded pseudo-random generator (mulberry32): the same numbers in [0, 1) for the same seed on
 * every machine. The demo factory uses it so a seed always gives the same history; the tests and
 * the benchmark so a failure can be replayed and every run measures the same texts.
 * Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
