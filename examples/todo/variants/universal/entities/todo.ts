import { defineEntity, p } from "@mikro-orm/core";
import { annotate, QueryField } from "@mikrogql/ext";
import { Category } from "./category.ts";

/** A todo whose 64-bit key lies in the Todo range of the universal ids. */
export const Todo = defineEntity({
  name: "Todo",
  properties: {
    id: p.bigint().primary(),
    text: p.text(),
    category: () => p.manyToOne(Category).index().nullable(),
  },
});

annotate(Todo, { entity: [QueryField()] });
