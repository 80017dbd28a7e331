/**
 * The todo example's entity classes, for servers, tests and benchmarks (without the example server's
 * imports: GraphiQL, the seed).
 *
 * @module
 */
import { Category } from "./entities/category.ts";
import { Group } from "./entities/group.ts";
import { Todo } from "./entities/todo.ts";
import { User } from "./entities/user.ts";

/** The todo example's entities. */
export const entities = [Todo, Category, User, Group];
