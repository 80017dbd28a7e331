/**
 * Concurrent statements of one request that all finish before the request answers: with
 * `Promise.all`, the first failure answers the request while its sibling statements still run
 * (their connections busy, their rows loaded for nobody, their log lines after the response).
 *
 * @module
 */

/**
 * Waits until every promise of `work` has settled, then throws the first failure (in `work`'s
 * order) or returns the values.
 *
 * @throws the reason of the first rejected promise
 */
export async function allSettled<T>(work: readonly Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(work);
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
