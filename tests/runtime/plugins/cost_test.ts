/**
 * `operationCost`, the number of nodes the document bounds, against graphql-js's own execution:
 * the document is executed over the blog's schema with every connection and list as full as the
 * document allows (`first`/`last` items; a list argument's length for `nodes(ids)`; one item
 * where the document sets no bound, the rest being paid from the node budget at run time), and
 * the list items of the response are counted. On random documents (aliases, nested connections and unique edges, named
 * and inline fragments, variables, `node`/`nodes`) the two agree; where the cost is knowingly
 * above any response (a connection without `edges`, `@skip`, fragments of several types, a key
 * repeated) it is checked as the module documents. The walk hands every argument of the document
 * to `argument` exactly once.
 */
import { assert, assertEquals, assertGreater } from "@std/assert";
import {
  type ArgumentNode,
  buildSchema,
  type DocumentNode,
  execute,
  getNamedType,
  getNullableType,
  getOperationAST,
  type GraphQLFieldResolver,
  isEnumType,
  isListType,
  isObjectType,
  Kind,
  parse,
  visit,
} from "graphql";
import { type CostContext, operationCost } from "../../../runtime/plugins/cost.ts";
import { typeDefs } from "../../../examples/blog/generated/typedefs.ts";

const schema = buildSchema(typeDefs);
/** What a connection without `first`/`last`, or a list edge, counts statically. */
const UNBOUNDED = 1;

function cost(
  source: string | DocumentNode,
  variables: Record<string, unknown> = {},
  argument?: CostContext["argument"],
  operationName?: string,
): number {
  const document = typeof source === "string" ? parse(source) : source;
  const operation = getOperationAST(document, operationName);
  assert(operation, "one operation");
  return operationCost(operation, { schema, document, variables, argument });
}

/** A response value for a field of `type` that nothing resolved yet (every list full). */
const fullResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, _ctx, info) => {
  const own = (source as Record<string, unknown>)[info.fieldName];
  if (own !== undefined) return own;
  const named = getNamedType(info.returnType);
  if (named.name.endsWith("Connection")) {
    const page = typeof args.first === "number"
      ? args.first
      : typeof args.last === "number"
      ? args.last
      : UNBOUNDED;
    return { edges: Array.from({ length: Math.max(0, page) }, () => ({})), pageInfo: {} };
  }
  if (isListType(getNullableType(info.returnType))) {
    const list = Object.values(args).find(Array.isArray);
    return Array.from({ length: list ? list.length : UNBOUNDED }, () => (isObjectType(named) ||
        !("serialize" in named)
      ? {}
      : "x"));
  }
  if (isEnumType(named)) return named.getValues()[0].value;
  switch (named.name) {
    case "Int":
    case "Float":
      return 1;
    case "Boolean":
      return false;
    case "Time":
      return new Date(0);
    case "String":
    case "ID":
    case "Cursor":
    case "JSON":
      return "x";
  }
  return {};
};

/** The list items (edges, `nodes` items) of a full response to `source`, the Node type `type`. */
function responseNodes(source: string, variables: Record<string, unknown> = {}, type = "Post") {
  const result = execute({
    schema,
    document: parse(source),
    rootValue: {},
    variableValues: variables,
    fieldResolver: fullResolver,
    typeResolver: () => type,
  }) as { data?: unknown; errors?: unknown[] };
  assertEquals(result.errors, undefined, source);
  let count = 0;
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item !== null && typeof item === "object") count++;
        walk(item);
      }
    } else if (value !== null && typeof value === "object") {
      Object.values(value).forEach(walk);
    }
  };
  walk(result.data);
  return count;
}

Deno.test("cost: the examples of the module documentation", () => {
  const q = "{ users(first: 10) { edges { node { posts(first: 5) { edges { node { id } } } } } } }";
  assertEquals(cost(q), 10 + 10 * 5);
  assertEquals(responseNodes(q), 60);
  // without first/last, or a variable that holds no number: 1 (the node budget pays the rest)
  assertEquals(cost("{ users { edges { node { id } } } }"), UNBOUNDED);
  assertEquals(cost("query($n: Int) { users(first: $n) { totalCount } }", {}), UNBOUNDED);
  assertEquals(cost("query($n: Int) { users(first: $n) { totalCount } }", { n: 2 }), 2);
  assertEquals(cost("{ users(last: 3) { totalCount } }"), 3);
  assertEquals(cost("{ users(first: 0) { edges { node { id } } } }"), 0);
  // a list field outside a connection: as many as its list argument has items
  assertEquals(cost('{ nodes(ids: ["a", "b", "c"]) { id } }'), 3);
  // a single object costs nothing itself
  assertEquals(cost('{ node(id: "a") { id } }'), 0);
  // 1,000 x 1,000 x 1,000 (README): 1,001,001,000
  assertEquals(
    operationCost(
      getOperationAST(parse(`{ users(first: 1000) { edges { node { posts(first: 1000) {
        edges { node { comments(first: 1000) { totalCount } } } } } } } }`))!,
      { schema, document: parse("{ __typename }"), variables: {} },
    ),
    1_001_001_000,
  );
});

/** A seeded random document over the blog's schema whose every response key is distinct. */
function randomDocument(rand: () => number): { source: string; variables: Record<string, number> } {
  let n = 0;
  const fragments: string[] = [];
  const variables: Record<string, number> = {};
  const declared: string[] = [];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const page = (): string => {
    const r = rand();
    if (r < 0.2) return "";
    const arg = rand() < 0.5 ? "first" : "last";
    if (r < 0.4) {
      const name = `v${n++}`;
      declared.push(`$${name}: Int`);
      if (rand() < 0.7) variables[name] = Math.floor(rand() * 4);
      return `(${arg}: $${name})`;
    }
    return `(${arg}: ${Math.floor(rand() * 4)})`;
  };
  const edges: Record<string, [string, string, boolean][]> = {
    User: [["photos", "Photo", true], ["posts", "Post", true]],
    Post: [["comments", "Comment", true], ["author", "User", false]],
    Comment: [["post", "Post", false], ["author", "User", false]],
    Photo: [["likedBy", "User", true], ["user", "User", false]],
  };
  const node = (type: string, depth: number): string => {
    const parts = [`k${n++}: id`];
    for (const [field, target, connection] of edges[type]) {
      if (depth >= 3 || rand() < 0.5) continue;
      const inner = node(target, depth + 1);
      parts.push(
        connection
          ? `k${n++}: ${field}${page()} { edges { node { ${inner} } }${
            rand() < 0.3 ? " totalCount" : ""
          } }`
          : `k${n++}: ${field} { ${inner} }`,
      );
    }
    if (rand() < 0.3) {
      const name = `F${n++}`;
      fragments.push(`fragment ${name} on ${type} { ${parts.join(" ")} }`);
      return `...${name}`;
    }
    return rand() < 0.2 ? `... on ${type} { ${parts.join(" ")} }` : parts.join(" ");
  };
  const roots = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => {
    const r = rand();
    if (r < 0.15) return `k${n++}: node(id: "x") { ... on Post { ${node("Post", 1)} } }`;
    if (r < 0.3) {
      const ids = Array.from({ length: Math.floor(rand() * 4) }, (_, i) => `"${i}"`);
      return `k${n++}: nodes(ids: [${ids}]) { ... on Post { ${node("Post", 1)} } }`;
    }
    const [field, type] = pick([["users", "User"], ["posts", "Post"]]);
    return `k${n++}: ${field}${page()} { edges { node { ${node(type, 1)} } } }`;
  });
  const head = declared.length ? `query(${declared.join(", ")})` : "query";
  return { source: `${head} { ${roots.join(" ")} }\n${fragments.join("\n")}`, variables };
}

Deno.test("cost: equals the list items of a full response on 500 random documents", () => {
  // A fixed linear congruential sequence: the same documents on every run.
  let seed = 4_242;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let nested = 0;
  for (let i = 0; i < 500; i++) {
    const { source, variables } = randomDocument(rand);
    const expected = responseNodes(source, variables);
    assertEquals(cost(source, variables), expected, source);
    if (expected > 4) nested++;
  }
  assertGreater(nested, 100, "the documents nest lists");
});

Deno.test("cost: the worst case where a response holds fewer nodes", () => {
  // A connection counts its page whether or not its edges are selected.
  assertEquals(cost("{ users(first: 3) { totalCount } }"), 3);
  assertEquals(responseNodes("{ users(first: 3) { totalCount } }"), 0);
  // @skip/@include are ignored.
  const skipped = "query($s: Boolean!) { users(first: 3) @skip(if: $s) { totalCount } }";
  assertEquals(cost(skipped, { s: true }), 3);
  // Fragments on several types of one interface add up (a node is of one type only).
  const both = `{ node(id: "x") {
    ... on Post { comments(first: 2) { totalCount } }
    ... on User { posts(first: 3) { totalCount } } } }`;
  assertEquals(cost(both), 5);
  assertEquals(
    responseNodes(both.replaceAll("totalCount", "edges { node { id } }"), {}, "Post"),
    2,
  );
  assertEquals(
    responseNodes(both.replaceAll("totalCount", "edges { node { id } }"), {}, "User"),
    3,
  );
  // A response key repeated by a fragment: graphql-js merges it, the cost counts each.
  const merged =
    "{ users(first: 2) { totalCount } ...F } fragment F on Query { users(first: 2) { totalCount } }";
  assertEquals(cost(merged), 4);
  // A named fragment is costed once per operation and reused at every spread.
  const spreads = `{ users(first: 2) { edges { node { ...P } } } posts(first: 3) { edges { node {
    author { ...P } } } } } fragment P on User { posts(first: 5) { totalCount } }`;
  assertEquals(cost(spreads), 2 + 2 * 5 + 3 + 3 * 5);
  // Fields the schema lacks (refused by validation) cost nothing.
  assertEquals(cost("{ nope(first: 9) { edges { node { id } } } }"), 0);
  assertEquals(cost("subscription { users(first: 9) { totalCount } }"), 0);
});

Deno.test("cost: every argument of the document is handed over once, with its value and field", () => {
  const source = `query Q($n: Int, $t: String) @live(delay: 1) {
    users(first: $n, where: { nameContains: $t }) {
      edges { node { ...F posts(last: 2) @include(if: true) { totalCount } } }
    }
  }
  query Other { posts(first: 7) { totalCount } }
  fragment F on User { photos(first: 1) { totalCount } }
  fragment Unused on Post { comments(orderBy: { field: CREATED_AT }) { totalCount } }`;
  const document = parse(source);
  const all: ArgumentNode[] = [];
  visit(document, { Argument: (node) => void all.push(node) });
  const seen: { node: ArgumentNode; value: unknown; type?: string; field: string }[] = [];
  const total = cost(document, { n: 3, t: "ab" }, (node, value, type, field) => {
    seen.push({ node, value, type: type && String(type), field });
  }, "Q");
  assertEquals(total, 3 + 3 * (1 + 2));
  assertEquals(new Set(seen.map((s) => s.node)).size, seen.length, "each argument once");
  assertEquals(new Set(seen.map((s) => s.node)), new Set(all), "every argument of the document");
  const byName = (name: string) => seen.filter((s) => s.node.name.value === name);
  assertEquals(byName("where")[0].value, { nameContains: "ab" });
  assertEquals(byName("where")[0].type, "UserWhereInput");
  assertEquals(byName("where")[0].field, "users");
  assertEquals(byName("first").map((s) => [s.field, s.value]), [
    ["users", 3],
    ["photos", 1],
    ["posts", 7],
  ]);
  assertEquals(byName("if")[0].field, "posts"); // a directive's argument: the field it is on
  assertEquals(byName("delay")[0].field, ""); // outside any field
  assertEquals(byName("delay")[0].type, undefined); // a directive the schema lacks
  assertEquals(byName("orderBy")[0].type, "CommentOrder");
  assertEquals(all.filter((a) => a.kind === Kind.ARGUMENT).length, 8);
  // Without `argument`, the other operations and fragments are not walked.
  assertEquals(cost(document, { n: 3 }, undefined, "Other"), 7);
});
