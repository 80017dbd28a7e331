/**
 * Transient database failures of mutations, over HTTP on PostgreSQL and MariaDB (the blog
 * example with the preset's Transactioner): 40 rounds of two concurrent 2-field mutations that
 * update the same two posts in opposite orders, which deadlock. The loser of a deadlock is run
 * again from the start, so no response is ever `INTERNAL_SERVER_ERROR`: each is answered, or
 * (after every attempt lost) `TRANSACTION_CONFLICT` with `extensions.retryable: true` and
 * nothing written; and no acknowledged write is lost (the oracle: both posts hold the titles
 * of one acknowledged mutation, the last to commit, or of the round before when none was).
 * A mutation that loses every attempt (a resolver that always deadlocks) is tried
 * `CONFLICT_ATTEMPTS` times, then answered `TRANSACTION_CONFLICT`, its writes rolled back.
 */
import { assert, assertEquals } from "@std/assert";
import { DeadlockException } from "@mikro-orm/core";
import {
  CONFLICT_ATTEMPTS,
  type FieldResolver,
  fromContext,
  globalIdOf,
  type MikroContext,
} from "../../mod.ts";
import { createSchema, graph } from "../../examples/blog/generated/mod.ts";
import { entities } from "../../examples/blog/entities.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { type Response, startServer } from "../support/server.ts";

const ROUNDS = 40;

/** Updates post `$first`, then post `$second`, titling them `<$tag>-1` and `<$tag>-2`. */
const TWO_UPDATES = `mutation ($first: ID!, $second: ID!, $t1: String!, $t2: String!) {
  a: updatePost(id: $first, input: { title: $t1 }) { id title }
  b: updatePost(id: $second, input: { title: $t2 }) { id title }
}`;

for (const dialect of dialects(["postgresql", "mariadb"])) {
  Deno.test(`deadlocked mutations are retried, never INTERNAL_SERVER_ERROR (${dialect})`, async () => {
    const test = await openTestOrm(dialect, entities);
    if (dialect === "postgresql") {
      // PostgreSQL looks for deadlocks after a lock wait of deadlock_timeout (1 s by default)
      const name = new URL(test.db.url).pathname.slice(1);
      await test.orm.em.getConnection().execute(
        `alter database "${name}" set deadlock_timeout = '100ms'`,
      );
      await test.orm.reconnect();
    }
    const em = test.orm.em.fork();
    const author = em.create(User, {
      name: "author",
      email: "a@example.com",
      createdAt: new Date(),
    });
    const p1 = em.create(Post, { title: "start-1", body: "b", author });
    const p2 = em.create(Post, { title: "start-2", body: "b", author });
    await em.flush();
    const [id1, id2] = [p1, p2].map((p) => globalIdOf(graph, graph.types.Post, p.id));
    const server = startServer(test.orm, createSchema());
    const counts = { answered: 0, conflict: 0, retried: 0 };
    try {
      let expected = ["start-1", "start-2"];
      for (let round = 0; round < ROUNDS; round++) {
        test.log.length = 0;
        const tags = [`x${round}`, `y${round}`];
        const responses: Response[] = await Promise
          .all([
            server.query(TWO_UPDATES, {
              first: id1,
              second: id2,
              t1: `${tags[0]}-1`,
              t2: `${tags[0]}-2`,
            }),
            server.query(TWO_UPDATES, {
              first: id2,
              second: id1,
              t1: `${tags[1]}-2`,
              t2: `${tags[1]}-1`,
            }),
          ]);
        counts.retried += test.log.filter((s) => /^rollback/i.test(s.trim())).length;
        const acknowledged: string[] = [];
        responses.forEach((response, i) => {
          if (response.errors === undefined) {
            counts.answered++;
            acknowledged.push(tags[i]);
            return;
          }
          const [error] = response.errors;
          assertEquals(response.errors.length, 1, JSON.stringify(response.errors));
          assertEquals(error.extensions?.code, "TRANSACTION_CONFLICT", JSON.stringify(error));
          assertEquals((error.extensions as { retryable?: boolean }).retryable, true);
          assertEquals(response.data, null);
          counts.conflict++;
        });
        const rows = await test.orm.em.fork().find(Post, {}, { orderBy: { id: "asc" } });
        const titles = rows.map((p) => p.title);
        if (acknowledged.length === 0) {
          assertEquals(titles, expected, `round ${round}: nothing acknowledged, nothing written`);
        } else {
          // both rows of one acknowledged transaction: the last to commit
          const tag = titles[0].split("-")[0];
          assert(acknowledged.includes(tag), `round ${round}: ${titles} of ${acknowledged}`);
          assertEquals(titles, [`${tag}-1`, `${tag}-2`], `round ${round}`);
          expected = titles;
        }
      }
      console.log(
        `${ROUNDS} rounds (${dialect}): ${counts.answered} answered, ${counts.conflict} TRANSACTION_CONFLICT, ${counts.retried} transactions rolled back and run again`,
      );
      assert(counts.answered >= ROUNDS, `most mutations succeed: ${JSON.stringify(counts)}`);
    } finally {
      await server.close();
      await test.close();
    }
  });
}

for (const dialect of dialects(["sqlite", "postgresql"])) {
  Deno.test(`a mutation that always deadlocks is TRANSACTION_CONFLICT, retryable (${dialect})`, async () => {
    const test = await openTestOrm(dialect, entities);
    let attempts = 0;
    type Extra = {
      Mutation: { alwaysDeadlocks: FieldResolver<number | null, unknown, { title: string }> };
    };
    const schema = createSchema<Extra>({
      typeDefs: "extend type Mutation { alwaysDeadlocks(title: String!): Int }",
      resolvers: {
        Mutation: {
          alwaysDeadlocks: async (_root: unknown, args: { title: string }, ctx: MikroContext) => {
            attempts++;
            const em = fromContext(ctx);
            const author = em.create(User, {
              name: "n",
              email: "e@example.com",
              createdAt: new Date(),
            });
            em.create(Post, { title: args.title, body: "b", author });
            await em.flush();
            throw new DeadlockException(new Error("deadlock detected"));
          },
        },
      },
    });
    const server = startServer(test.orm, schema);
    try {
      const started = performance.now();
      const response = await server.query(`mutation { alwaysDeadlocks(title: "lost") }`);
      const ms = performance.now() - started;
      assertEquals(attempts, CONFLICT_ATTEMPTS);
      assertEquals(response.data, null);
      assertEquals(response.errors?.length, 1);
      assertEquals(response.errors![0].extensions as Record<string, unknown>, {
        code: "TRANSACTION_CONFLICT",
        retryable: true,
      });
      assertEquals(await test.orm.em.fork().count(Post), 0, "every attempt rolled back");
      console.log(`${CONFLICT_ATTEMPTS} attempts, answered in ${ms.toFixed(0)} ms (${dialect})`);
    } finally {
      await server.close();
      await test.close();
    }
  });
}
