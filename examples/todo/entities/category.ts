import { defineEntity, p } from "@mikro-orm/core";
import {
  annotate,
  MultiOrder,
  Mutations,
  OrderField,
  QueryField,
  RelayConnection,
} from "@mikrogql/ext";
import { Todo } from "./todo.ts";

/** Whether a category is in use. */
export const CategoryStatus = ["ENABLED", "DISABLED"] as const;

/** A category of todos. */
export const Category = defineEntity({
  name: "Category",
  properties: {
    id: p.integer().primary(),
    /** The category's name. */
    text: p.text(),
    /** Whether the category is in use. */
    status: p.enum(CategoryStatus),
    /** A float, for the where-input operators on floats. */
    weight: p.double().nullable(),
    /** A 64-bit integer (entgql's `Uint64` count). */
    count: p.bigint().nullable(),
    /** JSON: no where-input predicates. */
    config: p.json<Record<string, unknown>>().nullable(),
    /** The todos filed in the category. */
    todos: () => p.oneToMany(Todo).mappedBy("category"),
  },
});

annotate(Category, {
  entity: [QueryField(), MultiOrder(), Mutations({ delete: false })],
  fields: {
    // entgql's todo example: OrderField("ID") on the key adds ID to CategoryOrderField.
    id: [OrderField("ID")],
    text: [OrderField("TEXT")],
    status: [OrderField("STATUS")],
    count: [OrderField("COUNT")],
    todos: [RelayConnection(), OrderField("TODOS_COUNT")],
  },
});
