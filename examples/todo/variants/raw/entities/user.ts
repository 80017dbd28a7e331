import { defineEntity, p } from "@mikro-orm/core";
import { annotate, QueryField } from "@mikrogql/ext";
import { Todo } from "./todo.ts";

/** A user keyed by a version-4 UUID. */
export const User = defineEntity({
  name: "User",
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    /** The user's name. */
    name: p.string(),
    /** The todos the user owns. */
    todos: () => p.oneToMany(Todo).mappedBy("owner"),
  },
});

annotate(User, { entity: [QueryField()] });
