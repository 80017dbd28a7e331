import { defineEntity, p } from "@mikro-orm/core";
import { annotate, QueryField } from "@mikrogql/ext";
import { Category } from "./category.ts";

/** A todo whose 64-bit key lies in the Todo range of the universal ids. */
export const Todo = defineEntity({
  name: "Todo",
  properties: {
    id: p.bigint().primary(),
    /** What there is to do. */
    text: p.text(),
    /** The category the todo is filed in, if any. */
    category: () => p.manyToOne(Category).index().nullable(),
  },
});

annotate(Todo, { entity: [QueryField()] });
