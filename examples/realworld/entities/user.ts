import { Collection } from "@mikro-orm/core";
import { Entity, ManyToMany, OneToMany, PrimaryKey, Property } from "@mikro-orm/decorators/es";
import { OrderField, QueryField, RelayConnection } from "@mikrogql/ext";
import { Article } from "./article.ts";

/** A Conduit user: profile, follows (m:n self), articles and favorites. */
@Entity()
@QueryField()
export class User {
  @PrimaryKey({ type: "integer" })
  id!: number;

  @OrderField("USERNAME")
  @Property({ type: "string", unique: true })
  username!: string;

  @Property({ type: "string", unique: true })
  email!: string;

  /** Never exposed: `hidden` properties stay out of the GraphQL schema. */
  @Property({ type: "string", hidden: true })
  password!: string;

  @Property({ type: "text", nullable: true })
  bio?: string | null;

  @Property({ type: "string", nullable: true })
  image?: string | null;

  @RelayConnection()
  @ManyToMany({
    entity: () => User,
    inversedBy: "followers",
    pivotTable: "user_follows",
  })
  following: Collection<User> = new Collection<User>(this);

  @RelayConnection()
  @ManyToMany({ entity: () => User, mappedBy: "following" })
  followers: Collection<User> = new Collection<User>(this);

  @RelayConnection()
  @OneToMany({ entity: () => Article, mappedBy: "author" })
  articles: Collection<Article> = new Collection<Article>(this);

  @RelayConnection()
  @ManyToMany({ entity: () => Article, mappedBy: "favoritedBy" })
  favorites: Collection<Article> = new Collection<Article>(this);
}
