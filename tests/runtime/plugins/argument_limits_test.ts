/**
 * `ArgumentChecker` along the cost walk (as the `Limits` plugin runs it) over the blog's schema:
 * string length and NUL characters, list length, `where` size and `has<Edge>With` depth,
 * repeated `orderBy` fields; each at its limit and one over, variables included, the first
 * argument over a limit in document order reported with its path, the limit and its value.
 */
import { assert, assertEquals } from "@std/assert";
import { buildSchema, getOperationAST, type GraphQLSchema, parse } from "graphql";
import { ArgumentChecker, type ArgumentLimits } from "../../../runtime/plugins/argument_limits.ts";
import { operationCost } from "../../../runtime/plugins/cost.ts";
import { typeDefs } from "../../../examples/blog/generated/typedefs.ts";
import { typeDefs as todoTypeDefs } from "../../../examples/todo/generated/typedefs.ts";

const schema = buildSchema(typeDefs);
const LIMITS: ArgumentLimits = {
  maxStringLength: 10,
  maxListLength: 3,
  maxWhereSize: 8,
  maxWhereDepth: 2,
  maxInputDepth: 20,
};

/** The checker's verdict on `source`: the error's code and message, or `undefined`. */
function check(
  source: string,
  variables: Record<string, unknown> = {},
  limits: ArgumentLimits = LIMITS,
  over: GraphQLSchema = schema,
): { code: unknown; message: string } | undefined {
  const document = parse(source);
  const checker = new ArgumentChecker(limits);
  operationCost(getOperationAST(document)!, {
    schema: over,
    document,
    variables,
    argument: checker.check,
  });
  const error = checker.error;
  return error && { code: error.extensions.code, message: error.message };
}

Deno.test("argument limits: string length in UTF-16 code units, literal and variable, nested too", () => {
  const at = (s: string) =>
    `{ users(where: { nameContains: ${JSON.stringify(s)} }) { totalCount } }`;
  assertEquals(check(at("a".repeat(10))), undefined);
  assertEquals(check(at("a".repeat(11))), {
    code: "BAD_USER_INPUT",
    message:
      "users(where).nameContains: a string of 11 characters; the limit is maxStringLength = 10",
  });
  assertEquals(check(at("😀".repeat(5))), undefined); // 10 code units
  assertEquals(check(at("😀".repeat(5) + "a"))?.code, "BAD_USER_INPUT");
  const variable = "query($w: UserWhereInput) { users(where: $w) { totalCount } }";
  assertEquals(
    check(variable, { w: { or: [{ name: "a" }, { name: "b".repeat(11) }] } })?.message,
    "users(where).or.name: a string of 11 characters; the limit is maxStringLength = 10",
  );
  // A NUL character is refused whatever the length (the column rule of column_values.ts).
  assertEquals(check(at("a\u0000b"))?.code, "BAD_USER_INPUT");
  assert(check(at("a\u0000b"))?.message.startsWith("users(where).nameContains"));
});

Deno.test("argument limits: list length, literal and variable", () => {
  const ids = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `id${i}`));
  assertEquals(check(`{ nodes(ids: ${ids(3)}) { id } }`), undefined);
  assertEquals(check(`{ nodes(ids: ${ids(4)}) { id } }`), {
    code: "BAD_USER_INPUT",
    message: "nodes(ids): a list of 4 items; the limit is maxListLength = 3",
  });
  assertEquals(
    check("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", { ids: ["a", "b", "c", "d"] })?.code,
    "BAD_USER_INPUT",
  );
  // Items are checked too.
  assertEquals(
    check(`{ nodes(ids: ["${"x".repeat(11)}"]) { id } }`)?.message,
    "nodes(ids): a string of 11 characters; the limit is maxStringLength = 10",
  );
});

/** A where tree `{ and: [{ name: "a" }, ... n times] }`: n + 1 objects and n + 1 predicates. */
function flatWhere(n: number): string {
  return `{ and: [${Array.from({ length: n }, () => '{ name: "a" }').join(", ")}] }`;
}

/** `hasPostsWith: [{ hasAuthorWith: [...] }]` nested `depth` deep. */
function deepWhere(depth: number): string {
  let inner = '{ name: "a" }';
  for (let i = 0; i < depth; i++) {
    inner = i % 2 === 0 ? `{ hasPostsWith: [${inner}] }` : `{ hasAuthorWith: [${inner}] }`;
  }
  return inner;
}

Deno.test("argument limits: where size (objects plus predicates) and has<Edge>With depth", () => {
  const users = (where: string) => `{ users(where: ${where}) { totalCount } }`;
  const lists = { ...LIMITS, maxListLength: 100 };
  assertEquals(check(users(flatWhere(3)), {}, lists), undefined); // 4 objects + 4 predicates = 8
  assertEquals(check(users(flatWhere(4)), {}, lists), {
    code: "QUERY_TOO_COMPLEX",
    message:
      "users(where): a where tree of 10 objects, predicates and list items; the limit is maxWhereSize = 8",
  });
  const wide = { ...lists, maxWhereSize: 100 };
  assertEquals(check(users(deepWhere(2)), {}, wide), undefined);
  assertEquals(check(users(deepWhere(3)), {}, wide), {
    code: "QUERY_TOO_COMPLEX",
    message: "users(where): has<Edge>With nested 3 deep; the limit is maxWhereDepth = 2",
  });
  // `not` and `and` do not deepen; where trees in nested connections and variables count alike.
  assertEquals(
    check(users(`{ not: { and: [{ not: ${deepWhere(2)} }] } }`), {}, wide),
    undefined,
  );
  assertEquals(
    check(
      "query($w: PostWhereInput) { users { edges { node { posts(where: $w) { totalCount } } } } }",
      { w: { hasCommentsWith: [{ hasAuthorWith: [{ hasPostsWith: [{}] }] }] } },
      wide,
    )?.message,
    "posts(where): has<Edge>With nested 3 deep; the limit is maxWhereDepth = 2",
  );
});

Deno.test("argument limits: an order field given twice in orderBy (a MultiOrder() list)", () => {
  const todo = buildSchema(todoTypeDefs);
  const verdict = (orderBy: string) =>
    check(`{ todos(orderBy: ${orderBy}) { totalCount } }`, {}, LIMITS, todo);
  assertEquals(verdict("[{ field: TEXT }, { field: STATUS, direction: DESC }]"), undefined);
  assertEquals(verdict("[{ field: TEXT }, { field: STATUS }, { field: TEXT, direction: DESC }]"), {
    code: "BAD_USER_INPUT",
    message: "todos(orderBy): order field TEXT is given twice; each order field may appear once",
  });
  // At most as many terms as order fields then: the list limit does not need to be reached.
  assertEquals(
    check(
      "query($o: [TodoOrder!]) { todos(orderBy: $o) { totalCount } }",
      { o: [{ field: "PRIORITY" }, { field: "PRIORITY" }] },
      LIMITS,
      todo,
    )?.code,
    "BAD_USER_INPUT",
  );
});

Deno.test("argument limits: the first argument over a limit in document order, fragments included", () => {
  const long = JSON.stringify("x".repeat(11));
  // The fragment comes first in the text and is walked after the operation: its argument wins.
  const source = `fragment F on User { posts(where: { titleContains: ${long} }) { totalCount } }
  query { users(where: { nameContains: ${long} }) { edges { node { ...F } } } }`;
  assertEquals(
    check(source)?.message,
    "posts(where).titleContains: a string of 11 characters; the limit is maxStringLength = 10",
  );
  // A fragment the operation does not spread is checked too.
  assertEquals(
    check(`{ __typename } fragment U on Query { users(where: { name: ${long} }) { totalCount } }`)
      ?.code,
    "BAD_USER_INPUT",
  );
  // A directive's arguments: `@include(if:)` is a Boolean, nothing to refuse.
  assertEquals(check("{ users @include(if: true) { totalCount } }"), undefined);
});

Deno.test("argument limits: where size counts list items (each a parameter of the statement)", () => {
  const lists = { ...LIMITS, maxListLength: 100 };
  const ids = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `id${i}`));
  // 1 object + 1 predicate + 6 items = 8
  assertEquals(
    check(`{ users(where: { nameIn: ${ids(6)} }) { totalCount } }`, {}, lists),
    undefined,
  );
  assertEquals(check(`{ users(where: { nameIn: ${ids(7)} }) { totalCount } }`, {}, lists), {
    code: "QUERY_TOO_COMPLEX",
    message:
      "users(where): a where tree of 9 objects, predicates and list items; the limit is maxWhereSize = 8",
  });
  // the shape: 41 lists of 997 strings in an or, through a variable
  const wide = { ...LIMITS, maxListLength: 1_000, maxStringLength: 100, maxWhereSize: 1_200 };
  const or = Array.from({ length: 41 }, (_, i) => ({
    nameIn: Array.from({ length: 997 }, (_, j) => `n${i}.${j}`),
  }));
  assertEquals(
    check("query($w: UserWhereInput) { users(where: $w) { totalCount } }", { w: { or } }, wide),
    {
      code: "QUERY_TOO_COMPLEX",
      message:
        "users(where): a where tree of 40961 objects, predicates and list items; the limit is maxWhereSize = 1200",
    },
  );
});

Deno.test("argument limits: nesting of lists and objects, iteratively (no stack overflow)", () => {
  const variable = "query($w: UserWhereInput) { users(where: $w) { totalCount } }";
  const nested = (levels: number) => {
    let where: Record<string, unknown> = { name: "a" };
    for (let i = 0; i < levels; i++) where = { and: [where] };
    return where;
  };
  const wide = { ...LIMITS, maxWhereSize: 10_000, maxInputDepth: 6 };
  // 2 levels of `and` are 5 lists and objects (the innermost object included): within 6
  assertEquals(check(variable, { w: nested(2) }, wide), undefined);
  assertEquals(check(variable, { w: nested(3) }, wide), {
    code: "QUERY_TOO_DEEP",
    message:
      "users(where).and.and.and: a value nested more than 6 lists and objects deep; the limit is maxInputDepth = 6",
  });
  // far deeper than the call stack: refused, not a RangeError
  const deep = { ...wide, maxInputDepth: 100 };
  assertEquals(check(variable, { w: nested(100_000) }, deep)?.code, "QUERY_TOO_DEEP");
  let json: unknown = [];
  for (let i = 0; i < 100_000; i++) json = [json];
  const blog = 'mutation($m: JSON) { updatePost(id: "UG9zdDox", input: { meta: $m }) { id } }';
  assertEquals(check(blog, { m: json }, deep)?.code, "QUERY_TOO_DEEP");
  // and the first error in document order still wins
  assertEquals(
    check(variable, { w: { or: [{ name: "b".repeat(11) }, nested(10)] } }, wide)?.code,
    "BAD_USER_INPUT",
  );
});
