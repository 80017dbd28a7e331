/**
 * The RealWorld example's entity classes, for servers, tests and benchmarks (without the example server's
 * imports: GraphiQL, the seed).
 *
 * @module
 */
import { Article } from "./entities/article.ts";
import { Comment } from "./entities/comment.ts";
import { Tag } from "./entities/tag.ts";
import { User } from "./entities/user.ts";

/** The RealWorld entities. */
export const entities = [User, Article, Tag, Comment];
