import { Collection } from "@mikro-orm/core";
import { Entity, Enum, ManyToMany, OneToMany, Property } from "@mikro-orm/decorators/es";
import { Mutations, OrderField, QueryField } from "@mikrogql/ext";
import { Proficiency } from "../shared/levels.ts";
import { BaseEntity } from "./base.ts";
import { Deck } from "./deck.ts";
import { Follow } from "./follow.ts";

/** Someone learning a language. */
@Entity()
@QueryField()
@Mutations()
export class Learner extends BaseEntity {
  /** The learner's display name. */
  @OrderField("NAME")
  @Property({ type: "string" })
  name!: string;

  /** The languages the learner studies (a PostgreSQL `text[]` column). */
  @Property({ type: "text[]" })
  languages!: string[];

  /** How well the learner speaks (a numeric enum with a negative member). */
  @Enum({ items: () => Proficiency })
  proficiency!: Proficiency;

  /** Who this learner follows: a self-referencing m:n through the `Follow` pivot entity. */
  @ManyToMany({
    entity: () => Learner,
    pivotEntity: () => Follow,
    joinColumn: "follower_id",
    inverseJoinColumn: "followee_id",
  })
  following = new Collection<Learner>(this);

  /** Who follows this learner (the inverse side of `following`). */
  @ManyToMany({ entity: () => Learner, mappedBy: "following" })
  followers = new Collection<Learner>(this);

  /** The follows this learner made, with their own columns. */
  @OneToMany({ entity: () => Follow, mappedBy: "follower" })
  follows = new Collection<Follow>(this);

  /** The decks the learner owns. */
  @OneToMany({ entity: () => Deck, mappedBy: "owner" })
  decks = new Collection<Deck>(this);
}
