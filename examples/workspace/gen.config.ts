import { defineConfig } from "@mikrogql/ext/gen";

/**
 * Generator config of the workspace example (paths relative to this file): `policies` makes the
 * generated schema show `User.email`, which a field rule guards, nullable as it is served.
 */
export default defineConfig({
  entities: "./entities",
  out: "./generated",
  policies: "./policies.ts",
});
