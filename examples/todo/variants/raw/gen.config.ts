import { defineConfig } from "@mikrogql/ext/gen";

/**
 * The todo model with raw global ids: prefixed-ULID and UUID keys are the ids themselves; the
 * type comes from the `IdPrefix` or the server's `nodeType(id)` hook.
 */
export default defineConfig({ entities: "./entities", out: "./generated", globalIds: "raw" });
