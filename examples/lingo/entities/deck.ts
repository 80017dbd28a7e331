import type { Ref } from "@mikro-orm/core";
import { Entity, Enum, ManyToOne, Property } from "@mikro-orm/decorators/es";
import { Mutations, OrderField, QueryField } from "@mikrogql/ext";
import { Visibility } from "../shared/levels.ts";
import { BaseEntity } from "./base.ts";
import { Learner } from "./learner.ts";

/** A deck of flash cards a learner owns. */
@Entity()
@QueryField()
@Mutations()
export class Deck extends BaseEntity {
  /** The deck's title. */
  @OrderField("TITLE")
  @Property({ type: "string" })
  title!: string;

  /** The learner who owns the deck. */
  @ManyToOne({ entity: () => Learner, ref: true, index: true })
  owner!: Ref<Learner>;

  /** The deck's words (a PostgreSQL `text[]` column). */
  @Property({ type: "text[]" })
  words!: string[];

  /** Study settings (`jsonb` on PostgreSQL). */
  @Property({ type: "json", nullable: true })
  settings?: Record<string, unknown> | null;

  /** Who sees the deck (a numeric enum with negative members). */
  @Enum({ items: () => Visibility })
  visibility!: Visibility;
}
