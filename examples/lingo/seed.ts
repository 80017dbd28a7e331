/**
 * Seed data of the lingo example: three learners who follow each other, one soft-deleted (hidden
 * from every read by the `notDeleted` filter), and their decks.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import { Proficiency, Visibility } from "./shared/levels.ts";
import { Deck } from "./entities/deck.ts";
import { Follow } from "./entities/follow.ts";
import { Learner } from "./entities/learner.ts";

/**
 * Inserts deterministic data: 3 learners (one deleted), 3 follows, 3 decks (one deleted).
 *
 * @returns the number of rows inserted
 */
export async function seed(em: EntityManager): Promise<number> {
  const [ana, ben, cho] = [
    { name: "Ana", languages: ["es", "de"], proficiency: Proficiency.Beginner },
    { name: "Ben", languages: ["ja"], proficiency: Proficiency.Unknown },
    { name: "Cho", languages: [], proficiency: Proficiency.Fluent, deletedAt: new Date() },
  ].map((data) => em.create(Learner, data));
  await em.flush(); // the database makes the keys
  em.create(Follow, { follower: ana, followee: ben, practiceLevel: Proficiency.None });
  em.create(Follow, { follower: ben, followee: ana });
  em.create(Follow, { follower: ana, followee: cho });
  em.create(Deck, {
    title: "Verbs",
    owner: ana,
    words: ["ser", "estar", "NULL", " spaced "],
    settings: { daily: 20, shuffle: true },
    visibility: Visibility.Public,
  });
  em.create(Deck, { title: "Kana", owner: ben, words: [], visibility: Visibility.Hidden });
  em.create(Deck, {
    title: "Old",
    owner: ana,
    words: ["alt"],
    visibility: Visibility.Private,
    deletedAt: new Date(),
  });
  await em.flush();
  return 9;
}
