/**
 * `hidden: true` properties: never in the schema (the todo example's `User.password`,
 * as entgql's todo leaves out its `Sensitive()` password), unless annotated `Expose()`; over
 * HTTP a hidden field is a validation error and an exposed one is served.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { fromFileUrl, join } from "@std/path";
import { generate } from "../../gen/mod.ts";
import { openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";
import { entities } from "../../examples/todo/entities.ts";
import { createSchema } from "../../examples/todo/generated/mod.ts";
import { seed } from "../../examples/todo/seed.ts";

const root = fromFileUrl(new URL("../../", import.meta.url));

/** `sdl` without its descriptions (`"""..."""` blocks), so the assertions see the fields. */
function withoutDescriptions(sdl: string): string {
  return sdl.replace(/^ *"""[\s\S]*?"""\n/gm, "").replace(/\n{2,}/g, "\n");
}

Deno.test("hidden: the todo example's User.password is in no type, input or filter of the schema", async () => {
  const sdl = withoutDescriptions(
    await Deno.readTextFile(join(root, "examples/todo/generated/schema.graphql")),
  );
  assertMatch(sdl, /type User implements Node \{\n {2}id: ID!\n {2}name: String!\n/);
  assertEquals(/password/i.test(sdl), false);
});

Deno.test("hidden: Expose() exposes a hidden property as a field, in the inputs and the filter", async () => {
  const out = join(await Deno.makeTempDir(), "out");
  try {
    await generate({ entities: join(root, "tests/gen/fixtures/hidden"), out });
    const sdl = withoutDescriptions(await Deno.readTextFile(join(out, "schema.graphql")));
    assertMatch(
      sdl,
      /type Account implements Node \{\n {2}id: ID!\n {2}name: String!\n {2}pin: String!\n\}/,
    );
    assertMatch(sdl, /input CreateAccountInput \{\n {2}name: String!\n {2}pin: String!\n\}/);
    assertMatch(sdl, /\n {2}pinContains: String\n/);
    assertEquals(/secret/.test(sdl), false);
  } finally {
    await Deno.remove(out, { recursive: true }).catch(() => {});
  }
});

Deno.test({
  name: "hidden: over HTTP User.password is a validation error; the user's other fields answer",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const db = await openTestOrm("sqlite", entities);
    await seed(db.orm.em.fork());
    const server = startServer(db.orm, createSchema());
    try {
      const hidden = await server.query(`{ users(first: 1) { edges { node { password } } } }`);
      assertEquals(hidden.errors?.[0].extensions?.code, "GRAPHQL_VALIDATION_FAILED");
      assertMatch(hidden.errors![0].message, /Cannot query field "password" on type "User"/);
      const shown = await server.query<{ users: { totalCount: number } }>(
        `{ users { totalCount } }`,
      );
      assertEquals(shown.errors, undefined);
      assertEquals(shown.data!.users.totalCount > 0, true);
    } finally {
      await server.close();
      await db.close();
    }
  },
});
