import { defineEntity, p } from "@mikro-orm/core";
import { annotate, QueryField, RelayConnection } from "@mikrogql/ext";
import { Todo } from "./todo.ts";

/** A category whose 64-bit key lies in the Category range of the universal ids. */
export const Category = defineEntity({
  name: "Category",
  properties: {
    id: p.bigint().primary(),
    text: p.text(),
    todos: () => p.oneToMany(Todo).mappedBy("category"),
  },
});

annotate(Category, { entity: [QueryField()], fields: { todos: [RelayConnection()] } });
