/**
 * `serve({ persistedOperations })` over real HTTP with a manifest shaped as the Relay compiler
 * writes it (`persistConfig.file`: MD5 hash → the operation's text with its fragments) and one
 * as graphql-codegen's client preset writes it (SHA-256 → text): each operation, named by hash
 * in each request shape, answers what the same document sent as text answers on a server
 * without persisted operations (the oracle); a document sent as text, an unknown hash and a
 * request naming none are refused with 400 and a code, never a 5xx; a manifest that does not
 * fit the schema fails at startup naming its hash.
 */
import { assertEquals, assertRejects } from "@std/assert";
import { createHash } from "node:crypto";
import { entities } from "../../examples/blog/entities.ts";
import { seed } from "../../examples/blog/seed.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { serveForTest } from "../support/serve_for_test.ts";

/** Operations as the Relay compiler prints them: the query, then its fragments. */
const RELAY_OPERATIONS = [
  `query UsersPageQuery(
  $count: Int!
) {
  users(first: $count) {
    edges {
      node {
        id
        ...UserRow_user
      }
    }
  }
}

fragment UserRow_user on User {
  name
  posts(first: 2) {
    totalCount
    edges {
      node {
        title
      }
    }
  }
}
`,
  `query PostQuery(
  $id: ID!
) {
  node(id: $id) {
    __typename
    ... on Post {
      title
    }
    id
  }
}
`,
];
const hash = (algorithm: "md5" | "sha256", text: string) =>
  createHash(algorithm).update(text).digest("hex");
/** Relay compiler's `persistConfig.file` (MD5 by default). */
const relayManifest = Object.fromEntries(RELAY_OPERATIONS.map((t) => [hash("md5", t), t]));
/** graphql-codegen client preset's `persisted-documents.json` (SHA-256). */
const codegenManifest = Object.fromEntries(RELAY_OPERATIONS.map((t) => [hash("sha256", t), t]));

const start = serveForTest;

/** A GraphQL answer, loosely typed for the assertions. */
interface Answer {
  // deno-lint-ignore no-explicit-any
  data?: any;
  errors?: { message: string; extensions?: { code?: string } }[];
}

async function post(url: string, body: unknown): Promise<{ status: number; body: Answer }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

for (const dialect of dialects()) {
  Deno.test({
    name: `persisted operations: a Relay-compiler manifest, by hash only (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const persistedDb = await openTestOrm(dialect, entities);
      await seed(persistedDb.orm.em.fork());
      const oracleDb = await openTestOrm(dialect, entities);
      await seed(oracleDb.orm.em.fork());
      const persisted = await start({
        orm: persistedDb.orm,
        persistedOperations: { manifest: { ...relayManifest, ...codegenManifest } },
      });
      const oracle = await start({ orm: oracleDb.orm });
      try {
        const firstUser = await post(oracle.url, {
          query: "{ users(first: 1) { edges { node { id } } } }",
        });
        const userId = firstUser.body.data.users.edges[0].node.id;
        const postId = (await post(oracle.url, {
          query: "{ posts(first: 1) { edges { node { id } } } }",
        })).body.data.posts.edges[0].node.id;
        const cases = [
          { text: RELAY_OPERATIONS[0], variables: { count: 3 } },
          { text: RELAY_OPERATIONS[1], variables: { id: postId } },
          // A node of another type, and one that does not exist: answers as the oracle's.
          { text: RELAY_OPERATIONS[1], variables: { id: userId } },
          { text: RELAY_OPERATIONS[1], variables: { id: "UG9zdDo5OTk5" } },
        ];
        for (const { text, variables } of cases) {
          const expected = await post(oracle.url, { query: text, variables });
          assertEquals(expected.status, 200);
          const md5 = hash("md5", text), sha256 = hash("sha256", text);
          for (
            const body of [
              { doc_id: md5, variables }, // Relay's fetch function
              { documentId: md5, variables }, // GraphQL over HTTP persisted documents
              { extensions: { persistedQuery: { version: 1, sha256Hash: sha256 } }, variables },
            ]
          ) {
            const answer = await post(persisted.url, body);
            assertEquals(answer, expected, JSON.stringify(body));
          }
        }
        const refused = async (body: unknown, code: string) => {
          const answer = await post(persisted.url, body);
          assertEquals(answer.status, 400, JSON.stringify(answer.body));
          assertEquals(answer.body.errors?.map((e) => e.extensions?.code), [code]);
          assertEquals(answer.body.data, undefined);
        };
        // A persisted document's own text is refused too: only hashes are served.
        await refused(
          { query: RELAY_OPERATIONS[0], variables: { count: 1 } },
          "PERSISTED_QUERY_ONLY",
        );
        await refused({ query: "{ __typename }" }, "PERSISTED_QUERY_ONLY");
        await refused({ doc_id: hash("md5", "{ __typename }") }, "PERSISTED_QUERY_NOT_FOUND");
        await refused({ variables: {} }, "PERSISTED_QUERY_ID_REQUIRED");
        await refused(
          { extensions: { persistedQuery: { version: 2, sha256Hash: "x" } } },
          "PERSISTED_QUERY_ID_REQUIRED",
        );
      } finally {
        await persisted.shutdown();
        await oracle.shutdown();
        await persistedDb.close();
        await oracleDb.close();
      }
    },
  });
}

Deno.test({
  name: "persisted operations: a manifest that does not fit the schema fails at startup; " +
    "allowArbitraryOperations also runs text",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const db = await openTestOrm("sqlite", entities);
    try {
      for (
        const [manifest, message] of [
          [{ abc: "{ users { nope } }" }, 'persisted operation abc: Cannot query field "nope"'],
          [{ def: "{ users(" }, "persisted operation def: Syntax Error"],
        ] as const
      ) {
        await assertRejects(
          () => start({ orm: db.orm, persistedOperations: { manifest } }),
          Error,
          message,
        );
      }
      const server = await start({
        orm: db.orm,
        persistedOperations: { manifest: relayManifest, allowArbitraryOperations: true },
      });
      try {
        assertEquals(await post(server.url, { query: "{ __typename }" }), {
          status: 200,
          body: { data: { __typename: "Query" } },
        });
        const byHash = await post(server.url, {
          doc_id: hash("md5", RELAY_OPERATIONS[0]),
          variables: { count: 1 },
        });
        assertEquals(byHash, { status: 200, body: { data: { users: { edges: [] } } } });
      } finally {
        await server.shutdown();
      }
    } finally {
      await db.close();
    }
  },
});
