/**
 * Hostile clients against a real Yoga server with the `Limits` plugin, the bounded document
 * cache and the Transactioner, on SQLite and PostgreSQL (the blog and todo examples): every
 * denial-of-service probe (huge pages, deep nesting, alias and fragment fan-out, huge lists and
 * strings) is refused with its code before any SQL runs (the query
 * log does not grow), and a health query answers after each; CSRF (form, text and GET
 * mutations), error messages that never echo more than 100 characters of input, fragment
 * chains collected in linear time, and the document cache's bound.
 */
import { assert, assertEquals } from "@std/assert";
import {
  ClientErrors,
  Csrf,
  documentCache,
  Limits,
  MAX_QUOTED_INPUT,
  Transactioner,
} from "../../mod.ts";
import { createSchema as createBlogSchema } from "../../examples/blog/generated/mod.ts";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import { seed as seedBlog } from "../../examples/blog/seed.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { createSchema as createTodoSchema } from "../../examples/todo/generated/mod.ts";
import { entities as todoEntities } from "../../examples/todo/entities.ts";
import { seed as seedTodo } from "../../examples/todo/seed.ts";
import type { Dialect } from "../support/databases.ts";
import { dialects, openTestOrm, type TestOrm } from "../support/databases.ts";
import { type Response, startServer, type TestServer } from "../support/server.ts";

const HEALTH = `{ users(first: 1) { totalCount } }`;

/** No quoted run of user input longer than the limit in any error message. */
function assertClipped(response: Response): void {
  for (const error of response.errors ?? []) {
    assert(error.message.length < 400, `message too long: ${error.message.slice(0, 200)}`);
    assert(!/x{101}/.test(error.message), `message echoes input: ${error.message.slice(0, 200)}`);
  }
}

/** `fragment F0 { name email }`, `F<i> { ...F<i-1> ...F<i-1> }`: 2^depth fields when expanded. */
function doublingFragments(depth: number): string {
  const fragments = [`fragment F0 on User { name email }`];
  for (let i = 1; i <= depth; i++) {
    fragments.push(`fragment F${i} on User { ...F${i - 1} ...F${i - 1} }`);
  }
  return `{ users(first: 2) { edges { node { ...F${depth} } } } }\n${fragments.join("\n")}`;
}

/** `posts(where: { hasCommentsWith: { hasPostWith: ... } })` nested `depth` deep. */
function nestedHas(depth: number): string {
  let where = `{ titleContains: "a" }`;
  for (let i = depth; i > 0; i--) {
    where = i % 2 ? `{ hasCommentsWith: ${where} }` : `{ hasPostWith: ${where} }`;
  }
  return `{ posts(first: 1, where: ${where}) { totalCount } }`;
}

interface Harness {
  test: TestOrm;
  server: TestServer;
  /** Posts a request with any body and headers. */
  raw(init: RequestInit, search?: string): Promise<globalThis.Response>;
}

async function harness(
  dialect: Dialect,
  which: "blog" | "todo",
  cache = documentCache(),
): Promise<Harness> {
  const test = await openTestOrm(dialect, which === "blog" ? blogEntities : todoEntities);
  await (which === "blog" ? seedBlog : seedTodo)(test.orm.em.fork());
  const schema = which === "blog" ? createBlogSchema() : createTodoSchema();
  const server = startServer(
    test.orm,
    schema,
    [Csrf(), Limits(), ClientErrors(), Transactioner({ txOpener: test.orm })],
    { parserAndValidationCache: cache },
  );
  return {
    test,
    server,
    raw: (init, search = "") => fetch(server.url + search, init),
  };
}

/**
 * Runs `send`, asserts the refusal's code and that no SQL ran for it, then a health query.
 */
async function refused(
  h: Harness,
  code: string,
  send: () => Promise<Response>,
  message?: RegExp,
): Promise<Response> {
  h.test.log.length = 0;
  const response = await send();
  assertEquals(
    response.errors?.[0]?.extensions?.code,
    code,
    JSON.stringify(response).slice(0, 300),
  );
  if (message) assert(message.test(response.errors![0].message), response.errors![0].message);
  assertEquals(h.test.log, [], "no SQL may run for a refused request");
  assertClipped(response);
  const health = await h.server.query<{ users: { totalCount: number } }>(HEALTH);
  assertEquals(health.errors, undefined);
  assert(health.data!.users.totalCount > 0);
  return response;
}

for (const dialect of dialects(["sqlite", "postgresql"])) {
  Deno.test(`hostile clients on the blog (${dialect})`, async (t) => {
    const cache = documentCache({ maxSourceLength: 1_000_000 });
    const h = await harness(dialect, "blog", cache);
    const q = h.server.query;
    try {
      await t.step("1000 x 1000 x 1000 nested pages: the cost limit", async () => {
        await refused(
          h,
          "QUERY_TOO_COMPLEX",
          () =>
            q(`{ users(first: 1000) { edges { node { posts(first: 1000) { edges { node {
              comments(first: 1000) { edges { node { id text } } } } } } } } } }`),
          /1001001000 nodes; the limit is maxCost = 500000/,
        );
        // variables are read
        await refused(
          h,
          "QUERY_TOO_COMPLEX",
          () =>
            q(
              `query ($n: Int) { users(first: $n) { edges { node { posts(first: $n) { totalCount } } } } }`,
              { n: 1000 },
            ),
          /1001000 nodes/,
        );
      });

      await t.step("checks that pass are kept per document and per Limits", async () => {
        // The same document text is the same parsed tree (the shared document cache): a pass
        // is remembered by the Limits instance that checked it, a refusal checked every time.
        const page = `{ users(first: 100) { edges { node { posts(first: 10) { totalCount } } } } }`;
        for (let i = 0; i < 2; i++) assertEquals((await q(page)).errors, undefined);
        for (let i = 0; i < 2; i++) {
          await refused(h, "QUERY_TOO_COMPLEX", () => q(`{ ${"a: __typename ".repeat(31)}}`));
        }
        const strict = startServer(
          h.test.orm,
          createBlogSchema(),
          [Limits({ maxCost: 1_000, maxAliases: 2 })],
          { parserAndValidationCache: cache },
        );
        try {
          for (let i = 0; i < 2; i++) {
            const response = await strict.query(page);
            assertEquals(response.errors?.[0]?.extensions?.code, "QUERY_TOO_COMPLEX");
            assert(/maxCost = 1000/.test(response.errors![0].message));
          }
          const aliases = `{ a: __typename b: __typename c: __typename }`;
          assertEquals((await q(aliases)).errors, undefined);
          assertEquals(
            (await strict.query(aliases)).errors?.[0]?.extensions?.code,
            "QUERY_TOO_COMPLEX",
          );
        } finally {
          await strict.close();
        }
      });

      await t.step("aliases add up in the cost, and are limited per selection", async () => {
        const page = `users(first: 1000) { edges { node { posts(first: 25) { totalCount } } } }`;
        assertEquals((await q(`{ ${page} }`)).errors, undefined);
        const aliased = Array.from({ length: 25 }, (_, i) => `a${i}: ${page}`).join(" ");
        await refused(h, "QUERY_TOO_COMPLEX", () => q(`{ ${aliased} }`), /650000 nodes/);
        const many = Array.from({ length: 31 }, (_, i) => `a${i}: __typename`).join(" ");
        await refused(h, "QUERY_TOO_COMPLEX", () => q(`{ ${many} }`), /maxAliases = 30/);
      });

      await t.step(
        "a doubling fragment chain of depth 20 is collected in linear time",
        async () => {
          const response = await q<{ users: { edges: { node: { name: string } }[] } }>(
            doublingFragments(20),
          );
          assertEquals(response.errors, undefined);
          assertEquals(response.data!.users.edges.map((e) => e.node.name), ["user000", "user001"]);
          // repeating one spread more than maxFieldRepeats times in a selection is refused
          await refused(
            h,
            "QUERY_TOO_COMPLEX",
            () =>
              q(`{ users(first: 1) { totalCount ${
                "...C ".repeat(6)
              } } } fragment C on UserConnection { totalCount }`),
            /maxFieldRepeats = 5/,
          );
        },
      );

      await t.step("has<Edge>With nested 16 deep: the where depth limit", async () => {
        assertEquals((await q(nestedHas(4))).errors, undefined);
        await refused(h, "QUERY_TOO_COMPLEX", () => q(nestedHas(16)), /maxWhereDepth = 4/);
      });

      await t.step("8,000 duplicated fields, 100,000 fields in 2 MB, 10,001 tokens", async () => {
        await refused(
          h,
          "QUERY_TOO_COMPLEX",
          () => q(`{ users(first: 1) { edges { node { ${"name ".repeat(8000)} } } } }`),
          /maxFieldRepeats = 5/,
        );
        const big = `{ users(first: 1) { edges { node { ${"nameee ".repeat(100_000)}} } } } }`;
        assert(big.length > 700_000);
        await refused(h, "QUERY_TOO_COMPLEX", () => q(big), /maxDocumentBytes = 65536/);
        await refused(
          h,
          "QUERY_TOO_COMPLEX",
          () => q(`{ nodes(ids: [${'"x" '.repeat(10_001)}]) { id } }`),
          /maxTokens = 10000/,
        );
        // A syntax error is not mistaken for the token limit, even one quoting its wording.
        const quoting = await q(`{ users(first: 1) "contains more than 10000 tokens" }`);
        assertEquals(quoting.errors?.[0]?.extensions?.code, "GRAPHQL_PARSE_FAILED");
        // Exactly 10,000 tokens parse (the list limit refuses this one after parsing).
        const atLimit = await q(`{ nodes(ids: [${'"x" '.repeat(9_988)}]) { id } }`);
        assert(
          /maxListLength = 1000/.test(atLimit.errors?.[0]?.message ?? ""),
          atLimit.errors?.[0]?.message,
        );
      });

      await t.step("other clients are answered during an attack", async () => {
        h.test.log.length = 0;
        await q(HEALTH);
        const healthStatements = h.test.log.length;
        h.test.log.length = 0;
        const attacks = Array.from({ length: 30 }, (_, i) =>
          q(
            i % 3 === 0
              ? `{ users(first: 1) { edges { node { ${"name ".repeat(8000)} } } } }`
              : i % 3 === 1
              ? `{ a${i}: users(first: 1) { edges { node { ${"nameee ".repeat(100_000)}} } } } }`
              : `{ users(first: 1000) { edges { node { posts(first: 1000) { edges { node {
                  comments(first: 1000) { totalCount } } } } } } } }`,
          ));
        const health = await q<{ users: { totalCount: number } }>(HEALTH);
        assertEquals(health.errors, undefined);
        for (const response of await Promise.all(attacks)) {
          assertEquals(response.errors?.[0]?.extensions?.code, "QUERY_TOO_COMPLEX");
        }
        assertEquals(h.test.log.length, healthStatements, "only the health query ran SQL");
      });

      await t.step("the parsed-document cache stays within its bound", async () => {
        for (let i = 0; i < 40; i++) {
          const comment = `# ${String(i).padStart(4, "0")} ${"x".repeat(60_000)}\n`;
          const response = await q(`${comment}{ users(first: 1) { totalCount } }`);
          assertEquals(response.errors, undefined);
        }
        assert(
          cache.documentCache.calculatedSize <= 500_000,
          `${cache.documentCache.calculatedSize}`,
        );
        assert(cache.documentCache.size >= 1);
      });

      await t.step("long strings, long lists, wide where trees", async () => {
        const contains = `query ($s: String) { users(where: { nameContains: $s }) { totalCount } }`;
        await refused(
          h,
          "BAD_USER_INPUT",
          () => q(contains, { s: "x".repeat(1_000_000) }),
          /users\(where\)\.nameContains: a string of 1000000 characters; the limit is maxStringLength = 65536/,
        );
        const where = `query ($w: UserWhereInput) { users(where: $w) { totalCount } }`;
        await refused(
          h,
          "BAD_USER_INPUT",
          () => q(where, { w: { or: Array.from({ length: 10_000 }, () => ({ name: "a" })) } }),
          /a list of 10000 items; the limit is maxListLength = 1000/,
        );
        await refused(
          h,
          "QUERY_TOO_COMPLEX",
          () => q(where, { w: { or: Array.from({ length: 150 }, (_, i) => ({ name: `u${i}` })) } }),
          /maxWhereSize = 200/,
        );
        await refused(
          h,
          "BAD_USER_INPUT",
          () =>
            q(`query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: Array(1001).fill("x") }),
          /maxListLength = 1000/,
        );
        // The first argument over a limit in the document's order (a fragment written before the
        // operation that spreads it comes first), and the cost before any argument.
        const nul = String.raw`a\u0000b`;
        const fragmentFirst = `fragment P on User { posts(where: { titleContains: "${nul}" }) {
          totalCount } }
          query { users(first: 1, where: { nameContains: "${nul}" }) { edges { node { ...P } } } }`;
        await refused(
          h,
          "BAD_USER_INPUT",
          () => q(fragmentFirst),
          /^posts\(where\)\.titleContains/,
        );
        await refused(
          h,
          "BAD_USER_INPUT",
          () => q(fragmentFirst.replace(`titleContains: "${nul}"`, `titleContains: "t"`)),
          /^users\(where\)\.nameContains: contains a NUL/,
        );
        await refused(
          h,
          "QUERY_TOO_COMPLEX",
          () =>
            q(
              fragmentFirst.replace("first: 1,", "first: 1000,").replace("...P", "...P ...P")
                .replace("posts(", "posts(first: 1000, "),
            ),
          /maxCost = 500000/,
        );
      });

      await t.step("invalid cursors and coercion errors quote at most 100 characters", async () => {
        await refused(
          h,
          "BAD_USER_INPUT",
          () =>
            q(`query ($c: Cursor) { users(after: $c) { totalCount } }`, { c: "x".repeat(1 << 20) }),
        );
        const long = await q(`query ($c: Cursor) { users(first: 1, after: $c) { totalCount } }`, {
          c: "x".repeat(50_000),
        });
        assertEquals(long.errors?.[0].extensions?.code, "INVALID_CURSOR");
        assertClipped(long);
        assert(long.errors![0].message.includes("x".repeat(MAX_QUOTED_INPUT)));
        const coercion = await q(`query ($n: Int) { users(first: $n) { totalCount } }`, {
          n: "x".repeat(50_000),
        });
        assert(coercion.errors?.length === 1);
        assertClipped(coercion);
      });

      await t.step("CSRF: only JSON POSTs run operations", async () => {
        const mutation =
          `mutation { createPost(input: { title: "csrf", body: "b", authorID: "x" }) { id } }`;
        const before = await h.test.orm.em.fork().count(Post);
        const form = await h.raw({
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ query: mutation }).toString(),
        });
        assertEquals(form.status, 415);
        assertEquals((await form.json()).errors[0].extensions.code, "BAD_REQUEST");
        const text = await h.raw({
          method: "POST",
          headers: { "content-type": "text/plain" },
          body: JSON.stringify({ query: mutation }),
        });
        assertEquals(text.status, 415);
        await text.body?.cancel();
        const multipart = new FormData();
        multipart.set("operations", JSON.stringify({ query: mutation }));
        const formData = await h.raw({ method: "POST", body: multipart });
        assertEquals(formData.status, 415);
        await formData.body?.cancel();
        const get = await h.raw({ method: "GET" }, `?query=${encodeURIComponent(mutation)}`);
        assertEquals(get.status, 405);
        await get.body?.cancel();
        assertEquals(await h.test.orm.em.fork().count(Post), before);
        const json = await h.raw({
          method: "POST",
          headers: { "content-type": "application/graphql+json; charset=utf-8" },
          body: JSON.stringify({ query: HEALTH }),
        });
        assertEquals(json.status, 200);
        assertEquals((await json.json()).errors, undefined);
      });
    } finally {
      await h.server.close();
      await h.test.close();
    }
  });

  Deno.test(`hostile orderBy lists on the todo example (${dialect})`, async () => {
    const h = await harness(dialect, "todo");
    try {
      const fields = ["TEXT", "PRIORITY", "STATUS", "CREATED_AT"];
      const orderBy = Array.from({ length: 800 }, (_, i) => ({ field: fields[i % fields.length] }));
      const query =
        `query ($o: [TodoOrder!], $c: Cursor) { todos(first: 1, after: $c, orderBy: $o) { totalCount } }`;
      await refused(
        h,
        "BAD_USER_INPUT",
        () => h.server.query(query, { o: orderBy, c: "W1siMSJdXQ" }),
        /order field TEXT is given twice/,
      );
      const once = await h.server.query<{ todos: { totalCount: number } }>(query, {
        o: fields.map((field) => ({ field })),
      });
      assertEquals(once.errors, undefined);
      assert(once.data!.todos.totalCount > 0);
    } finally {
      await h.server.close();
      await h.test.close();
    }
  });
}
