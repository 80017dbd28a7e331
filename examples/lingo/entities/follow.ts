import { type Opt, PrimaryKeyProp, type Ref } from "@mikro-orm/core";
import { Entity, Enum, ManyToOne, Property } from "@mikro-orm/decorators/es";
import { Mutations } from "@mikrogql/ext";
import { Proficiency } from "../shared/levels.ts";
import { Learner } from "./learner.ts";

/**
 * The pivot entity of `Learner.following`, with columns of its own: a node type keyed by both
 * learners.
 */
@Entity()
@Mutations()
export class Follow {
  [PrimaryKeyProp]?: ["follower", "followee"];

  /** The learner who follows (the first part of the key). */
  @ManyToOne({ entity: () => Learner, primary: true, ref: true })
  follower!: Ref<Learner>;

  /** The learner followed (the second part of the key). */
  @ManyToOne({ entity: () => Learner, primary: true, ref: true })
  followee!: Ref<Learner>;

  /** Since when. */
  @Property({ type: "datetime" })
  since: Opt<Date> = new Date();

  /** The level the follower wants to practise at with the followee, if any. */
  @Enum({ items: () => Proficiency, nullable: true })
  practiceLevel?: Proficiency | null;
}
