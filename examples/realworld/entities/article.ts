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

  @Property({ type: "string", unique: true })
  slug!: string;

  @OrderField("TITLE")
  @Property({ type: "string" })
  title!: string;

  @Property({ type: "string" })
  description!: string;

  @Property({ type: "text" })
  body!: string;

  @OrderField("CREATED_AT")
  @Property({ type: "datetime", onCreate: () => new Date() })
  createdAt: Date = new Date();

  @OrderField("UPDATED_AT")
  @Property({
    type: "datetime",
    onCreate: () => new Date(),
    onUpdate: () => new Date(),
  })
  updatedAt: Date = new Date();

  @ManyToOne({ entity: () => User, index: true })
  author!: User;

  @ManyToMany({
    entity: () => Tag,
    inversedBy: "articles",
    pivotTable: "article_tags",
  })
  tagList: Collection<Tag> = new Collection<Tag>(this);

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
