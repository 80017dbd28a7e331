/**
 * The todo example's schema: the generated API plus entgql's todo extensions, so every query and
 * mutation of entgql's todo integration tests has the same name and semantics here:
 *
 * - `createCategory(input: { ..., createTodos: [CreateTodoInput!] })` creates the category and
 *   its todos in one mutation (entgql's README: `extend input CreateCategoryInput`);
 * - `clearTodos: Int!` deletes every todo and returns how many it deleted (entgql's
 *   `client.Todo.Delete().Exec(ctx)`).
 *
 * `createTodo`/`updateTodo`, `createCategory`/`updateCategory` and `createUser`/`updateUser`
 * (with `clearParent`, `add<Edge>IDs`, `remove<Edge>IDs`, `clear<Edges>`) are generated from
 * `Mutations({ delete: false })`, entgql's `MutationCreate(), MutationUpdate()`.
 *
 * @module
 */
import type { GraphQLSchema } from "graphql";
import {
  createNode,
  type FieldResolver,
  fromContext,
  globalIdOf,
  type SchemaOptions,
} from "@mikrogql/ext";
import { Todo } from "./entities/todo.ts";
import {
  type Category,
  type CreateCategoryInput,
  createSchema,
  type CreateTodoInput,
  graph,
  type Resolvers,
} from "./generated/mod.ts";

/** The SDL entgql's todo example adds to the generated schema. */
export const typeDefs = `
extend input CreateCategoryInput {
  """Todos created in the new category, in the same transaction."""
  createTodos: [CreateTodoInput!]
}
extend type Mutation {
  """Deletes every todo; returns how many were deleted."""
  clearTodos: Int!
}
`;

/**
 * The resolvers of what {@linkcode typeDefs} adds, declared for `Resolvers<TodoExtra>`: the
 * extended input changes `createCategory`'s arguments, `clearTodos` is new.
 */
export type TodoExtra = {
  Mutation: {
    createCategory: FieldResolver<
      Category,
      unknown,
      { input: CreateCategoryInput & { createTodos?: CreateTodoInput[] | null } }
    >;
    clearTodos: FieldResolver<number, unknown>;
  };
};

/**
 * The todo example's executable schema (the generated one plus {@linkcode typeDefs}); `options`
 * go to the generated `createSchema` (limits, hooks, more SDL and resolvers after these).
 */
export function todoSchema(options: SchemaOptions<Resolvers<TodoExtra>> = {}): GraphQLSchema {
  const resolvers: Resolvers<TodoExtra> = {
    Mutation: {
      createCategory: async (_root, { input: { createTodos, ...input } }, ctx) => {
        const em = fromContext(ctx);
        const category = await createNode<Category>(em, graph, "Category").set(input).save();
        const categoryID = globalIdOf(graph, graph.types.Category, category.id);
        for (const todo of createTodos ?? []) {
          await createNode(em, graph, "Todo").set(todo).set({ categoryID }).save();
        }
        return category;
      },
      clearTodos: async (_root, _args, ctx) => {
        const em = fromContext(ctx);
        // Children first: MariaDB checks the parent key row by row.
        await em.nativeUpdate(Todo, {}, { parent: null } as never);
        return await em.nativeDelete(Todo, {});
      },
    },
  };
  return createSchema<TodoExtra>({
    ...options,
    typeDefs: [typeDefs, ...[options.typeDefs ?? []].flat()],
    resolvers: [resolvers, ...[options.resolvers ?? []].flat()],
  });
}
