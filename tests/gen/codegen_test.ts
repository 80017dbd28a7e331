/**
 * graphql-codegen out of the box: its typescript + typescript-operations plugins
 * (`@graphql-codegen/core`, the programmatic API of the CLI) run over the shop example's
 * generated schema and an operation that selects every custom scalar (`Cursor`, `Time`, `BigInt`,
 * `JSON`, `Bytes`), with docs/codegen.md's `scalars` mapping; the output, and code that uses the result
 * types as that mapping says (`points` a string, `createdAt` a string, `endCursor` a string or
 * null, `invoice` a base64 string or null),
 * pass `deno check`; the same use with `points` taken as a number fails it.
 */
import { assert, assertStringIncludes } from "@std/assert";
import { fromFileUrl, join } from "@std/path";
import { codegen } from "@graphql-codegen/core";
import * as typescriptPlugin from "@graphql-codegen/typescript";
import * as operationsPlugin from "@graphql-codegen/typescript-operations";
import { parse } from "graphql";

const root = fromFileUrl(new URL("../../", import.meta.url));

/** docs/codegen.md's `scalars` mapping of the generated custom scalars. */
async function readmeScalars(): Promise<Record<string, unknown>> {
  const page = await Deno.readTextFile(join(root, "docs/codegen.md"));
  const block = /<!-- codegen-scalars -->\s*```ts\n([\s\S]*?)```/.exec(page)?.[1];
  assert(block, "docs/codegen.md has the codegen scalars block");
  const object = /scalars: (\{[\s\S]*?\n {8}\})/.exec(block)?.[1];
  assert(object, `a scalars object in:\n${block}`);
  return new Function(`return (${object});`)();
}

const OPERATION = `query Customers($after: Cursor) {
  customers(first: 2, after: $after) {
    pageInfo { endCursor hasNextPage }
    edges { node { id name points preferences createdAt } }
  }
  orders(first: 1) { edges { node { invoice } } }
}`;

async function check(dir: string, files: string[]): Promise<{ success: boolean; text: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", ...files],
    cwd: dir,
    env: { NO_COLOR: "1" },
  }).output();
  return {
    success: out.success,
    text: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr),
  };
}

Deno.test("graphql-codegen typescript-operations on a generated schema type-checks", async () => {
  const schemaText = await Deno.readTextFile(join(root, "examples/shop/generated/schema.graphql"));
  const scalars = await readmeScalars();
  const output = await codegen({
    filename: "operations.ts",
    schema: parse(schemaText),
    documents: [{ document: parse(OPERATION), location: "customers.graphql" }],
    plugins: [{ typescript: {} }, { "typescript-operations": {} }],
    pluginMap: { typescript: typescriptPlugin, "typescript-operations": operationsPlugin },
    config: { scalars, strictScalars: true, enumsAsTypes: true },
  });
  assertStringIncludes(output, "export type CustomersQuery");
  const dir = await Deno.makeTempDir({ prefix: "mikrogql-codegen-" });
  try {
    await Deno.writeTextFile(join(dir, "deno.json"), "{}");
    await Deno.writeTextFile(join(dir, "operations.ts"), output);
    const use = (points: string) =>
      `import type { CustomersQuery } from "./operations.ts";
declare const data: CustomersQuery;
const node = data.customers.edges?.[0]?.node;
const points: ${points} | undefined = node?.points;
const createdAt: string | undefined = node?.createdAt;
const cursor: string | null | undefined = data.customers.pageInfo.endCursor;
const preferences: unknown = node?.preferences;
const invoice: string | null | undefined = data.orders.edges?.[0]?.node?.invoice;
console.log(points, createdAt, cursor, preferences, invoice);
`;
    await Deno.writeTextFile(join(dir, "use.ts"), use("string"));
    const ok = await check(dir, ["operations.ts", "use.ts"]);
    assert(ok.success, ok.text);
    await Deno.writeTextFile(join(dir, "wrong.ts"), use("number"));
    const wrong = await check(dir, ["wrong.ts"]);
    assert(!wrong.success, "BigInt taken as a number must not type-check");
    assertStringIncludes(wrong.text, "TS2322");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
