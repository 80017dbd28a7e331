import { Entity, ManyToOne, PrimaryKey, Property } from "@mikro-orm/decorators/es";
import { OrderField } from "@mikrogql/ext";
import { Article } from "./article.ts";
import { User } from "./user.ts";

/** A comment on an article. */
@Entity()
export class Comment {
  @PrimaryKey({ type: "integer" })
  id!: number;

  /** The comment's text. */
  @Property({ type: "text" })
  body!: string;

  /** When the comment was posted. */
  @OrderField("CREATED_AT")
  @Property({ type: "datetime", onCreate: () => new Date() })
  createdAt: Date = new Date();

  /** The user who wrote the comment. */
  @ManyToOne({ entity: () => User, index: true })
  author!: User;

  /** The article the comment is on. */
  @ManyToOne({ entity: () => Article, index: true })
  article!: Article;
}
