/**
 * "Did you mean ...?": the closest of a list of known names to a name that is not among them,
 * by edit distance (insertions, deletions, substitutions and transpositions of neighbours, case
 * ignored), when it is close enough to be the likely intent.
 *
 * @module
 */

/** Edit distance between `a` and `b` (optimal string alignment: a swap of neighbours is 1). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The known name closest to `name`, when at most a third of its length (at least 1, at most 3)
 * edits away, or when one is a case-insensitive prefix of the other; `undefined` otherwise.
 */
export function closest(name: string, known: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  const lower = best.toLowerCase();
  const prefix = wanted.length >= 3 && (lower.startsWith(wanted) || wanted.startsWith(lower));
  return bestDistance <= limit || prefix ? best : undefined;
}

/** `' (did you mean "x"?)'` for the closest known name, or `""`. */
export function didYouMean(name: string, known: Iterable<string>, quote = '"'): string {
  const match = closest(name, known);
  return match === undefined ? "" : ` (did you mean ${quote}${match}${quote}?)`;
}
