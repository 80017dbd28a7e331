import { Collection } from "@mikro-orm/core";
import { Entity, ManyToMany, PrimaryKey, Property } from "@mikro-orm/decorators/es";
import { OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
import { Article } from "./article.ts";

/** A Conduit tag. */
@Entity()
@QueryField()
export class Tag {
  @PrimaryKey({ type: "integer" })
  id!: number;

  /** The tag's unique name. */
  @OrderField("NAME")
  @Property({ type: "string", unique: true })
  name!: string;

  /** The articles filed under the tag. */
  @RelayConnection()
  @ManyToMany({ entity: () => Article, mappedBy: "tagList" })
  articles: Collection<Article> = new Collection<Article>(this);
}
