/**
 * graphql-codegen as docs/codegen.md configures it: the plugins and config of its `codegen.ts`
 * block, run through `@graphql-codegen/core` (the programmatic API of the CLI) over the shop
 * example's generated schema and an operation with input-object variables (`where`, `orderBy`),
 * a selected enum (`tier`) and every custom scalar (`Cursor`, `Time`, `Date`, `Decimal`, `BigInt`,
 * `JSON`, `Bytes`). The output, and code that uses the result types as the docs' `scalars`
 * mapping says (`points` a string, `createdAt` a string, `birthday` a string or null, `balance` a
 * string, `endCursor` a string or null, `invoice` a base64 string or null,
 * `tier` one of the enum's values) and sets the variables, pass `deno check`; the same use with
 * `points` taken as a number fails it.
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { fromFileUrl, join } from "@std/path";
import { codegen } from "@graphql-codegen/core";
import * as typescriptPlugin from "@graphql-codegen/typescript";
import * as operationsPlugin from "@graphql-codegen/typescript-operations";
import { parse } from "graphql";

const root = fromFileUrl(new URL("../../", import.meta.url));

/** docs/codegen.md's graphql-codegen config (`codegen.ts`): its output's plugins and config. */
async function docsConfig(): Promise<{ plugins: string[]; config: Record<string, unknown> }> {
  const page = await Deno.readTextFile(join(root, "docs/codegen.md"));
  const block = /<!-- codegen-config -->\s*```ts\n([\s\S]*?)```/.exec(page)?.[1];
  assert(block, "docs/codegen.md has the codegen config block");
  // the module as a function body: its type import and annotation dropped, its export returned
  const body = block.replace(/^import type .*$/m, "").replace(": CodegenConfig", "")
    .replace("export default config;", "return config;");
  const config = new Function(body)();
  const outputs = Object.values(config.generates) as { plugins: string[]; config: object }[];
  assertEquals(outputs.length, 1);
  return { plugins: outputs[0].plugins, config: { ...outputs[0].config } };
}

// An input-object variable (`where`, `orderBy`), an enum selected (`tier`) and every custom scalar.
const OPERATION =
  `query Customers($where: CustomerWhereInput, $orderBy: CustomerOrder, $after: Cursor) {
  customers(first: 2, after: $after, where: $where, orderBy: $orderBy) {
    pageInfo { endCursor hasNextPage }
    edges { node { id name tier points preferences createdAt birthday balance } }
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
  const { plugins, config } = await docsConfig();
  const output = await codegen({
    filename: "operations.ts",
    schema: parse(schemaText),
    documents: [{ document: parse(OPERATION), location: "customers.graphql" }],
    plugins: plugins.map((name) => ({ [name]: {} })),
    pluginMap: { typescript: typescriptPlugin, "typescript-operations": operationsPlugin },
    config,
  });
  assertStringIncludes(output, "export type CustomersQuery");
  const dir = await Deno.makeTempDir({ prefix: "mikrogql-codegen-" });
  try {
    await Deno.writeTextFile(join(dir, "deno.json"), "{}");
    await Deno.writeTextFile(join(dir, "operations.ts"), output);
    const use = (points: string) =>
      `import type { CustomersQuery, CustomersQueryVariables } from "./operations.ts";
declare const data: CustomersQuery;
const variables: CustomersQueryVariables = {
  where: { nameContains: "a", tierIn: ["Gold"], or: [{ active: true }, { balanceGT: "1.50" }] },
  orderBy: { field: "NAME", direction: "DESC" },
};
const node = data.customers.edges?.[0]?.node;
const points: ${points} | undefined = node?.points;
const createdAt: string | undefined = node?.createdAt;
const birthday: string | null | undefined = node?.birthday;
const balance: string | undefined = node?.balance;
const cursor: string | null | undefined = data.customers.pageInfo.endCursor;
const preferences: unknown = node?.preferences;
const invoice: string | null | undefined = data.orders.edges?.[0]?.node?.invoice;
const tier: "Bronze" | "Silver" | "Gold" | undefined = node?.tier;
console.log(variables, points, createdAt, birthday, balance, cursor, preferences, invoice, tier);
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
