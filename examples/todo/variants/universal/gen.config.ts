import { defineConfig } from "@mikrogql/ext/gen";

/** The todo model with universal global ids: each type's keys in their own 2^32 range. */
export default defineConfig({
  entities: "./entities",
  out: "./generated",
  globalIds: "universal",
});
