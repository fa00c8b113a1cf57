/**
 * The Wilson score interval of a rate, for the two places that weigh run outcomes: the learning
 * detail's evidence (rules/ledger.ts `wilsonLower`) and Worth a look's failing rule
 * (rules/worth.ts). Its own module so the ledger's rules do not depend on the display-only one.
 */

/** z of a two-sided 95% interval: the confidence the failing rule asks for on each side. */
export const Z_95 = 1.959964;

export interface Interval {
  lower: number;
  upper: number;
}

/**
 * The Wilson score interval of a rate of `hits` in `trials` (95% by default). Chosen over the
 * plain p ± z·√(p(1−p)/n) because that collapses to a single point at 0% and 100% (0 of 5 would
 * claim certainty) and leaves [0, 1] on tiny samples; Wilson stays inside [0, 1] and stays wide
 * while the sample is small. No trials: the whole of [0, 1], nothing is known.
 */
export function wilsonInterval(hits: number, trials: number, z = Z_95): Interval {
  if (trials <= 0) return { lower: 0, upper: 1 };
  const p = hits / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const margin = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  const scale = 1 + z2 / trials;
  return { lower: Math.max(0, (centre - margin) / scale), upper: Math.min(1, (centre + margin) / scale) };
}
