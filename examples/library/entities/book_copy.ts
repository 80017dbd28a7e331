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
  @ManyToOne({ entity: () => Title, primary: true, ref: true })
  title!: Ref<InstanceType<typeof Title.class>>;

  @PrimaryKey({ type: "integer" })
  copyNumber!: number;

  @OrderField("CONDITION")
  @Property({ type: "string" })
  condition: Opt<string> = "good";

  /** Where the copy is shelved: a foreign key to a natural composite key. */
  @ManyToOne({ entity: () => Branch, nullable: true, ref: true, index: true })
  branch?: Ref<InstanceType<typeof Branch.class>>;

  @OneToMany({ entity: () => Loan, mappedBy: "copy" })
  loans = new Collection<Loan>(this);
}
