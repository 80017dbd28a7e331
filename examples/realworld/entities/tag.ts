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

  @OrderField("NAME")
  @Property({ type: "string", unique: true })
  name!: string;

  @RelayConnection()
  @ManyToMany({ entity: () => Article, mappedBy: "tagList" })
  articles: Collection<Article> = new Collection<Article>(this);
}
