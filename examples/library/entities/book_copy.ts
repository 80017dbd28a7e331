import { Collection, type Opt, type Ref } from "@mikro-orm/core";
import { Entity, ManyToOne, OneToMany, PrimaryKey, Property } from "@mikro-orm/decorators/es";
import { Mutations, OrderField, QueryField } from "@mikrogql/ext";
import { Branch } from "./branch.ts";
import { Loan } from "./loan.ts";
import { Title } from "./title.ts";

/** One copy of a title, keyed by the title and its copy number (a relation and a number). */
@Entity()
@QueryField()
@Mutations()
export class BookCopy {
  /** The title this is a copy of (the first part of the key). */
  @ManyToOne({ entity: () => Title, primary: true, ref: true })
  title!: Ref<InstanceType<typeof Title.class>>;

  /** The copy's number among the copies of its title (the second part of the key). */
  @PrimaryKey({ type: "integer" })
  copyNumber!: number;

  /** The copy's physical condition ("good" by default). */
  @OrderField("CONDITION")
  @Property({ type: "string" })
  condition: Opt<string> = "good";

  /** Where the copy is shelved: a foreign key to a natural composite key. */
  @ManyToOne({ entity: () => Branch, nullable: true, ref: true, index: true })
  branch?: Ref<InstanceType<typeof Branch.class>>;

  /** The loans of this copy, past and present. */
  @OneToMany({ entity: () => Loan, mappedBy: "copy" })
  loans = new Collection<Loan>(this);
}
