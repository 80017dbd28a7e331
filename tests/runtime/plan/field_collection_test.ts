/**
 * Field collection against graphql-js's own execution: a document is executed over a generated
 * example's SDL with every list holding one item; the root resolver takes its plan from
 * `collectConnection`/`collectNodes` (the resolve info graphql-js gives it), and every field
 * graphql-js resolves is recorded per node level (the chain of edge load keys from the root).
 * The plan must select exactly the properties of the fields graphql-js resolved on each level
 * (the key always, a unique edge's foreign key, `CollectedFor` mappings, every column for a
 * field it does not know), load exactly the edges resolved there (by load key: aliases of one
 * edge with equal arguments are one load, with different ones two), with `totalCount` and
 * `hasNextPage`/`hasPreviousPage` as resolved. Fragments, inline fragments, `@skip`/`@include`,
 * aliases and variables are graphql-js's to interpret; checked on hand-written documents and on
 * 400 random ones (the differential test's generator) over four examples. No database: the
 * plans are built from parsed documents, the rows are mocks.
 */
import { assert, assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import {
  buildSchema,
  execute,
  getNamedType,
  getNullableType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  isEnumType,
  isInterfaceType,
  isListType,
  isObjectType,
  parse,
} from "graphql";
import type { Graph, NodeType } from "../../../runtime/graph.ts";
import {
  collectConnection,
  type CollectLimits,
  collectNodes,
  fieldsOf,
  type NodePlan,
} from "../../../runtime/plan/field_collection.ts";
import { edgeKey } from "../../../runtime/plan/loaded_edges.ts";
import * as blog from "../../../examples/blog/generated/mod.ts";
import * as todo from "../../../examples/todo/generated/mod.ts";
import * as realworld from "../../../examples/realworld/generated/mod.ts";
import * as shop from "../../../examples/shop/generated/mod.ts";
import { QueryGenerator } from "../../support/random_query.ts";

/** Where a mock object sits: the chain of edge load keys from the root field. */
const LEVEL = Symbol("level");
type Mock = { [LEVEL]: string } & Record<string, unknown>;

/** What graphql-js resolved on the node objects of each level. */
interface Recorded {
  /** Level -> GraphQL field names resolved on its nodes (edges included). */
  fields: Map<string, Set<string>>;
  /** Level -> load keys of the edges resolved on its nodes. */
  edges: Map<string, Set<string>>;
  /** Connection levels whose `totalCount` was resolved. */
  totalCount: Set<string>;
  /** Connection levels whose `hasNextPage` or `hasPreviousPage` was resolved. */
  morePages: Set<string>;
}

/** What `collectConnection` plans for a root connection. */
type ConnectionPlan = ReturnType<typeof collectConnection>;

interface Run {
  /** Root response key -> the plan built by its resolver (`node`/`nodes`: one per type). */
  plans: Map<string, ConnectionPlan | Map<string, NodePlan>>;
  recorded: Recorded;
  info: Map<string, GraphQLResolveInfo>;
}

function mockScalar(info: GraphQLResolveInfo): unknown {
  const named = getNamedType(info.returnType);
  const one = isEnumType(named)
    ? named.getValues()[0].value
    : named.name === "Int" || named.name === "Float"
    ? 1
    : named.name === "Boolean"
    ? true
    : "x";
  return isListType(getNullableType(info.returnType)) ? [one] : one;
}

/**
 * Executes `source` over `schema`, every list of one item, the `Node` interface resolving to
 * `nodeType`; the root resolvers build plans with `limits`.
 */
function run(
  graph: Graph,
  schema: GraphQLSchema,
  source: string,
  variables: Record<string, unknown> = {},
  nodeType?: string,
  limits: CollectLimits = { maxPageSize: 1000 },
): Run {
  const ctx = { graph, limits };
  const recorded: Recorded = {
    fields: new Map(),
    edges: new Map(),
    totalCount: new Set(),
    morePages: new Set(),
  };
  const plans: Run["plans"] = new Map();
  const infos = new Map<string, GraphQLResolveInfo>();
  const add = (map: Map<string, Set<string>>, key: string, value: string) =>
    (map.get(key) ?? map.set(key, new Set()).get(key)!).add(value);
  const node = (level: string): Mock => ({ [LEVEL]: level });
  const connection = (level: string): Mock => ({
    [LEVEL]: level,
    edges: [{ [LEVEL]: level, node: node(level) }],
    pageInfo: { [LEVEL]: level },
  });
  const result = execute({
    schema,
    document: parse(source),
    rootValue: {},
    variableValues: variables,
    typeResolver: (_value, _ctx, _info, abstract) =>
      abstract.name === "Node" && nodeType
        ? nodeType
        : schema.getPossibleTypes(abstract).find((t) => !graph.types[t.name]?.abstract)?.name ??
          schema.getPossibleTypes(abstract)[0].name,
    fieldResolver: (source, args, _ctx, info) => {
      const parent = info.parentType.name;
      const key = String(info.path.key);
      if (parent === info.schema.getQueryType()?.name) {
        infos.set(key, info);
        const type = graph.types[getNamedType(info.returnType).name.replace(/Connection$/, "")];
        if (info.fieldName === "node" || info.fieldName === "nodes") {
          plans.set(key, collectNodes(ctx, info, Object.values(graph.types)));
          return info.fieldName === "node" ? node(key) : [node(key)];
        }
        plans.set(key, collectConnection(ctx, type, info));
        return connection(key);
      }
      const level = (source as Mock)[LEVEL];
      if (graph.types[parent]) {
        add(recorded.fields, level, info.fieldName);
        const edge = graph.types[parent].edges[info.fieldName];
        if (edge) {
          const child = `${level}/${edgeKey(info.fieldName, args)}`;
          add(recorded.edges, level, edgeKey(info.fieldName, args));
          if (edge.connection) return connection(child);
          return isListType(getNullableType(info.returnType)) ? [node(child)] : node(child);
        }
      }
      if (info.fieldName === "totalCount") recorded.totalCount.add(level);
      if (info.fieldName === "hasNextPage" || info.fieldName === "hasPreviousPage") {
        recorded.morePages.add(level);
      }
      const own = (source as Record<string, unknown>)[info.fieldName];
      if (own !== undefined) return own;
      const named = getNamedType(info.returnType);
      if (isObjectType(named) || isInterfaceType(named)) {
        const value = { [LEVEL]: level };
        return isListType(getNullableType(info.returnType)) ? [value] : value;
      }
      return mockScalar(info);
    },
  }) as { errors?: readonly Error[] };
  if (result.errors?.length) throw result.errors[0];
  return { plans, recorded, info: infos };
}

/** The properties a plan must select for the fields resolved on a node of `type`. */
function expectedProps(type: NodeType, fields: Set<string> | undefined): Set<string> | undefined {
  const props = new Set(type.id.parts?.map((p) => p.prop) ?? [type.id.prop]);
  for (const name of fields ?? []) {
    if (name === "id" || name === "__typename") continue;
    const field = type.fields[name];
    const edge = type.edges[name];
    if (field) (field.reads ?? [field.prop]).forEach((p) => props.add(p));
    else if (edge) {
      if (edge.kind === "m:1" || (edge.kind === "1:1" && !edge.inverse)) props.add(edge.prop);
    } else if (type.collectedFor?.[name]) type.collectedFor[name].forEach((p) => props.add(p));
    else return undefined; // a field collection does not know: every column
  }
  return props;
}

/** Compares `plan` (of the nodes at `level`) with what graphql-js resolved there, recursively. */
function compare(graph: Graph, plan: NodePlan, level: string, recorded: Recorded, label: string) {
  if (plan.type.abstract) {
    assertEquals([plan.props, plan.edges], [undefined, []], `${label}: abstract ${level}`);
    return;
  }
  const fields = recorded.fields.get(level);
  const props = expectedProps(plan.type, fields);
  assertEquals(
    plan.props && [...plan.props].sort(),
    props && [...props].sort(),
    `${label}: ${level}`,
  );
  const edges = [...recorded.edges.get(level) ?? []].filter((key) =>
    !plan.type.edges[key.slice(0, key.indexOf(":"))].unbound
  );
  assertEquals(plan.edges.map((e) => e.key).sort(), edges.sort(), `${label}: edges of ${level}`);
  for (const edge of plan.edges) {
    const child = `${level}/${edge.key}`;
    assertEquals(edge.node.type, graph.types[edge.edge.target], label);
    if (edge.edge.connection) {
      assertEquals(
        edge.totalCount,
        recorded.totalCount.has(child),
        `${label}: totalCount ${child}`,
      );
      assertEquals(edge.morePages, recorded.morePages.has(child), `${label}: pageInfo ${child}`);
    }
    compare(graph, edge.node, child, recorded, label);
  }
}

/** Checks every plan of `source` against graphql-js's execution of it. */
function check(
  graph: Graph,
  schema: GraphQLSchema,
  source: string,
  variables: Record<string, unknown> = {},
) {
  const first = run(graph, schema, source, variables);
  for (const [key, plan] of first.plans) {
    if (!(plan instanceof Map)) {
      const connection = plan as unknown as {
        node: NodePlan;
        totalCount: boolean;
        morePages: boolean;
      };
      assertEquals(
        connection.totalCount,
        first.recorded.totalCount.has(key),
        `${source}: totalCount`,
      );
      assertEquals(connection.morePages, first.recorded.morePages.has(key), `${source}: pageInfo`);
      compare(graph, connection.node, key, first.recorded, source);
      continue;
    }
    // node/nodes: one execution per node type, the Node interface resolving to it
    for (const [name, nodePlan] of plan) {
      if (graph.types[name].abstract) {
        assertEquals([nodePlan.props, nodePlan.edges], [undefined, []]);
        continue;
      }
      const typed = run(graph, schema, source, variables, name);
      compare(graph, nodePlan, key, typed.recorded, `${source} as ${name}`);
    }
  }
}

const blogSchema = buildSchema(blog.typeDefs);

Deno.test("field collection: hand-written documents against graphql-js's execution", () => {
  const documents: [string, Record<string, unknown>?][] = [
    ["{ users { edges { node { name } } } }"],
    ["{ users(first: 2) { totalCount pageInfo { endCursor } edges { node { email posts { totalCount } } } } }"],
    ["{ posts { pageInfo { hasNextPage } edges { cursor node { title author { name } } } } }"],
    // aliases: one edge with equal arguments is one load, with different arguments two
    [`{ users { edges { node {
      a: posts(first: 1) { edges { node { title } } }
      b: posts(first: 1) { edges { node { views } } }
      c: posts(last: 2) { edges { node { body } } } } } } }`],
    // named and inline fragments, fragments on the Node interface
    [`{ users { edges { node { ...U ... on User { email } ... on Node { id } } } } }
      fragment U on User { name photos { edges { node { ...P } } } }
      fragment P on Photo { url likedBy(first: 3) { totalCount } }`],
    // @skip/@include, with variables
    [
      `query($s: Boolean!, $i: Boolean!, $n: Int) { users(first: $n) { edges { node {
        name @skip(if: $s) email @include(if: $i)
        posts(first: $n) @include(if: $i) { totalCount }
        photos @skip(if: $s) { totalCount } } } } }`,
      { s: true, i: false, n: 4 },
    ],
    [
      `query($s: Boolean!, $i: Boolean!) { users { edges { node {
        name @skip(if: $s) email @include(if: $i) photos @skip(if: $s) { totalCount } } } } }`,
      { s: false, i: true },
    ],
    // arguments from variables become part of the load key
    [
      `query($w: PostWhereInput, $o: PostOrder) { users { edges { node {
        posts(where: $w, orderBy: $o, first: 2) { edges { node { title } } } } } } }`,
      { w: { titleContains: "a" }, o: { field: "VIEWS", direction: "DESC" } },
    ],
    // node and nodes: one plan per node type
    ['{ node(id: "x") { id ... on Post { title comments { totalCount } } ... on User { name } } }'],
    ['{ nodes(ids: ["x", "y"]) { __typename ...on Comment { text post { title } } } }'],
    // the same edge under two parents' fragments merges into one plan
    [`{ posts { edges { node { ...A ...B } } } }
      fragment A on Post { comments(first: 2) { edges { node { text } } } }
      fragment B on Post { comments(first: 2) { totalCount edges { node { createdAt author { name } } } } }`],
  ];
  for (const [source, variables] of documents) check(blog.graph, blogSchema, source, variables);
});

Deno.test("field collection: a field it does not know selects every column, unless CollectedFor maps it", () => {
  const schema = buildSchema(
    blog.typeDefs + "\nextend type User { displayName: String! shout: String! }",
  );
  const plan = (field: string) => {
    const { plans } = run(blog.graph, schema, `{ users { edges { node { email ${field} } } } }`);
    return (plans.get("users") as ConnectionPlan).node;
  };
  assertEquals([...plan("displayName").props!].sort(), ["email", "id", "name"]);
  assertEquals(plan("shout").props, undefined);
  check(blog.graph, schema, "{ users { edges { node { displayName posts { totalCount } } } } }");
  check(blog.graph, schema, "{ users { edges { node { shout } } } }");
});

Deno.test("field collection: 400 random documents of four examples against graphql-js's execution", () => {
  const examples: [Graph, string][] = [
    [blog.graph, blog.typeDefs],
    [todo.graph, todo.typeDefs],
    [realworld.graph, realworld.typeDefs],
    [shop.graph, shop.typeDefs],
  ];
  // A fixed linear congruential sequence: the same documents on every run.
  let seed = 2_026;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (const [graph, typeDefs] of examples) {
    const schema = buildSchema(typeDefs);
    const generator = new QueryGenerator(graph, schema, rand, {
      ids: new Map(),
      cursors: new Map(),
    });
    for (let i = 0; i < 100; i++) check(graph, schema, generator.query().text);
  }
});

Deno.test("field collection: the page-size limit before any SQL", () => {
  const page = assertThrows(() =>
    run(
      blog.graph,
      blogSchema,
      "{ users { edges { node { posts(first: 11) { totalCount } } } } }",
      {},
      undefined,
      {
        maxPageSize: 10,
      },
    )
  ) as { extensions?: { code?: string } };
  assertEquals(page.extensions?.code, "INVALID_PAGINATION");
});

Deno.test("field collection: plans are cached per parsed field and variables, and shared", () => {
  const source =
    "query($n: Int) { users(first: $n) { edges { node { name posts(first: $n) { totalCount } } } } }";
  const document = parse(source);
  const limits = { maxPageSize: 1000 };
  const planOf = (n: number) => {
    let plan: unknown;
    execute({
      schema: blogSchema,
      document,
      rootValue: {},
      variableValues: { n },
      fieldResolver: (_s, _a, _c, info) => {
        if (info.parentType.name === "Query") {
          plan = collectConnection({ graph: blog.graph, limits }, blog.graph.types.User, info);
        }
        return null;
      },
    });
    return plan;
  };
  assertStrictEquals(planOf(2), planOf(2));
  assert(planOf(2) !== planOf(3));
});

Deno.test("fieldsOf: the collected properties plus the extra ones' first path segments", () => {
  const type = blog.graph.types.Post;
  const plan: NodePlan = { type, props: new Set(["id", "title"]), edges: [] };
  assertEquals(fieldsOf(plan, ["author.name", "views", "title"]), [
    "id",
    "title",
    "author",
    "views",
  ]);
  assertEquals(fieldsOf({ ...plan, props: undefined }, ["views"]), undefined);
});
