import { Collection } from "@mikro-orm/core";
import {
  Entity,
  ManyToMany,
  ManyToOne,
  OneToMany,
  PrimaryKey,
  Property,
} from "@mikro-orm/decorators/es";
import { OrderField, QueryField, RelayConnection, Unbind } from "@mikrogql/ext";
import { Comment } from "./comment.ts";
import { Tag } from "./tag.ts";
import { User } from "./user.ts";

/** A Conduit article: tagged (m:n), favorited by users (m:n), commented. */
@Entity()
@QueryField()
export class Article {
  @PrimaryKey({ type: "integer" })
  id!: number;

  /** The article's unique URL slug, derived from its title. */
  @Property({ type: "string", unique: true })
  slug!: string;

  /** The article's title. */
  @OrderField("TITLE")
  @Property({ type: "string" })
  title!: string;

  /** A one-line summary shown in article lists. */
  @Property({ type: "string" })
  description!: string;

  /** The article's text, in Markdown. */
  @Property({ type: "text" })
  body!: string;

  /** When the article was published. */
  @OrderField("CREATED_AT")
  @Property({ type: "datetime", onCreate: () => new Date() })
  createdAt: Date = new Date();

  /** When the article was last edited. */
  @OrderField("UPDATED_AT")
  @Property({
    type: "datetime",
    onCreate: () => new Date(),
    onUpdate: () => new Date(),
  })
  updatedAt: Date = new Date();

  /** The user who wrote the article. */
  @ManyToOne({ entity: () => User, index: true })
  author!: User;

  /** The tags the article is filed under. */
  @ManyToMany({
    entity: () => Tag,
    inversedBy: "articles",
    pivotTable: "article_tags",
  })
  tagList: Collection<Tag> = new Collection<Tag>(this);

  /** The users who marked the article as a favorite. */
  @RelayConnection()
  @ManyToMany({
    entity: () => User,
    inversedBy: "favorites",
    pivotTable: "article_favorites",
  })
  favoritedBy: Collection<User> = new Collection<User>(this);

  /** Loaded on demand by its edge resolver, not by field collection (`Unbind`). */
  @Unbind()
  @RelayConnection()
  @OneToMany({ entity: () => Comment, mappedBy: "article" })
  comments: Collection<Comment> = new Collection<Comment>(this);
}
