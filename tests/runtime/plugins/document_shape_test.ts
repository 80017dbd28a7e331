/**
 * `documentShape` against an oracle that expands every fragment spread into a copy of its
 * selection (graphql-js's `visit` over the materialised operation): random documents over the
 * blog schema with chains of named fragments, inline fragments and aliases agree on the field
 * count and the node depth; a fan-out that expands to 525,253 fields is counted in linear time
 * without expanding it.
 */
import { assert, assertEquals } from "@std/assert";
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLCompositeType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  type SelectionSetNode,
} from "graphql";
import { documentShape } from "../../../runtime/plugins/document_shape.ts";
import { createSchema } from "../../../examples/blog/generated/mod.ts";

const schema = createSchema();

/** Fields and depth of `set` on `parent`, every fragment spread expanded where it stands. */
function expanded(
  set: SelectionSetNode,
  parent: GraphQLCompositeType,
  fragments: Map<string, FragmentDefinitionNode>,
): Shape {
  let fields = 0;
  let depth = 0;
  let spreads = 0;
  let level = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      fields++;
      if (!selection.selectionSet || !("getFields" in parent)) continue;
      const child = getNamedType(parent.getFields()[selection.name.value].type);
      assert(isCompositeType(child));
      const inner = expanded(selection.selectionSet, child, fragments);
      fields += inner.fields;
      const nodes = (t: GraphQLCompositeType) =>
        t.name === "Node" ||
        ((isObjectType(t) || isInterfaceType(t)) &&
          t.getInterfaces().some((i) => i.name === "Node"));
      const edge = (nodes(parent) || parent.name === "Query" || parent.name === "Mutation") &&
        (nodes(child) || child.name.endsWith("Connection"));
      depth = Math.max(depth, inner.depth + (edge ? 1 : 0));
      spreads = Math.max(spreads, inner.spreads);
    } else {
      const name = selection.kind === Kind.INLINE_FRAGMENT
        ? selection.typeCondition?.name.value
        : fragments.get(selection.name.value)!.typeCondition.name.value;
      const type = name ? schema.getType(name) : parent;
      assert(isCompositeType(type));
      const inner = expanded(
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection.selectionSet
          : fragments.get(selection.name.value)!.selectionSet,
        type,
        fragments,
      );
      fields += inner.fields;
      depth = Math.max(depth, inner.depth);
      spreads = Math.max(spreads, inner.spreads);
      level += inner.level + (selection.kind === Kind.FRAGMENT_SPREAD ? 1 : 0);
    }
  }
  return { fields, depth, spreads: Math.max(spreads, level), level };
}

/** `documentShape` without `merges` (the oracle's counts). */
function counts(document: DocumentNode): { fields: number; depth: number; spreads: number } {
  const { fields, depth, spreads } = documentShape(schema, document);
  return { fields, depth, spreads };
}

/** What the oracle computes: the shape, and the spreads of the selection's own level. */
interface Shape {
  fields: number;
  depth: number;
  spreads: number;
  level: number;
}

function oracle(document: DocumentNode): { fields: number; depth: number; spreads: number } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  }
  let fields = 0;
  let depth = 0;
  let spreads = 0;
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const shape = expanded(d.selectionSet, schema.getRootType(d.operation)!, fragments);
    fields = Math.max(fields, shape.fields);
    depth = Math.max(depth, shape.depth);
    spreads = Math.max(spreads, shape.spreads);
  }
  return { fields, depth, spreads };
}

/** `fragment F<i>` on User or Post (alternating), each spreading F<i+1> inside `aliases` edges. */
function fanOut(levels: number, aliases: number): string {
  const fragments: string[] = [];
  for (let level = 1; level <= levels; level++) {
    const next = level < levels ? ` ...F${level + 1}` : "";
    const onUser = level % 2 === 1;
    const selections = Array.from(
      { length: aliases },
      (_, i) =>
        onUser
          ? `a${i}: posts(first: 1) { totalCount edges { node { id${next} } } }`
          : `a${i}: author { id${next} }`,
    ).join(" ");
    fragments.push(`fragment F${level} on ${onUser ? "User" : "Post"} { ${selections} }`);
  }
  return `{ users(first: 1) { edges { node { ...F1 } } } }\n${fragments.join("\n")}`;
}

Deno.test("document shape: fixed documents", () => {
  const cases: [string, number, number, number][] = [
    ["{ __typename }", 1, 0, 0],
    ["{ users { totalCount } }", 2, 1, 0],
    ["{ users { edges { node { id posts { totalCount } } } } }", 6, 2, 0],
    [
      '{ node(id: "x") { id ... on User { posts { edges { node { author { name } } } } } } }',
      7,
      3,
      0,
    ],
    [
      "query { ...Q } fragment Q on Query { a: users { totalCount } b: posts { totalCount } }",
      4,
      1,
      1,
    ],
    ["{ users { totalCount } } query B { posts { edges { node { author { id } } } } }", 5, 2, 0],
    // A cycle (validation refuses it) ends the walk instead of recursing forever.
    ["{ users { edges { node { ...A } } } } fragment A on User { name ...A }", 4, 1, 2],
    // Unknown fields and types (validation refuses them) count as fields of no type.
    ["{ nope { a { b } } users { edges { node { ... on Nope { x { y } } } } } }", 8, 1, 0],
    ['mutation { createUser(input: { name: "n" }) { posts { totalCount } } }', 3, 2, 0],
    // spreads collected into one selection: its own, its inline fragments', and those of the
    // fragments it spreads at that level; a field's selection is a level of its own
    [
      `{ users { edges { node { ...A ... on User { ...B } posts { edges { node { ...C } } } } } } }
      fragment A on User { ...B ...B } fragment B on User { name } fragment C on Post { title }`,
      10,
      2,
      4,
    ],
  ];
  for (const [source, fields, depth, spreads] of cases) {
    assertEquals(counts(parse(source)), { fields, depth, spreads }, source);
  }
  for (const [levels, aliases] of [[1, 3], [2, 3], [3, 4], [4, 3]]) {
    const document = parse(fanOut(levels, aliases));
    assertEquals(counts(document), oracle(document), `${levels} x ${aliases}`);
  }
});

Deno.test("document shape: random fragment chains agree with the expanded operation", () => {
  // A fixed linear congruential sequence: the same documents on every run.
  let seed = 20_261_124;
  const rand = (n: number) =>
    Math.floor((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 * n);
  for (let round = 0; round < 200; round++) {
    const count = 1 + rand(5);
    const onUser = Array.from({ length: count }, () => rand(2) === 0);
    /** A selection on User or Post spreading only fragments after `index` (no cycles). */
    const selection = (user: boolean, index: number, budget: number): string => {
      const parts: string[] = [user ? "name" : "title"];
      const later = onUser.flatMap((u, i) => (i > index && u === user ? [i] : []));
      for (let i = 0; i < 1 + rand(3); i++) {
        const choice = rand(5);
        if (choice === 0 && later.length > 0) {
          parts.push(`...F${later[rand(later.length)]}`);
        } else if (choice === 1 && budget > 0) {
          parts.push(
            user
              ? `a${i}: posts(first: 2) { totalCount edges { node { ${
                selection(false, index, budget - 1)
              } } } }`
              : `b${i}: author { ${selection(true, index, budget - 1)} }`,
          );
        } else if (choice === 2 && budget > 0) {
          parts.push(`... on ${user ? "User" : "Post"} { ${selection(user, index, budget - 1)} }`);
        } else if (choice === 3) {
          parts.push(`... { c${i}: __typename }`);
        } else {
          parts.push(`d${i}: id`);
        }
      }
      return parts.join(" ");
    };
    const fragments = onUser.map((user, i) =>
      `fragment F${i} on ${user ? "User" : "Post"} { ${selection(user, i, 3)} }`
    );
    const root = onUser[0]
      ? `users(first: 3) { edges { node { ...F0 } } }`
      : `posts(first: 3) { edges { node { ...F0 } } }`;
    const source = `{ ${root} }\n${fragments.join("\n")}`;
    const document = parse(source);
    assertEquals(counts(document), oracle(document), source);
  }
});

Deno.test("document shape: a fan-out of 525,253 fields is counted without expanding it", () => {
  const document = parse(fanOut(5, 10));
  const started = performance.now();
  const shape = documentShape(schema, document);
  const elapsed = performance.now() - started;
  // 5 levels: users (1), then posts (2), author (3), posts (4), author (5), posts (6)
  assertEquals(shape.depth, 6);
  // level l has 10^l aliases: 5 fields each on User levels (the alias, totalCount, edges, node,
  // id), 2 on Post levels (the alias, id); plus the root's users, edges, node
  assertEquals(shape.fields, 3 + 10 * 5 + 100 * 2 + 1_000 * 5 + 10_000 * 2 + 100_000 * 5);
  console.log(`fan-out 5 x 10 (${shape.fields} fields): shape in ${elapsed.toFixed(2)} ms`);
  // memoized per parsed document
  assert(documentShape(schema, document) === shape);
});

Deno.test("document shape: merges count the overlap validation's work per response name", () => {
  const merges = (source: string) => documentShape(schema, parse(source)).merges;
  // distinct response names merge nothing
  assertEquals(merges(`{ users { totalCount } posts { totalCount } }`), 0);
  // 3 fields named t (1 field each): 2 x 3
  assertEquals(merges(`{ t: __typename t: __typename t: __typename }`), 6);
  // two `users` of 2 fields each (users, totalCount), one in a fragment at the root's level:
  // 1 x 4
  assertEquals(
    merges(`{ users { totalCount } ...F } fragment F on Query { users { totalCount } }`),
    4,
  );
  // the fragment's own selection sets count once however often it is spread; its fields merge
  // at each level they are collected into: F spread twice at the root, 3 users fields there
  assertEquals(
    merges(`{ users { totalCount } ...F ...F } fragment F on Query { users { totalCount } }`),
    2 * 6,
  );
  // nested: two `posts` (2 fields each) under one node merge there: 1 x 4
  assertEquals(
    merges(
      `{ users { edges { node { posts { totalCount } posts { totalCount } } } } }`,
    ),
    1 * 4,
  );
  // the document: 255 fields of one name in 49 fragments, far over the default limit
  const five = (from: number) =>
    Array.from({ length: 5 }, (_, i) => `p: posts(first: ${1 + ((from + i) % 50)}) { totalCount }`)
      .join(" ");
  const fragments = Array.from(
    { length: 49 },
    (_, f) => `fragment F${f} on Query { ${five(f * 5)} }`,
  );
  const spreads = Array.from({ length: 49 }, (_, f) => `...F${f}`).join(" ");
  assert(
    merges(`{ ${five(245)} ... on Query { ${five(250)} } ${spreads} }\n${fragments.join("\n")}`) >
      100_000,
  );
});
