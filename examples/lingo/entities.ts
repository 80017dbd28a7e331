/**
 * The language-learning app's entity classes and ORM options, for servers and tests.
 *
 * @module
 */
import { BaseEntity } from "./entities/base.ts";
import { Deck } from "./entities/deck.ts";
import { Follow } from "./entities/follow.ts";
import { Learner } from "./entities/learner.ts";

export { ormOptions } from "./columns.ts";

/** The app's entities (the abstract base with its soft-delete filter included). */
export const entities = [BaseEntity, Learner, Follow, Deck];
