import { Entity, ManyToOne, PrimaryKey, Property } from "@mikro-orm/decorators/es";
import { OrderField } from "@mikrogql/ext";
import { Article } from "./article.ts";
import { User } from "./user.ts";

/** A comment on an article. */
@Entity()
export class Comment {
  @PrimaryKey({ type: "integer" })
  id!: number;

  @Property({ type: "text" })
  body!: string;

  @OrderField("CREATED_AT")
  @Property({ type: "datetime", onCreate: () => new Date() })
  createdAt: Date = new Date();

  @ManyToOne({ entity: () => User, index: true })
  author!: User;

  @ManyToOne({ entity: () => Article, index: true })
  article!: Article;
}
