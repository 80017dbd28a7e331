import { Collection } from "@mikro-orm/core";
import {
  Entity,
  ManyToMany,
  ManyToOne,
  OneToMany,
  PrimaryKey,
  Property,
} from "@mikro-orm/decorators/es";
import { Mutations, OrderField, QueryField } from "@mikrogql/ext";
import { Contribution } from "./contribution.ts";
import { Book } from "./product.ts";

/** An author of books (decorator style), with a mentor (self-referencing m:1). */
@Entity()
@QueryField()
@Mutations()
export class Author {
  @PrimaryKey({ type: "integer" })
  id!: number;

  /** The author's name. */
  @OrderField("NAME")
  @Property({ type: "string" })
  name!: string;

  /** The author who mentors this one, if any. */
  @ManyToOne({ entity: () => Author, nullable: true, index: true })
  mentor?: Author;

  /** The authors this one mentors. */
  @OneToMany({ entity: () => Author, mappedBy: "mentor" })
  mentees = new Collection<Author>(this);

  /** The inverse side of `Book.authors`, through the `Contribution` pivot entity. */
  @ManyToMany({ entity: () => Book, mappedBy: "authors" })
  books = new Collection<InstanceType<typeof Book.class>>(this);

  /** The pivot rows themselves, with their own columns (`role`). */
  @OneToMany({ entity: () => Contribution, mappedBy: "author" })
  contributions = new Collection<Contribution>(this);
}
