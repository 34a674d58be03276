/**
 * Summary statistics of latency samples (median, p95, mean, min, max), in one place so every report
 * computes them the same way. p95 is the nearest-rank percentile: the smallest sample with at least
 * 95 % of the samples at or below it.
 */

export interface Stats {
  n: number;
  median_ms: number;
  p95_ms: number;
  mean_ms: number;
  min_ms: number;
  max_ms: number;
}

export function statsOf(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const at = (i: number): number => sorted[Math.min(n - 1, Math.max(0, i))] ?? Number.NaN;
  const median = n % 2 === 1 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
  return {
    n,
    median_ms: median,
    p95_ms: at(Math.ceil(0.95 * n) - 1),
    mean_ms: sorted.reduce((sum, value) => sum + value, 0) / n,
    min_ms: at(0),
    max_ms: at(n - 1),
  };
}
