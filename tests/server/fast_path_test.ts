/**
 * `serve()`'s fast path (`server/fast_path.ts`) against Yoga's path: the same requests sent to a
 * server with it (the default) and to one with `fastPath: false`, each twice (the first parses
 * the document into the cache), and the second answers compared: status, `Content-Type`, body,
 * the request log's entry; `fastPathStats` tells which requests the fast path took. Then what
 * its plugins do on it: `Limits`' cost refusal, masked internal errors, a client error's code
 * and status under both `Accept` types, introspection under production, persisted operations
 * (by hash on the fast path, against Yoga's path: fixed shapes and the generated hostile requests
 * whose documents are valid, put in a manifest) and persisted-only mode,
 * and serve()'s HTTP checks (cross-site and oversized bodies).
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { ConnectionException, type MikroORM } from "@mikro-orm/core";
import {
  getOperationAST,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  parse,
  validate,
} from "graphql";
import { entities } from "../../examples/blog/entities.ts";
import { seed } from "../../examples/blog/seed.ts";
import { openOrm } from "../../server/open_orm.ts";
import type { MikrogqlServer, ServeOptions } from "../../server/serve.ts";
import { fastPathStats } from "../../server/fast_path.ts";
import type { RequestLogEntry } from "../../server/request_log.ts";
import { underProduction } from "../support/under_production.ts";
import { serveForTest } from "../support/serve_for_test.ts";
import { HostileGenerator } from "../support/hostile_documents.ts";
import { random } from "../support/random_data.ts";
import { testSeed } from "../support/test_seed.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";

/** A seeded in-memory blog database. */
async function seededOrm(): Promise<MikroORM> {
  const orm = await openOrm({ entities });
  await orm.schema.create();
  await seed(orm.em.fork());
  return orm;
}

/** A server of one test and the log entries of its requests. */
interface Started {
  server: MikrogqlServer;
  entries: RequestLogEntry[];
  /**
   * The log entry at `index`, once written (a hang guard, not a timing assertion: none within
   * 60 s fails the test).
   */
  entryAt(index: number): Promise<RequestLogEntry>;
}

/** A server on a free port (no signals, no exit) and the log entries of its requests. */
async function start(options: Partial<ServeOptions> = {}): Promise<Started> {
  const entries: RequestLogEntry[] = [];
  const waiting = new Map<number, (entry: RequestLogEntry) => void>();
  const server = await serveForTest({
    orm: await seededOrm(),
    log: (entry) => {
      entries.push(entry);
      waiting.get(entries.length - 1)?.(entry);
    },
    ...options,
  });
  const entryAt = (index: number) =>
    index < entries.length ? Promise.resolve(entries[index]) : new Promise<RequestLogEntry>(
      (resolve, reject) => {
        const guard = setTimeout(
          () => reject(new Error(`no log entry ${index} after 60 s: ${JSON.stringify(entries)}`)),
          60_000,
        );
        waiting.set(index, (entry) => {
          clearTimeout(guard);
          resolve(entry);
        });
      },
    );
  return { server, entries, entryAt };
}

/** A request to send: `RequestInit` on the endpoint (`path`: another path or query string). */
interface Sent {
  name: string;
  init: RequestInit;
  path?: string;
}

/** What is compared of an answer. */
interface Answer {
  status: number;
  type: string | null;
  body: string;
  /** Whether the fast path answered it. */
  fast: boolean;
  /** The request log's entry, without its time and duration. */
  entry: Partial<RequestLogEntry>;
}

/** Sends `sent` to `server` and reads the answer and its log entry. */
async function ask(
  started: Started,
  sent: Sent,
): Promise<Answer> {
  const before = fastPathStats.taken;
  const logged = started.entries.length;
  const response = await fetch(started.server.url + (sent.path ?? ""), sent.init);
  const body = await response.text();
  // The entry is written once the answer is returned: wait for it.
  const { time: _time, durationMs: _duration, ...entry } = await started.entryAt(logged);
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    body,
    fast: fastPathStats.taken > before,
    entry,
  };
}

/**
 * A test of the servers `start` makes with each of `options`, all shut down after `fn` (those
 * started, when one fails to start) whether it passes or fails.
 */
function serversTest(
  name: string,
  options: Partial<ServeOptions>[],
  fn: (started: Started[]) => Promise<void>,
): void {
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const started: Started[] = [];
      try {
        for (const each of options) started.push(await start(each));
        await fn(started);
      } finally {
        for (const server of started) await server.server.shutdown();
      }
    },
  });
}

/** A test of one server (`start(options)`), shut down after `fn`. */
function serverTest(
  name: string,
  options: Partial<ServeOptions>,
  fn: (started: Started) => Promise<void>,
): void {
  serversTest(name, [options], ([started]) => fn(started));
}

/** Two servers of one test: with the fast path (the default) and with `fastPath: false`. */
interface Pair {
  fast: Started;
  yoga: Started;
}

/**
 * A test of a pair of servers made with `options` (the second with `fastPath: false` too), both
 * shut down after `fn`.
 */
function pairTest(
  name: string,
  options: Partial<ServeOptions>,
  fn: (pair: Pair) => Promise<void>,
): void {
  serversTest(
    name,
    [options, { ...options, fastPath: false }],
    ([fast, yoga]) => fn({ fast, yoga }),
  );
}

/**
 * `sent` sent twice to each server of `pair` (the first sending caches the document; the second
 * is the one that may go fast), and the second answers.
 */
async function askBoth(pair: Pair, sent: Sent): Promise<{ onFast: Answer; onYoga: Answer }> {
  await ask(pair.fast, sent);
  await ask(pair.yoga, sent);
  return { onFast: await ask(pair.fast, sent), onYoga: await ask(pair.yoga, sent) };
}

/**
 * Asserts that `sent`'s second answers are the same on both servers of `pair` (status, type,
 * body, log entry), that Yoga's server did not take the fast path, and that the fast path was
 * taken as `taken` says.
 */
async function assertSameAnswers(pair: Pair, sent: Sent, taken: boolean): Promise<void> {
  const { onFast, onYoga } = await askBoth(pair, sent);
  assertEquals(onFast.fast, taken, `${sent.name}: fast path taken`);
  assertEquals(onYoga.fast, false, `${sent.name}: fastPath: false`);
  const { fast: _a, ...a } = onFast;
  const { fast: _b, ...b } = onYoga;
  assertEquals(a, b, sent.name);
}

/** A JSON POST of `body` (a value, sent as JSON, or a string sent as it is). */
function post(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

const TOTAL = "query Total($n: Int) { users(first: $n) { totalCount } }";
const BOTH = "query Q { users(first: 1) { totalCount } } mutation M { __typename }";
const GRAPHQL_RESPONSE = "application/graphql-response+json";
const NESTED =
  "query Nested { users(first: 3) { edges { node { name posts(first: 2) { totalCount edges { node { title } } } } } } }";

/** The differential cases, and whether the fast path takes each (its second sending). */
const CASES: [Sent, boolean][] = [
  [{ name: "typename", init: post({ query: "{ __typename }" }) }, true],
  [{ name: "variables", init: post({ query: TOTAL, variables: { n: 2 } }) }, true],
  [{ name: "named", init: post({ query: TOTAL, operationName: "Total" }) }, true],
  [{ name: "nested", init: post({ query: NESTED }) }, true],
  [{ name: "bad variable", init: post({ query: TOTAL, variables: { n: "x" } }) }, true],
  [{
    name: "bad variable, graphql-response",
    init: post({ query: TOTAL, variables: { n: "x" } }, { accept: GRAPHQL_RESPONSE }),
  }, true],
  [{
    name: "bad variable, both accepted",
    init: post({ query: TOTAL, variables: { n: "x" } }, {
      accept: `application/json, ${GRAPHQL_RESPONSE}`,
    }),
  }, true],
  [{ name: "not acceptable", init: post({ query: TOTAL }, { accept: "application/xml" }) }, true],
  [{ name: "invalid document", init: post({ query: "{ nope }" }) }, true],
  [{ name: "unknown param", init: post({ query: TOTAL, clientVersion: 3 }) }, true],
  [{ name: "null variables", init: post({ query: TOTAL, variables: null, extensions: {} }) }, true],
  [{ name: "query of two", init: post({ query: BOTH, operationName: "Q" }) }, true],
  [{
    name: "charset",
    init: post({ query: TOTAL }, { "content-type": "application/json; charset=utf-8" }),
  }, true],
  [{ name: "unknown operation", init: post({ query: TOTAL, operationName: "Nope" }) }, false],
  [{ name: "two, none named", init: post({ query: BOTH }) }, false],
  [{ name: "mutation of two", init: post({ query: BOTH, operationName: "M" }) }, false],
  [{
    name: "mutation",
    init: post({ query: 'mutation { createUser(input: { name: "n", email: "e" }) { name } }' }),
  }, false],
  [{ name: "GET", init: { method: "GET" }, path: `?query=${encodeURIComponent(TOTAL)}` }, false],
  [{ name: "batch", init: post([{ query: TOTAL }]) }, false],
  [{
    name: "wrong content type",
    init: { method: "POST", headers: { "content-type": "application/graphql" }, body: TOTAL },
  }, false],
  [{ name: "missing query", init: post({ variables: {} }) }, false],
  [{ name: "query not a string", init: post({ query: 3 }) }, false],
  [{ name: "variables a list", init: post({ query: TOTAL, variables: [1] }) }, false],
  [{ name: "operationName a number", init: post({ query: TOTAL, operationName: 1 }) }, false],
  [{ name: "invalid JSON", init: post("{ query: ") }, false],
  [{ name: "null body", init: post("null") }, false],
  [{ name: "documentId", init: post({ query: TOTAL, documentId: "abc" }) }, false],
  [{ name: "other path", init: post({ query: TOTAL }), path: "/x" }, false],
];

const SEED = testSeed("FAST_PATH_SEED", 20_261_129);
const GENERATED = Number(Deno.env.get("FAST_PATH_REQUESTS") ?? 40);

/** The generator of the hostile requests of the differential tests, seeded with `SEED`. */
function hostileGenerator(): HostileGenerator {
  return new HostileGenerator(createSchema(), random(SEED), [
    encodeGlobalId("User", 1),
    encodeGlobalId("Post", 1),
  ]);
}

/**
 * `body` (a generated request's JSON text) with, one time in two (drawn from `draw`), its
 * `operationName` replaced: a name of an operation in its query text, `null`, or a name no
 * operation has. A body that is not a JSON object with a string `query` is returned as it is.
 */
function withOperationName(body: string, draw: () => number): string {
  if (draw() < 0.5) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return body;
  const query = (parsed as { query?: unknown }).query;
  if (typeof query !== "string") return body;
  const held = [...query.matchAll(/\b(?:query|mutation|subscription)\s+([_A-Za-z]\w*)/g)]
    .map((match) => match[1]);
  const choices = [...held, null, `Absent${Math.floor(draw() * 1000)}`];
  const operationName = choices[Math.floor(draw() * choices.length)];
  return JSON.stringify({ ...parsed, operationName });
}

pairTest("fast path: generated hostile requests answer as on Yoga's path", {}, async (pair) => {
  const generator = hostileGenerator();
  console.log(`${GENERATED} hostile requests, seed ${SEED} (FAST_PATH_SEED to replay)`);
  const taken = fastPathStats.taken;
  // Operation names drawn beside the generator's stream (which stays as it was): a name the
  // document holds, none, or one it lacks, each sent twice (the fast path keeps what a name picks).
  const names = random(SEED + 1);
  for (let i = 0; i < GENERATED; i++) {
    const { kind, body } = generator.request();
    const named = withOperationName(body, names);
    // The first sending caches the document; the second is the one that may go fast.
    const sent = { name: `${kind} (request ${i})`, init: post(named) };
    for (let sending = 0; sending < 2; sending++) {
      const { fast, ...a } = await ask(pair.fast, sent);
      const { fast: _b, ...b } = await ask(pair.yoga, sent);
      assertEquals(a, b, `FAST_PATH_SEED=${SEED}: ${sent.name}: ${named.slice(0, 300)}`);
      // graphql-js as the oracle of the operation a taken request runs: a query.
      if (fast) {
        const { query, operationName } = JSON.parse(named);
        assertEquals(
          getOperationAST(parse(query), operationName)?.operation,
          "query",
          `FAST_PATH_SEED=${SEED}: ${sent.name} taken: ${named.slice(0, 300)}`,
        );
      }
    }
  }
  console.log(`${fastPathStats.taken - taken} of ${2 * GENERATED} sendings took the fast path`);
});

// A created user's id differs between the two databases' sequences: none is selected.
pairTest(
  "fast path: the same answers and log entries as Yoga's path, and taken when eligible",
  {},
  async (pair) => {
    for (const [sent, taken] of CASES) await assertSameAnswers(pair, sent, taken);
  },
);

serverTest(
  "fast path: a client error's code and status under both Accept types",
  {},
  async (started) => {
    const bad = { query: TOTAL, variables: { n: "x" } };
    await ask(started, { name: "warm", init: post(bad) });
    const json = await ask(started, { name: "json", init: post(bad) });
    const spec = await ask(started, {
      name: "spec",
      init: post(bad, { accept: GRAPHQL_RESPONSE }),
    });
    assert(json.fast && spec.fast);
    assertEquals([json.status, spec.status], [200, 400]);
    assertEquals(json.type, "application/json; charset=utf-8");
    assertEquals(spec.type, `${GRAPHQL_RESPONSE}; charset=utf-8`);
    for (const answer of [json, spec]) {
      const { errors, data } = JSON.parse(answer.body);
      assertEquals(data, undefined);
      assertEquals(errors[0].extensions.code, "BAD_USER_INPUT");
      assertEquals(answer.entry.errors, ["BAD_USER_INPUT"]);
    }
  },
);

serverTest(
  "fast path: the log entry's operation, statement count and error codes",
  {},
  async (started) => {
    const first = await ask(started, { name: "warm", init: post({ query: NESTED }) });
    const nested = await ask(started, { name: "nested", init: post({ query: NESTED }) });
    assert(nested.fast);
    assertEquals(nested.entry.operation, "Nested");
    assertEquals(nested.entry.operationType, "query");
    assert((nested.entry.statements ?? 0) >= 2, `${nested.entry.statements} statements`);
    assertEquals(nested.entry.statements, first.entry.statements);
    const refused = await ask(started, { name: "invalid", init: post({ query: "{ nope }" }) });
    await ask(started, { name: "invalid", init: post({ query: "{ nope }" }) });
    const again = await ask(started, { name: "invalid", init: post({ query: "{ nope }" }) });
    assert(again.fast);
    assertEquals(again.entry.errors, ["GRAPHQL_VALIDATION_FAILED"]);
    assertEquals(refused.entry.errors, again.entry.errors);
    assertEquals(again.entry.statements, 0);
  },
);

serverTest("fast path: a cost over Limits' budget is refused with its code", {
  preset: { limits: { maxCost: 100 } },
}, async (started) => {
  const query =
    "query Wide { users(first: 50) { edges { node { posts(first: 50) { totalCount } } } } }";
  await ask(started, { name: "warm", init: post({ query }) });
  const answer = await ask(started, { name: "wide", init: post({ query }) });
  assert(answer.fast);
  const { errors, data } = JSON.parse(answer.body);
  assertEquals(data, undefined);
  assertEquals(errors[0].extensions.code, "QUERY_TOO_COMPLEX");
  assertStringIncludes(errors[0].message, "maxCost");
  assertEquals(answer.entry.statements, 0);
  assertEquals(answer.entry.errors, ["QUERY_TOO_COMPLEX"]);
});

Deno.test({
  name: "fast path: internal errors are masked (in a resolver, and thrown by the context)",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const broken = new Proxy({}, {
      get: () => {
        throw new Error("secret: the database password is hunter2");
      },
    });
    const printed: unknown[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => printed.push(args);
    const fast = await start({
      context: ({ request }) => {
        const trouble = request.headers.get("x-trouble");
        if (trouble === "context") throw new Error("secret: the context failed");
        return trouble === "resolver" ? { em: broken } : {};
      },
      yoga: { logging: false },
    });
    try {
      for (const trouble of ["resolver", "context"]) {
        const sent = { name: trouble, init: post({ query: TOTAL }, { "x-trouble": trouble }) };
        await ask(fast, { name: "warm", init: post({ query: TOTAL }) });
        const answer = await ask(fast, sent);
        assert(answer.fast, trouble);
        assert(!answer.body.includes("secret"), answer.body);
        const { errors } = JSON.parse(answer.body);
        assertEquals(errors[0].message, "Unexpected error.", trouble);
        assertEquals(answer.entry.errors, ["INTERNAL_SERVER_ERROR"]);
      }
    } finally {
      console.error = consoleError;
      await fast.server.shutdown();
    }
  },
});

serverTest("fast path: a mutation takes Yoga's path and is answered", {}, async (started) => {
  const query =
    'mutation Add($email: String!) { createUser(input: { name: "n", email: $email }) { name } }';
  for (const email of ["a@x", "b@x"]) {
    const sent = { name: "mutation", init: post({ query, variables: { email } }) };
    const answer = await ask(started, sent);
    assertEquals(answer.fast, false);
    assertEquals(JSON.parse(answer.body), { data: { createUser: { name: "n" } } });
    assertEquals(answer.entry.operationType, "mutation");
  }
});

serverTest("fast path: serve()'s HTTP checks still refuse cross-site and oversized bodies", {
  preset: { maxBodyBytes: 1_000 },
}, async (started) => {
  const query = `{ __typename ${" ".repeat(900)} }`;
  await ask(started, { name: "warm", init: post({ query }) });
  assert((await ask(started, { name: "fits", init: post({ query }) })).fast);
  const big = JSON.stringify({ query, padding: "x".repeat(200) });
  const sized = await ask(started, { name: "sized", init: post(big) });
  assertEquals([sized.status, sized.fast], [413, false]);
  // Without Content-Length: the body limit fails the read, and Yoga answers that error.
  const streamedBody = (name: string, body: string) =>
    ask(started, { name, init: { ...post(""), body: streamOf(new TextEncoder().encode(body)) } });
  const streamed = await streamedBody("streamed", big);
  assertEquals([streamed.status, streamed.fast], [413, false]);
  assertEquals(JSON.parse(streamed.body).errors[0].extensions.code, "REQUEST_ENTITY_TOO_LARGE");
  const streamedSmall = await streamedBody("streamed, small", JSON.stringify({ query }));
  assertEquals([streamedSmall.status, streamedSmall.fast], [200, true]);
  const crossSite = await ask(started, {
    name: "cross-site",
    init: { method: "POST", headers: { "content-type": "text/plain" }, body: query },
  });
  assertEquals([crossSite.status, crossSite.fast], [415, false]);
});

/** The manifest of the persisted-operation cases: hash -> document. */
const MANIFEST: Record<string, string> = {
  total: TOTAL,
  nested: NESTED,
  both: BOTH,
  create: 'mutation { createUser(input: { name: "n", email: "e" }) { name } }',
};

/** The persisted-operation cases, and whether the fast path takes each (its second sending). */
const PERSISTED_CASES: [Sent, boolean][] = [
  [{ name: "documentId", init: post({ documentId: "total", variables: { n: 2 } }) }, true],
  [{ name: "doc_id", init: post({ doc_id: "nested" }) }, true],
  [{
    name: "extensions",
    init: post({ extensions: { persistedQuery: { version: 1, sha256Hash: "total" } } }),
  }, true],
  [{ name: "named of two", init: post({ documentId: "both", operationName: "Q" }) }, true],
  [{ name: "unknown param", init: post({ documentId: "total", clientVersion: 3 }) }, true],
  [{ name: "null query", init: post({ documentId: "total", query: null }) }, true],
  [{ name: "bad variable", init: post({ documentId: "total", variables: { n: "x" } }) }, true],
  [{ name: "unknown hash", init: post({ documentId: "nope" }) }, false],
  [{ name: "no hash", init: post({ variables: {} }) }, false],
  [{ name: "mutation", init: post({ documentId: "create" }) }, false],
  [{ name: "mutation of two", init: post({ documentId: "both", operationName: "M" }) }, false],
  [{ name: "two, none named", init: post({ documentId: "both" }) }, false],
  [{ name: "text", init: post({ query: TOTAL }) }, false],
  [{ name: "text and hash", init: post({ query: TOTAL, documentId: "total" }) }, false],
  [{ name: "variables a list", init: post({ documentId: "total", variables: [1] }) }, false],
  [{
    name: "extensions version 2",
    init: post({ extensions: { persistedQuery: { version: 2, sha256Hash: "total" } } }),
  }, false],
];

pairTest(
  "fast path: persisted operations by hash answer as on Yoga's path, taken when eligible",
  { persistedOperations: { manifest: MANIFEST } },
  async (pair) => {
    for (const [sent, taken] of PERSISTED_CASES) await assertSameAnswers(pair, sent, taken);
  },
);

/**
 * The generated hostile requests as persisted operations: each whose document parses and is valid
 * (the manifest accepts no other) is in the manifest under `h<i>`, and sent by that hash with the
 * generated body's other properties; the fast path takes those naming a query.
 */
const persistedHostile = (() => {
  const generator = hostileGenerator();
  const schema = createSchema();
  const manifest: Record<string, string> = {};
  const requests: Sent[] = [];
  for (let i = 0; i < GENERATED; i++) {
    const { kind, body } = generator.request();
    const { query, ...rest } = JSON.parse(body);
    try {
      if (validate(schema, parse(query)).length > 0) continue;
    } catch {
      continue;
    }
    manifest[`h${i}`] = query;
    requests.push({ name: `${kind} (request ${i})`, init: post({ ...rest, documentId: `h${i}` }) });
  }
  return { manifest, requests };
})();

pairTest(
  "fast path: generated hostile requests as persisted operations answer as on Yoga's path",
  { persistedOperations: { manifest: persistedHostile.manifest } },
  async (pair) => {
    const { requests } = persistedHostile;
    console.log(
      `${requests.length} valid of ${GENERATED} hostile requests, seed ${SEED} (FAST_PATH_SEED)`,
    );
    let taken = 0;
    for (const sent of requests) {
      const { onFast, onYoga } = await askBoth(pair, sent);
      if (onFast.fast) taken++;
      const { fast: _a, ...a } = onFast;
      const { fast: _b, ...b } = onYoga;
      assertEquals(a, b, `FAST_PATH_SEED=${SEED}: ${sent.name}`);
    }
    console.log(`${taken} of ${requests.length} took the fast path`);
    assert(taken > 0, "no generated persisted request took the fast path");
  },
);

Deno.test({
  name: "fast path: persisted-only mode still refuses a text document",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const started = await start({
      persistedOperations: { manifest: { abc: "{ __typename }" } },
    });
    try {
      for (let i = 0; i < 2; i++) {
        const text = await ask(started, { name: "text", init: post({ query: "{ __typename }" }) });
        assertEquals([text.status, text.fast], [400, false]);
        assertEquals(JSON.parse(text.body).errors[0].extensions.code, "PERSISTED_QUERY_ONLY");
      }
      const hashed = await ask(started, { name: "hash", init: post({ documentId: "abc" }) });
      assertEquals(JSON.parse(hashed.body), { data: { __typename: "Query" } });
      // Yoga's plugin runs a persisted document as the text `__PERSISTED_OPERATION_<hash>__`,
      // which the document cache then holds: sent as text, it is still refused.
      const sentinel = post({ query: "__PERSISTED_OPERATION_abc__" });
      const text = await ask(started, { name: "cached text", init: sentinel });
      assertEquals([text.status, text.fast], [400, false]);
      assertEquals(JSON.parse(text.body).errors[0].extensions.code, "PERSISTED_QUERY_ONLY");
    } finally {
      await started.server.shutdown();
    }
  },
});

serverTest("fast path: CORS headers of an allowed origin, none for another", {
  cors: { origins: ["https://app.example"] },
}, async (started) => {
  await ask(started, { name: "warm", init: post({ query: TOTAL }) });
  const before = fastPathStats.taken;
  const listed = await fetch(
    started.server.url,
    post({ query: TOTAL }, { origin: "https://app.example" }),
  );
  await listed.body?.cancel();
  assertEquals(listed.headers.get("access-control-allow-origin"), "https://app.example");
  assertStringIncludes(listed.headers.get("vary") ?? "", "Origin");
  const other = await fetch(
    started.server.url,
    post({ query: TOTAL }, { origin: "https://evil.example" }),
  );
  await other.body?.cancel();
  assertEquals(other.headers.get("access-control-allow-origin"), null);
  assertEquals(fastPathStats.taken, before + 2);
});

/**
 * Introspection refused on the fast path under `NODE_ENV=production` (run by `underProduction`):
 * the second request of an introspection document (parsed and cached by the first) takes the
 * fast path, and validation refuses it there.
 */
export async function introspectionRefused(): Promise<void> {
  const started = await start();
  try {
    const query = "{ __schema { queryType { name } } }";
    await ask(started, { name: "warm", init: post({ query }) });
    const answer = await ask(started, { name: "introspection", init: post({ query }) });
    assert(answer.fast, "the fast path was not taken");
    const { data, errors } = JSON.parse(answer.body);
    assertEquals(data, undefined);
    assertStringIncludes(errors[0].message, "introspection");
    assertEquals(answer.status, 200);
  } finally {
    await started.server.shutdown();
  }
}

Deno.test("fast path: introspection refused under NODE_ENV=production", async () => {
  await underProduction(import.meta.url, "introspectionRefused");
});

Deno.test({
  name: "fast path: a client that goes away before its answer is logged as 499",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const arrived = Promise.withResolvers<void>();
    const gate = Promise.withResolvers<void>();
    const started = await start({
      context: async ({ request }) => {
        if (request.headers.get("x-wait")) {
          arrived.resolve();
          await gate.promise;
        }
        return {};
      },
    });
    try {
      await ask(started, { name: "warm", init: post({ query: TOTAL }) });
      const before = fastPathStats.taken;
      const client = new AbortController();
      const answer = fetch(started.server.url, {
        ...post({ query: TOTAL }, { "x-wait": "1" }),
        signal: client.signal,
      }).catch((error) => error);
      await arrived.promise;
      client.abort();
      assertEquals((await answer).name, "AbortError");
      // Logged while the operation still waits: the answer is abandoned when the client leaves.
      await started.entryAt(1);
      assertEquals(fastPathStats.taken, before + 1);
      assertEquals(started.entries.map((entry) => entry.status), [200, 499]);
    } finally {
      gate.resolve();
      await started.server.shutdown();
    }
  },
});

Deno.test({
  name: "fast path: a request handed to Yoga after its body was read keeps the body timeout's mark",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // A mutation runs longer than the body timeout: its body arrived, so it is not answered 408.
    // (Its context waits three body timeouts; the body itself arrives with the headers.)
    const started = await start({
      timeouts: { body: 1_000 },
      context: async () => {
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        return {};
      },
    });
    try {
      const query = 'mutation { createUser(input: { name: "n", email: "slow@x" }) { name } }';
      const answer = await ask(started, { name: "slow mutation", init: post({ query }) });
      assertEquals([answer.status, answer.fast], [200, false]);
      assertEquals(JSON.parse(answer.body), { data: { createUser: { name: "n" } } });
    } finally {
      await started.server.shutdown();
    }
  },
});

Deno.test({
  name: "fast path: a statement past Deadline's budget ends the request with QUERY_TIMEOUT",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const orm = await seededOrm();
    // While `slow` is set, every statement waits until the test ends: only the budget (100 ms,
    // 100 ms of grace) can end the request, so an answer at all is the budget's.
    let slow = false;
    const testEnd = Promise.withResolvers<void>();
    for (const type of ["read", "write"] as const) {
      const connection = orm.em.getConnection(type) as unknown as {
        execute: (...args: unknown[]) => Promise<unknown>;
      };
      const execute = connection.execute.bind(connection);
      connection.execute = async (...args: unknown[]) => {
        if (slow) await testEnd.promise;
        return await execute(...args);
      };
    }
    const started = await start({ orm, preset: { deadline: { timeoutMs: 100, graceMs: 100 } } });
    try {
      await ask(started, { name: "warm", init: post({ query: NESTED }) });
      slow = true;
      const answer = await ask(started, {
        name: "slow",
        // A hang guard, not a timing assertion: without the budget the answer never comes.
        init: { ...post({ query: NESTED }), signal: AbortSignal.timeout(60_000) },
      });
      assert(answer.fast);
      assertEquals(JSON.parse(answer.body).errors[0].extensions.code, "QUERY_TIMEOUT");
      assertEquals(answer.entry.errors, ["QUERY_TIMEOUT"]);
    } finally {
      slow = false;
      testEnd.resolve();
      await started.server.shutdown();
    }
  },
});

Deno.test({
  name: "fast path: a subscription over SSE takes Yoga's path",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // The blog schema has no Subscription type: Yoga's path answers its refusal as an event.
    const started = await start();
    const query = "subscription { __typename }";
    try {
      for (let i = 0; i < 2; i++) {
        const answer = await ask(started, {
          name: "subscription",
          init: post({ query }, { accept: "text/event-stream" }),
        });
        assertEquals(answer.fast, false);
        assertEquals(answer.type, "text/event-stream");
        assertStringIncludes(answer.body, "GRAPHQL_VALIDATION_FAILED");
      }
    } finally {
      await started.server.shutdown();
    }
  },
});

Deno.test({
  name: "fast path: an error thrown while the result is processed is answered as Yoga answers it",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    // A scalar serialized as a bigint: the result's JSON.stringify throws in the processor.
    const big = new GraphQLScalarType({ name: "Big", serialize: () => 1n });
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: "Query",
        fields: { big: { type: big, resolve: () => 1 } },
      }),
    });
    const consoleError = console.error;
    console.error = () => {};
    const fast = await start({ schema, yoga: { logging: false } });
    const yoga = await start({ schema, yoga: { logging: false }, fastPath: false });
    try {
      const sent = { name: "big", init: post({ query: "{ big }" }) };
      const { onFast, onYoga } = await askBoth({ fast, yoga }, sent);
      assert(onFast.fast);
      assertEquals(onFast.status, 500);
      assertEquals(JSON.parse(onFast.body).errors[0].message, "Unexpected error.");
      const { fast: _a, ...a } = onFast;
      const { fast: _b, ...b } = onYoga;
      assertEquals(a, b);
    } finally {
      console.error = consoleError;
      await fast.server.shutdown();
      await yoga.server.shutdown();
    }
  },
});

Deno.test({
  name: "fast path: a query whose connection was lost runs again (ReadRetry)",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const orm = await seededOrm();
    // The next `lost` statements fail as on a connection that died while idle.
    let lost = 0;
    for (const type of ["read", "write"] as const) {
      const connection = orm.em.getConnection(type) as unknown as {
        execute: (...args: unknown[]) => Promise<unknown>;
      };
      const execute = connection.execute.bind(connection);
      connection.execute = async (...args: unknown[]) => {
        if (lost > 0) {
          lost--;
          throw new ConnectionException(new Error("Connection terminated unexpectedly"));
        }
        return await execute(...args);
      };
    }
    const started = await start({ orm });
    try {
      const first = await ask(started, { name: "warm", init: post({ query: NESTED }) });
      lost = 1;
      const answer = await ask(started, { name: "lost", init: post({ query: NESTED }) });
      assert(answer.fast);
      assertEquals(lost, 0);
      assertEquals(answer.body, first.body);
      assertEquals(answer.entry.errors, undefined);
    } finally {
      await started.server.shutdown();
    }
  },
});

/** A body sent as a stream (no Content-Length) of `bytes`. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
