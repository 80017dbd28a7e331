/**
 * The median the benchmarks print.
 *
 * @module
 */

/**
 * The median of `values` (the mean of the two middle ones for an even count), without changing
 * `values`; `NaN` for none.
 *
 * @example
 * ```ts
 * import { median } from "./median.ts";
 *
 * median([3, 1, 2]); // 2
 * median([4, 1, 3, 2]); // 2.5
 * ```
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
