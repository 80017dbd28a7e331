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
    text: p.text(),
    category: () => p.manyToOne(Category).index().nullable(),
    owner: () => p.manyToOne(User).index().nullable(),
  },
});

annotate(Todo, { entity: [QueryField(), IdPrefix("todo")] });
