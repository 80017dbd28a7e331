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

  /** The user's unique public name. */
  @OrderField("USERNAME")
  @Property({ type: "string", unique: true })
  username!: string;

  /** The user's unique email address, used to sign in. */
  @Property({ type: "string", unique: true })
  email!: string;

  /** Never exposed: `hidden` properties stay out of the GraphQL schema. */
  @Property({ type: "string", hidden: true })
  password!: string;

  /** A short biography shown on the user's profile. */
  @Property({ type: "text", nullable: true })
  bio?: string | null;

  /** The URL of the user's profile picture. */
  @Property({ type: "string", nullable: true })
  image?: string | null;

  /** The users this user follows. */
  @RelayConnection()
  @ManyToMany({
    entity: () => User,
    inversedBy: "followers",
    pivotTable: "user_follows",
  })
  following: Collection<User> = new Collection<User>(this);

  /** The users who follow this user. */
  @RelayConnection()
  @ManyToMany({ entity: () => User, mappedBy: "following" })
  followers: Collection<User> = new Collection<User>(this);

  /** The articles the user wrote. */
  @RelayConnection()
  @OneToMany({ entity: () => Article, mappedBy: "author" })
  articles: Collection<Article> = new Collection<Article>(this);

  /** The articles the user marked as favorites. */
  @RelayConnection()
  @ManyToMany({ entity: () => Article, mappedBy: "favoritedBy" })
  favorites: Collection<Article> = new Collection<Article>(this);
}
