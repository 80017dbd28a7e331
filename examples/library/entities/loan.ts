import type { Ref } from "@mikro-orm/core";
import { Entity, ManyToOne, PrimaryKey, Property } from "@mikro-orm/decorators/es";
import { Mutations, OrderField, QueryField } from "@mikrogql/ext";
import { BookCopy } from "./book_copy.ts";
import { Member } from "./member.ts";

/** A loan of a copy to a member: two required to-one edges to composite keys. */
@Entity()
@QueryField()
@Mutations()
export class Loan {
  @PrimaryKey({ type: "integer" })
  id!: number;

  /** The copy lent. */
  @ManyToOne({ entity: () => BookCopy, ref: true, index: true })
  copy!: Ref<BookCopy>;

  /** The member the copy is lent to. */
  @ManyToOne({ entity: () => Member, ref: true, index: true })
  member!: Ref<Member>;

  /** When the copy is due back. */
  @OrderField("DUE")
  @Property({ type: "datetime" })
  due!: Date;
}
