// Small helpers the benchmarks share: waiting, rounding, and nearest-rank percentiles.

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The nearest-rank `p`th percentile of `values` (any order); undefined when there are none. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
