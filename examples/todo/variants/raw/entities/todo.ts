import { defineEntity, p } from "@mikro-orm/core";
import { annotate, IdPrefix, QueryField } from "@mikrogql/ext";
import { ulid } from "@std/ulid";
import { Category } from "./category.ts";
import { User } from "./user.ts";

/** A todo keyed by a prefixed ULID (`todo_01H…`): the prefix names the type. */
export const Todo = defineEntity({
  name: "Todo",
  properties: {
    id: p.string().primary().onCreate(() => `todo_${ulid()}`),
    /** What there is to do. */
    text: p.text(),
    /** The category the todo is filed in, if any. */
    category: () => p.manyToOne(Category).index().nullable(),
    /** The user the todo belongs to, if any. */
    owner: () => p.manyToOne(User).index().nullable(),
  },
});

annotate(Todo, { entity: [QueryField(), IdPrefix("todo")] });
