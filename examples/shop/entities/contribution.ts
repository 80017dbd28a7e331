import type { Ref } from "@mikro-orm/core";
import { Entity, Enum, ManyToOne, Property } from "@mikro-orm/decorators/es";
import { Mutations } from "@mikrogql/ext";
import { Author } from "./author.ts";
import { Book } from "./product.ts";

/** What an author did for a book. */
export enum ContributorRole {
  Author = "author",
  Editor = "editor",
  Translator = "translator",
}

/**
 * The pivot entity of `Book.authors` (m:n) with columns of its own: a node type whose composite
 * primary key (book, author) is encoded whole in its global id.
 */
@Entity()
@Mutations()
export class Contribution {
  /** The book contributed to (the first part of the key). */
  @ManyToOne({ entity: () => Book, primary: true, ref: true })
  book!: Ref<InstanceType<typeof Book.class>>;

  /** The author who contributed (the second part of the key). */
  @ManyToOne({ entity: () => Author, primary: true, ref: true })
  author!: Ref<Author>;

  /** What the author did for the book. */
  @Enum({ items: () => ContributorRole })
  role: ContributorRole = ContributorRole.Author;

  /** Where the author is listed among the book's contributors, if set. */
  @Property({ type: "integer", nullable: true })
  position?: number;
}
