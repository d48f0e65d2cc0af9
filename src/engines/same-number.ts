/** When two SI numbers of a spec are the same value, for both engines' value filters (SpecFilter `nums`). */

/** Relative difference within which two SI numbers are the same value (the float noise of unit conversions: 0.1e-6 and 100e-9). */
export const SAME_NUMBER = 1e-9;

/** The bounds [lo, hi] of the numbers that are the same value as `v`. */
export function sameNumberBounds(v: number): [number, number] {
  const d = Math.abs(v) * SAME_NUMBER;
  return [v - d, v + d];
}
