/**
 * Relay pagination against graphql-relay-js (`connectionFromArray`, the reference
 * implementation of the GraphQL Cursor Connections Specification): the blog's users, read in
 * full, then 1,000 random windows (`first`/`last`/`after`/`before`, each combination, sizes from
 * 0 past the row count) over HTTP, each compared with `connectionFromArray` over the same rows:
 * the edges, and `hasNextPage`/`hasPreviousPage`. Where the specification leaves a flag to the
 * server (`after` without `last`, `before` without `first`), graphql-relay-js answers `false`
 * and we answer `true` (the cursor's row lies beyond the page, as entgql does); every other flag
 * must agree. The seed is fixed (`tests/support/test_seed.ts`) and printed; `RELAY_SEED=<n>`
 * replays a run, `RELAY_SEED=random` draws one.
 */
import { assertEquals } from "@std/assert";
import { connectionFromArray, offsetToCursor } from "graphql-relay";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { entities } from "../../examples/blog/entities.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { random } from "../support/random_data.ts";
import { startServer } from "../support/server.ts";
import { testSeed } from "../support/test_seed.ts";

const SEED = testSeed("RELAY_SEED", 20_261_129);
const WINDOWS = 1_000;
const ROWS = 9;

interface Page {
  edges: { cursor: string; node: { name: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean };
}

const QUERY = `query ($first: Int, $last: Int, $after: Cursor, $before: Cursor) {
  users(first: $first, last: $last, after: $after, before: $before) {
    edges { cursor node { name } }
    pageInfo { hasNextPage hasPreviousPage }
  }
}`;

for (const dialect of dialects()) {
  Deno.test(`Relay windows agree with graphql-relay-js's connectionFromArray (${dialect}, seed ${SEED})`, async () => {
    const test = await openTestOrm(dialect, entities);
    const em = test.orm.em.fork();
    for (let i = 0; i < ROWS; i++) em.create(User, { name: `u${i}`, email: `u${i}@example.com` });
    await em.flush();
    const server = startServer(test.orm, createSchema());
    try {
      const all = await server.query<{ users: Page }>(QUERY, { first: 100 });
      assertEquals(all.errors, undefined);
      const rows = all.data!.users.edges;
      assertEquals(rows.length, ROWS);
      const names = rows.map((edge) => edge.node.name);
      const next = random(SEED);
      const pick = (n: number) => Math.floor(next() * n);
      let open = 0;
      for (let w = 0; w < WINDOWS; w++) {
        // a cursor of a row, or none; a size from 0 to past the rows
        const after = next() < 0.5 ? pick(ROWS) : undefined;
        const before = next() < 0.5 ? pick(ROWS) : undefined;
        const size = pick(ROWS + 3);
        const side = pick(3); // first, last, or neither
        const first = side === 0 ? size : undefined;
        const last = side === 1 ? size : undefined;
        const label = `window ${w}: ${
          JSON.stringify({ after, before, first, last })
        } (seed ${SEED})`;
        const ours = await server.query<{ users: Page }>(QUERY, {
          first,
          last,
          after: after === undefined ? undefined : rows[after].cursor,
          before: before === undefined ? undefined : rows[before].cursor,
        });
        assertEquals(ours.errors, undefined, label);
        const page = ours.data!.users;
        const oracle = connectionFromArray(names, {
          first,
          last,
          after: after === undefined ? undefined : offsetToCursor(after),
          before: before === undefined ? undefined : offsetToCursor(before),
        });
        assertEquals(
          page.edges.map((edge) => edge.node.name),
          oracle.edges.map((e) => e.node),
          label,
        );
        // `before` at or ahead of `after`: both answer no edge; the flags then describe an empty
        // slice the specification's ApplyCursorsToEdges does not produce
        if (after !== undefined && before !== undefined && before <= after) continue;
        const expected = { ...oracle.pageInfo };
        if (last === undefined && after !== undefined) (expected.hasPreviousPage = true, open++);
        if (first === undefined && before !== undefined) (expected.hasNextPage = true, open++);
        assertEquals(
          {
            hasNextPage: page.pageInfo.hasNextPage,
            hasPreviousPage: page.pageInfo.hasPreviousPage,
          },
          { hasNextPage: expected.hasNextPage, hasPreviousPage: expected.hasPreviousPage },
          label,
        );
      }
      console.log(
        `${WINDOWS} windows (${dialect}, seed ${SEED}); ${open} flags left to the server`,
      );
    } finally {
      await server.close();
      await test.close();
    }
  });
}
