import { defineEntity, p } from "@mikro-orm/core";
import {
  annotate,
  MultiOrder,
  Mutations,
  OrderField,
  QueryField,
  RelayConnection,
} from "@mikrogql/ext";
import { Category } from "./category.ts";

/** Progress of a todo (entgql's todo example: `IN_PROGRESS`, `COMPLETED`, `PENDING`). */
export const TodoStatus = ["IN_PROGRESS", "COMPLETED", "PENDING"] as const;

/** A todo item, with sub-todos, in an optional category. */
export const Todo = defineEntity({
  name: "Todo",
  properties: {
    id: p.integer().primary(),
    /** Microsecond precision where the database has it (PostgreSQL, MariaDB). */
    createdAt: p.datetime().length(6).onCreate(() => new Date()),
    /** The todo's progress. */
    status: p.enum(TodoStatus),
    /** How urgent the todo is: higher is more urgent (0 by default). */
    priority: p.integer().default(0),
    /** What there is to do. */
    text: p.text(),
    /** The todo this one is a sub-todo of, if any. */
    parent: () => p.manyToOne(Todo).index().nullable(),
    /** The sub-todos of this todo. */
    children: () => p.oneToMany(Todo).mappedBy("parent"),
    /** The category the todo is filed in, if any. */
    category: () => p.manyToOne(Category).index().nullable(),
  },
});

annotate(Todo, {
  entity: [QueryField(), MultiOrder(), Mutations({ delete: false })],
  fields: {
    // The primary key is orderable too (entgql `DescendingIDs`).
    id: [OrderField("ID")],
    createdAt: [OrderField("CREATED_AT")],
    status: [OrderField("STATUS")],
    priority: [OrderField("PRIORITY")],
    text: [OrderField("TEXT")],
    // Unique edge: UPPER(<edge>)_<order field of the target>.
    parent: [OrderField("PARENT_STATUS")],
    // Non-unique edge: UPPER(<edge>)_COUNT.
    children: [RelayConnection(), OrderField("CHILDREN_COUNT")],
    category: [OrderField("CATEGORY_TEXT")],
  },
});
