/**
 * `serve()` forks a request's EntityManager when something first reads `ctx.em`
 * (`runtime/request/lazy_entity_manager.ts`), on each database: a request that reads nothing
 * forks none; a query and a mutation fork one, bound to the `Deadline` plugin's signal while the
 * operation executes and unbound after; a user's context function reading `em` shares the fork
 * with the resolvers; an `em` it returns replaces the fork.
 */
import { assert, assertEquals } from "@std/assert";
import type { EntityManager } from "@mikro-orm/core";
import { entities } from "../../examples/blog/entities.ts";
import { seed } from "../../examples/blog/seed.ts";
import type { ServeOptions } from "../../server/serve.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { serveForTest } from "../support/serve_for_test.ts";

/** What the forks of `orm.em` saw: each fork, and the `signal` values written to it. */
interface Forks {
  made: EntityManager[];
  signals: Map<EntityManager, unknown[]>;
}

/** Counts `orm.em.fork()` calls and records the signals set on each fork. */
function spyOnForks(em: EntityManager): Forks {
  const forks: Forks = { made: [], signals: new Map() };
  const fork = em.fork.bind(em);
  em.fork = ((options?: Parameters<EntityManager["fork"]>[0]) => {
    const made = fork(options);
    forks.made.push(made);
    const signals: unknown[] = [];
    forks.signals.set(made, signals);
    let signal: unknown = (made as unknown as { signal?: unknown }).signal;
    Object.defineProperty(made, "signal", {
      get: () => signal,
      set: (value) => {
        signals.push(value);
        signal = value;
      },
      configurable: true,
    });
    return made;
  }) as EntityManager["fork"];
  return forks;
}

async function post(url: string, query: string): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  return await response.json();
}

for (const dialect of dialects()) {
  Deno.test({
    name: `serve forks a request's EntityManager only when it is read (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm(dialect, entities);
      await seed(db.orm.em.fork());
      const forks = spyOnForks(db.orm.em);
      let contextEm: EntityManager | undefined;
      let readEmInContext = false;
      let ownEm: EntityManager | undefined;
      // `initial.em` read only when asked: reading it is what forks.
      const context: ServeOptions["context"] = (initial) => {
        if (initial.request.headers.get("x-test") === "read") {
          readEmInContext = true;
          contextEm = initial.em;
        }
        return ownEm ? { em: ownEm } : {};
      };
      const server = await serveForTest({ orm: db.orm, context });
      try {
        // Nothing read: no fork, through every plugin of the preset.
        assertEquals(await post(server.url, "{ __typename }"), { data: { __typename: "Query" } });
        assertEquals(forks.made.length, 0);
        // An invalid document and a refused one read nothing either.
        await post(server.url, "{ nope }");
        assertEquals(forks.made.length, 0);

        // A query forks once, bound to the deadline's signal while it executes, then unbound.
        const users = await post(server.url, "{ users(first: 2) { edges { node { name } } } }");
        assertEquals(users, {
          data: {
            users: { edges: [{ node: { name: "user000" } }, { node: { name: "user001" } }] },
          },
        });
        assertEquals(forks.made.length, 1);
        const signals = forks.signals.get(forks.made[0])!;
        assertEquals(signals.length, 2);
        assert(signals[0] instanceof AbortSignal);
        assertEquals(signals[1], undefined);

        // A mutation: the request's fork, the Transactioner's fork of it for the transaction.
        const created = await post(
          server.url,
          `mutation { createUser(input: { name: "new", email: "new@example.com" }) { name } }`,
        );
        assertEquals(created, { data: { createUser: { name: "new" } } });
        assertEquals(forks.made.length, 2);

        // The user's context function reads `em`: the resolvers use that same fork.
        const response = await fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-test": "read" },
          body: JSON.stringify({ query: "{ users(first: 1) { totalCount } }" }),
        });
        assertEquals(await response.json(), { data: { users: { totalCount: 6 } } });
        assert(readEmInContext);
        assertEquals(forks.made.length, 3);
        assertEquals(contextEm, forks.made[2]);
        assertEquals(forks.signals.get(forks.made[2])!.length, 2);

        // An `em` the context function returns replaces the fork: none is made.
        const own = forks.made[0];
        ownEm = own;
        assertEquals(await post(server.url, "{ users(first: 1) { totalCount } }"), {
          data: { users: { totalCount: 6 } },
        });
        assertEquals(forks.made.length, 3);
        assertEquals(forks.signals.get(own)!.length, 4);
      } finally {
        await server.shutdown();
        await db.db.drop();
      }
    },
  });
}
