import { Collection, type Ref } from "@mikro-orm/core";
import {
  Entity,
  ManyToMany,
  ManyToOne,
  OneToMany,
  PrimaryKey,
  Property,
} from "@mikro-orm/decorators/es";
import { Mutations, OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
import { BookCopy } from "./book_copy.ts";
import { Branch } from "./branch.ts";
import { Loan } from "./loan.ts";

/**
 * A member (decorator style), keyed by a natural composite key of two text columns, as
 * MikroORM's `User2`.
 */
@Entity()
@QueryField()
@Mutations()
export class Member {
  /** The member's first name (the first part of the key). */
  @PrimaryKey({ type: "string", length: 50 })
  firstName!: string;

  /** The member's last name (the second part of the key). */
  @OrderField("LAST_NAME")
  @PrimaryKey({ type: "string", length: 50 })
  lastName!: string;

  /** The member's age in years, if given. */
  @OrderField("AGE")
  @Property({ type: "integer", nullable: true })
  age?: number;

  /** A to-one edge to a composite key made of a relation and a number. */
  @ManyToOne({ entity: () => BookCopy, nullable: true, ref: true })
  favouriteCopy?: Ref<BookCopy>;

  /** The branches the member belongs to. */
  @RelayConnection()
  @ManyToMany({ entity: () => Branch, mappedBy: "members" })
  branches = new Collection<InstanceType<typeof Branch.class>>(this);

  /** The member's loans, past and present. */
  @RelayConnection()
  @OneToMany({ entity: () => Loan, mappedBy: "member" })
  loans = new Collection<Loan>(this);
}
