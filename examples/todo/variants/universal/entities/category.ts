import { defineEntity, p } from "@mikro-orm/core";
import { annotate, QueryField, RelayConnection } from "@mikrogql/ext";
import { Todo } from "./todo.ts";

/** A category whose 64-bit key lies in the Category range of the universal ids. */
export const Category = defineEntity({
  name: "Category",
  properties: {
    id: p.bigint().primary(),
    /** The category's name. */
    text: p.text(),
    /** The todos filed in the category. */
    todos: () => p.oneToMany(Todo).mappedBy("category"),
  },
});

annotate(Category, { entity: [QueryField()], fields: { todos: [RelayConnection()] } });
