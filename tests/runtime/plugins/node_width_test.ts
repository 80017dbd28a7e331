/**
 * `widestNode`, the most fields one list item of an operation's answer holds, against the answer
 * itself: each document is executed by graphql-js over the blog's schema with two items in every
 * list, and the fields of each list item are counted in the response (a nested object counts 1
 * plus its fields, a nested list 1). Where no response key repeats, the two agree; a repeated key
 * (merged by graphql-js) is counted once per occurrence, an upper bound.
 */
import { assertEquals } from "@std/assert";
import {
  buildSchema,
  execute,
  getNamedType,
  getNullableType,
  getOperationAST,
  type GraphQLFieldResolver,
  isEnumType,
  isListType,
  parse,
} from "graphql";
import { widestNode } from "../../../runtime/plugins/node_width.ts";
import { typeDefs } from "../../../examples/blog/generated/typedefs.ts";

const schema = buildSchema(typeDefs);

const twoOfEach: GraphQLFieldResolver<unknown, unknown> = (_source, _args, _ctx, info) => {
  const named = getNamedType(info.returnType);
  if (isListType(getNullableType(info.returnType))) return [{}, {}];
  if (isEnumType(named)) return named.getValues()[0].value;
  if (["Int", "Float"].includes(named.name)) return 1;
  if (named.name === "Boolean") return false;
  if (named.name === "Time") return new Date(0);
  if (["String", "ID", "Cursor", "JSON"].includes(named.name)) return "x";
  return {};
};

function widest(source: string): number {
  const document = parse(source);
  return widestNode(schema, document, getOperationAST(document)!);
}

/** The most fields of one list item in the executed answer of `source`. */
function answerWidest(source: string): number {
  const result = execute({
    schema,
    document: parse(source),
    rootValue: {},
    fieldResolver: twoOfEach,
    typeResolver: () => "Post",
  }) as { data?: unknown; errors?: unknown[] };
  assertEquals(result.errors, undefined, source);
  const fields = (value: Record<string, unknown>): number => {
    let count = 0;
    for (const inner of Object.values(value)) {
      count++;
      if (inner !== null && typeof inner === "object" && !Array.isArray(inner)) {
        count += fields(inner as Record<string, unknown>);
      }
    }
    return count;
  };
  let most = 0;
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item !== null && typeof item === "object") {
          most = Math.max(most, fields(item as Record<string, unknown>));
        }
        walk(item);
      }
    } else if (value !== null && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(result.data);
  return most;
}

const AGREE = [
  `{ posts { edges { node { id title body } } } }`,
  `{ posts { totalCount pageInfo { hasNextPage } edges { cursor node { id } } } }`,
  `{ users { edges { node { id name posts(first: 2) { totalCount edges { node { id title
    author { id name email } } } } } } } }`,
  `{ users { edges { node { ...U } } } } fragment U on User { id name
    posts { edges { node { ...P } } } } fragment P on Post { id title body status views }`,
  `{ a: posts { edges { node { id } } } b: users { edges { node { x: name y: email } } } }`,
  `{ users(first: 1) { totalCount } }`,
];

Deno.test("widestNode: the fields of the widest list item of the answer", () => {
  for (const source of AGREE) assertEquals(widest(source), answerWidest(source), source);
  assertEquals(widest(`{ posts { edges { node { id title body } } } }`), 4);
  assertEquals(widest(`{ users(first: 1) { totalCount } }`), 0, "no list item");
});

Deno.test("widestNode: a repeated key counts each time, a fragment once per spread", () => {
  const repeated = `{ posts { edges { node { id id ...F ...F } } } } fragment F on Post { title }`;
  assertEquals(answerWidest(repeated), 3);
  assertEquals(widest(repeated), 5, "node + id, id, title, title");
});
