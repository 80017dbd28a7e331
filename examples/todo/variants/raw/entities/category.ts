import { defineEntity, p } from "@mikro-orm/core";
import { annotate, QueryField, RelayConnection } from "@mikrogql/ext";
import { generate as uuidV7 } from "@std/uuid/v7";
import { Todo } from "./todo.ts";

/** A category keyed by a version-7 UUID. */
export const Category = defineEntity({
  name: "Category",
  properties: {
    id: p.uuid().primary().onCreate(() => uuidV7()),
    /** The category's name. */
    text: p.text(),
    /** The todos filed in the category. */
    todos: () => p.oneToMany(Todo).mappedBy("category"),
  },
});

annotate(Category, { entity: [QueryField()], fields: { todos: [RelayConnection()] } });
