/// <reference lib="dom" />
/**
 * `widget/search.ts`: the requests of a multi-index search, and the latest
 * search winning over stale answers and failures.
 */
import { assertEquals, assertRejects } from "@std/assert";
import {
  buildRequests,
  createLatestSearch,
  DEFAULT_SEARCH_PARAMETERS,
  MAX_QUERY_LENGTH,
  type SearchClient,
  type SearchRequest,
} from "../../../widget/search.ts";

Deno.test("one request per index in order, defaults overridden by the index's parameters", () => {
  const requests = buildRequests(
    [{ name: "a" }, { name: "b", searchParameters: { hitsPerPage: 5, filters: "x" } }],
    "query",
  );
  assertEquals(requests, [
    { indexName: "a", query: "query", ...DEFAULT_SEARCH_PARAMETERS },
    { indexName: "b", query: "query", ...DEFAULT_SEARCH_PARAMETERS, hitsPerPage: 5, filters: "x" },
  ]);
});

Deno.test("queries are cut to MAX_QUERY_LENGTH", () => {
  const [request] = buildRequests([{ name: "a" }], "x".repeat(MAX_QUERY_LENGTH + 10));
  assertEquals(request.query.length, MAX_QUERY_LENGTH);
});

/** A client whose answers the test resolves or rejects by hand, in any order. */
function manualClient() {
  const pending: Array<
    { requests: SearchRequest[]; resolve(v: unknown): void; reject(e: Error): void }
  > = [];
  const client: SearchClient = {
    search: ({ requests }) =>
      new Promise((resolve, reject) => pending.push({ requests, resolve, reject })),
  };
  const answer = (i: number) =>
    pending[i].resolve({ results: [{ hits: [], query: pending[i].requests[0].query }] });
  return { client, pending, answer };
}

Deno.test("a stale answer resolves to null; the latest resolves to its results", async () => {
  const { client, pending, answer } = manualClient();
  const search = createLatestSearch(client, [{ name: "a" }]);
  const first = search("a");
  const second = search("ab");
  answer(1);
  answer(0);
  assertEquals(await second, [{ hits: [], query: "ab" }]);
  assertEquals(await first, null);
  assertEquals(pending.length, 2);
});

Deno.test("an empty query sends nothing, resolves to null, and makes pending answers stale", async () => {
  const { client, pending, answer } = manualClient();
  const search = createLatestSearch(client, [{ name: "a" }]);
  const typed = search("a");
  assertEquals(await search(""), null);
  answer(0);
  assertEquals(await typed, null);
  assertEquals(pending.length, 1);
});

Deno.test("only the latest search's failure is thrown", async () => {
  const { client, pending, answer } = manualClient();
  const search = createLatestSearch(client, [{ name: "a" }]);
  const stale = search("a");
  const latest = search("ab");
  pending[0].reject(new Error("stale failure"));
  assertEquals(await stale, null);
  pending[1].reject(new Error("HTTP 500"));
  await assertRejects(() => latest, Error, "HTTP 500");
  answer(0);
});
