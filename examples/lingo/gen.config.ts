import { defineConfig } from "@mikrogql/ext/gen";

/** Generator config of the lingo example (paths relative to this file). */
export default defineConfig({ entities: "./entities", out: "./generated" });
