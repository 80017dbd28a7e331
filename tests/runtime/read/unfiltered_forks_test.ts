/**
 * `noFilters` against the full check (every entity's filters applied on the EntityManager) over
 * random sequences of forks, `addFilter` calls and checks (printed seeds): it never says "no
 * filters" where a filter applies; forks of an unfiltered EntityManager answer without applying
 * filters; an EntityManager filtered before the wrapping is seen.
 */
import { assert, assertEquals } from "@std/assert";
import type { EntityManager } from "@mikro-orm/core";
import { entities } from "../../../examples/blog/entities.ts";
import { Comment } from "../../../examples/blog/entities/comment.ts";
import { Post } from "../../../examples/blog/entities/post.ts";
import { User } from "../../../examples/blog/entities/user.ts";
import { noFilters } from "../../../runtime/read/unfiltered_forks.ts";
import { openOrm } from "../../../server/open_orm.ts";
import { random } from "../../support/random_data.ts";

/** `em.addFilter` of `{ id > 0 }` on `entity` (MikroORM's types do not take a union). */
function addFilter(em: EntityManager, name: string, entity: unknown): void {
  em.addFilter({ name, cond: { id: { $gt: 0 } }, entity: [entity] } as never);
}

async function fullCheck(em: EntityManager): Promise<boolean> {
  for (const entity of [User, Post, Comment]) {
    const where = await em.applyFilters(entity as never, {}, {}, "read");
    if (where && Reflect.ownKeys(where as object).length > 0) return false;
  }
  return true;
}

Deno.test("noFilters: never 'none' where a filter applies, over random forks and filters", async () => {
  const orm = await openOrm({ entities });
  try {
    // Filtered before noFilters first ran (before the wrapping): its forks are checked in full.
    const early = orm.em.fork();
    addFilter(early, "early", Post);
    assertEquals(await noFilters(early.fork()), false);
    // Forks of a clean root answer without applying any filter.
    assertEquals(await noFilters(orm.em), true);
    const fork = orm.em.fork();
    let applied = 0;
    const applyFilters = fork.applyFilters.bind(fork);
    (fork as { applyFilters: unknown }).applyFilters = (...args: never[]) => {
      applied++;
      return (applyFilters as (...args: never[]) => unknown)(...args);
    };
    assertEquals(await noFilters(fork), true);
    assertEquals(applied, 0);

    for (const seed of [1, 2, 3, 4, 5, Date.now() % 100_000]) {
      console.log(`seed ${seed}`);
      const rand = random(seed);
      const root = orm.em.fork();
      const ems: EntityManager[] = [root];
      let exact = 0, checks = 0;
      for (let step = 0; step < 60; step++) {
        const em = ems[Math.floor(rand() * ems.length)];
        const roll = rand();
        if (roll < 0.45) ems.push(em.fork({ disableContextResolution: rand() < 0.3 }));
        else if (roll < 0.55) {
          const entity = [User, Post, Comment][Math.floor(rand() * 3)];
          addFilter(em, `f${step}`, entity);
        } else {
          const [fast, full] = [await noFilters(em), await fullCheck(em)];
          checks++;
          if (fast === full) exact++;
          assert(!fast || full, `seed ${seed} step ${step}: "no filters" on a filtered em`);
        }
      }
      console.log(`  ${exact} of ${checks} answers exact, the others conservative`);
    }
  } finally {
    await orm.close();
  }
});
