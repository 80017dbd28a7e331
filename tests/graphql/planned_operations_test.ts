/**
 * Planned operations (`runtime/resolve/planned_operations.ts`) against GraphQL execution: random
 * `node(id)` queries over the blog, shop (inheritance, embeddables, lazy columns), library
 * (composite keys) and lingo (a default filter, UUID keys, arrays) examples on random data, each
 * answered over HTTP by a server with the preset (planned reads on) and by one with
 * `plannedReads: false` (every operation executed by graphql-jit and the resolvers). The answers'
 * bodies must be equal byte for byte, and so must the statements each sent (in any order). The queries are drawn
 * around the planned class: a node's columns, `id` and `__typename`, at most one connection edge
 * (`first`/`last`, `cursor`, `pageInfo`) with its nodes' columns, aliases, repeated keys, inline
 * and named fragments, the id as a literal or a variable; and just outside it (a second edge, a
 * unique edge, `totalCount`, `@include`, an id naming no row, a malformed id), where the run must
 * execute as before. A document with the id as a variable is sent again with three other ids
 * (mostly of the same type), which the plans its first request made answer (with the joined
 * statement's template, `read/joined_page.ts`), where the executing server plans afresh for each
 * variable value. A third of the requests at least must be answered from their plans.
 *
 * Each example runs twice: with graphql-jit, the preset's executor, and with `jit: false`, whose
 * graphql-js orders an answer's fields and reports errors otherwise.
 *
 * `PLANNED_SEED=<n>` replays a run (the seed is in the test's name); `PLANNED_QUERIES=<n>` sets
 * the queries per example, executor and database (default 40).
 *
 * @module
 */
import { assert, assertEquals } from "@std/assert";
import type { GraphQLSchema } from "graphql";
import type { Graph, NodeType } from "@mikrogql/ext";
import type { Options } from "@mikro-orm/core";
import { globalIdOf } from "../../runtime/plan/global_id.ts";
import { primaryKeyOf } from "../../runtime/keys.ts";
import { nodeTypeOf } from "../../runtime/graph.ts";
import { plannedStats } from "../../runtime/resolve/planned_operations.ts";
import { entities as blogEntities } from "../../examples/blog/entities.ts";
import * as blog from "../../examples/blog/generated/mod.ts";
import { entities as libraryEntities } from "../../examples/library/entities.ts";
import * as library from "../../examples/library/generated/mod.ts";
import { entities as shopEntities } from "../../examples/shop/entities.ts";
import * as shop from "../../examples/shop/generated/mod.ts";
import {
  entities as lingoEntities,
  ormOptions as lingoOrmOptions,
} from "../../examples/lingo/entities.ts";
import * as lingo from "../../examples/lingo/generated/mod.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { random, seedRandom } from "../support/random_data.ts";
import { startServer } from "../support/server.ts";
import { testSeed } from "../support/test_seed.ts";

interface Example {
  name: string;
  entities: unknown[];
  graph: Graph;
  createSchema(): GraphQLSchema;
  orm?: Partial<Options>;
}

/** The examples, each run twice: with graphql-jit (the preset's executor), then with graphql-js. */
const EXAMPLES: Example[] = [
  { name: "blog", entities: blogEntities, ...blog },
  { name: "shop", entities: shopEntities, ...shop },
  { name: "library", entities: libraryEntities, ...library },
  { name: "lingo", entities: lingoEntities, orm: lingoOrmOptions, ...lingo },
].flatMap((example) => [example, example]);

const SEED = testSeed("PLANNED_SEED", 20_261_130);
const QUERIES = Number(Deno.env.get("PLANNED_QUERIES") ?? 40);

/** A drawn operation: its text and variables. */
interface Draw {
  query: string;
  variables?: Record<string, unknown>;
}

/** Draws `node(id)` operations around the planned class (see the module documentation). */
class Draws {
  #fragments: string[] = [];
  #n = 0;

  constructor(
    readonly graph: Graph,
    readonly schema: GraphQLSchema,
    readonly rand: () => number,
    readonly ids: Map<string, string[]>,
  ) {}

  chance(p: number): boolean {
    return this.rand() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)];
  }

  /** Some of `items`, in a random order, each at most once. */
  some<T>(items: readonly T[], most: number): T[] {
    const left = [...items];
    const out: T[] = [];
    const count = Math.floor(this.rand() * (Math.min(most, left.length) + 1));
    for (let i = 0; i < count; i++) {
      out.push(...left.splice(Math.floor(this.rand() * left.length), 1));
    }
    return out;
  }

  /** A field written as itself or under an alias (sometimes both). */
  key(name: string, body = ""): string {
    const own = `${name}${body}`;
    if (this.chance(0.15)) return `a${this.#n++}: ${own}`;
    if (this.chance(0.08)) return `${own} ${own}`;
    return own;
  }

  /** The column fields of `type` the schema's object type has. */
  columns(type: NodeType): string[] {
    const fields = (this.schema.getType(type.name) as { getFields?(): Record<string, unknown> })
      .getFields?.() ?? {};
    return Object.keys(type.fields).filter((name) => name in fields);
  }

  /** A selection of `type`'s columns (and `id`, `__typename`). */
  columnSelection(type: NodeType): string[] {
    const parts = this.some(this.columns(type), 4).map((name) => this.key(name));
    if (this.chance(0.7)) parts.push(this.key("id"));
    if (this.chance(0.3)) parts.push("__typename");
    return parts.length > 0 ? parts : ["id"];
  }

  /** The connection edges of `type` (`1:m`, with a concrete target). */
  connections(type: NodeType): string[] {
    return Object.entries(type.edges).filter(([, edge]) =>
      edge.connection && edge.kind === "1:m" && !this.graph.types[edge.target].abstract
    ).map(([name]) => name);
  }

  /** A connection edge's selection: a page of its nodes' columns. */
  connection(type: NodeType, name: string): string {
    const target = this.graph.types[type.edges[name].target];
    const args = this.chance(0.75)
      ? `first: ${1 + Math.floor(this.rand() * 12)}`
      : `last: ${1 + Math.floor(this.rand() * 5)}`;
    const edge = [`node { ${this.columnSelection(target).join(" ")} }`];
    if (this.chance(0.2)) edge.push("cursor");
    if (this.chance(0.15)) edge.push("__typename");
    const parts = [`edges { ${this.some(edge, edge.length).concat(edge[0]).join(" ")} }`];
    if (this.chance(0.2)) parts.push("pageInfo { hasNextPage hasPreviousPage endCursor }");
    if (this.chance(0.1)) parts.push("__typename");
    if (this.chance(0.05)) parts.push("totalCount");
    return this.key(name, `(${args}) { ${parts.join(" ")} }`);
  }

  /** The selection of a node of `type`: parts in fragments, now and then one outside the plan. */
  nodeSelection(type: NodeType): string {
    const parts = this.columnSelection(type);
    const connections = this.connections(type);
    if (connections.length > 0 && this.chance(0.6)) {
      parts.push(this.connection(type, this.pick(connections)));
      if (connections.length > 1 && this.chance(0.05)) {
        parts.push(this.connection(type, this.pick(connections)));
      }
    }
    const unique = Object.entries(type.edges).filter(([, edge]) => !edge.connection);
    if (unique.length > 0 && this.chance(0.05)) parts.push(`${this.pick(unique)[0]} { id }`);
    if (this.chance(0.04)) parts.push(`id @include(if: true)`);
    const out: string[] = [];
    for (const part of parts) {
      // `id` and `__typename` are fields of `Node`: they may stand outside a fragment on the type.
      const onNode = /^(a\d+: )?(id|__typename)( id| __typename)?$/.test(part);
      const r = this.rand();
      if (r < 0.45) out.push(`... on ${type.name} { ${part} }`);
      else if (r < 0.75) {
        const name = `F${this.#n++}`;
        this.#fragments.push(`fragment ${name} on ${type.name} { ${part} }`);
        out.push(`...${name}`);
      } else if (onNode && r < 0.85) out.push(`... { ${part} }`);
      else if (onNode) out.push(part);
      else out.push(`... on ${type.name} { ${part} }`);
    }
    // A field of `Node` outside any fragment, as clients write it.
    if (this.chance(0.5)) out.unshift("id");
    return out.join(" ");
  }

  /** One operation. */
  draw(): Draw {
    this.#fragments = [];
    const types = Object.values(this.graph.types).filter((type) =>
      !type.abstract && (this.ids.get(type.name) ?? []).length > 0
    );
    const type = this.pick(types);
    const r = this.rand();
    const id = r < 0.05
      ? "bm90OmFuSWQ"
      : r < 0.08
      ? this.pick(this.ids.get(this.pick(types).name)!)
      : this.pick(this.ids.get(type.name)!);
    const root = this.chance(0.2) ? "n: node" : "node";
    const typename = this.chance(0.1) ? "__typename " : "";
    const selection = this.nodeSelection(type);
    const fragments = this.#fragments.join("\n");
    if (this.chance(0.5)) {
      return {
        query: `query Q($id: ID!) { ${typename}${root}(id: $id) { ${selection} } }\n${fragments}`,
        variables: { id },
      };
    }
    return {
      query: `{ ${typename}${root}(id: ${JSON.stringify(id)}) { ${selection} } }\n${fragments}`,
    };
  }
}

/** A logged statement without its timing (`[took 1 ms, 1 result]`). */
function statementText(logged: string): string {
  return logged.replace(/ \[took [^\]]*\]$/, "");
}

/** Posts `draw` and returns the body's text. */
async function post(url: string, draw: Draw): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(draw),
  });
  return await response.text();
}

for (const dialect of dialects()) {
  Deno.test({
    name:
      `planned operations: answers and statements equal to execution's (${dialect}, seed ${SEED})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      let answered = 0;
      let drawn = 0;
      for (const [index, example] of EXAMPLES.entries()) {
        const seed = SEED + index;
        const db = await openTestOrm(dialect, example.entities as never, {
          ...example.orm,
          pool: { min: 0, max: 2 },
        });
        // graphql-jit's executor (the preset's) and graphql-js's order fields differently.
        const jit = index % 2 === 0;
        const planned = startServer(db.orm, example.createSchema(), [], { preset: { jit } });
        const executed = startServer(db.orm, example.createSchema(), [], {
          preset: { jit, plannedReads: false },
        });
        try {
          const rows = await seedRandom(db.orm.em.fork(), seed);
          const ids = new Map<string, string[]>();
          const typeOf = new Map<unknown, string>();
          for (const list of rows.values()) {
            for (const row of list) {
              const type = nodeTypeOf(example.graph, row);
              if (!type) continue;
              const id = globalIdOf(example.graph, type, primaryKeyOf(type, row));
              ids.set(type.name, [...ids.get(type.name) ?? [], id]);
              typeOf.set(id, type.name);
            }
          }
          const draws = new Draws(example.graph, example.createSchema(), random(seed), ids);
          for (let i = 0; i < QUERIES; i++) {
            const first = draws.draw();
            // A document sent again with other ids (mostly of the same type) runs the plans, and
            // the joined statement's template, that its first request made, where the executing
            // server plans afresh for each variable value.
            const all = [...ids.values()].flat();
            const same = all.filter((id) => typeOf.get(id) === typeOf.get(first.variables?.id));
            const repeats = first.variables
              ? [
                first,
                ...[0, 1, 2].map(() => ({
                  ...first,
                  variables: { id: draws.pick(draws.chance(0.8) ? same : all) },
                })),
              ]
              : [first];
            for (const draw of repeats) {
              db.log.length = 0;
              const before = plannedStats.answered;
              const got = await post(planned.url, draw);
              if (plannedStats.answered > before) answered++;
              // Sorted: the edges of one level load concurrently, in no fixed order.
              const sent = db.log.map(statementText).sort();
              db.log.length = 0;
              const want = await post(executed.url, draw);
              const context = `${example.name} (${
                jit ? "graphql-jit" : "graphql-js"
              }) query ${i} (seed ${seed}):\n${JSON.stringify(draw, null, 1)}`;
              assertEquals(got, want, context);
              assertEquals(sent, db.log.map(statementText).sort(), `statements of ${context}`);
              drawn++;
            }
          }
        } finally {
          await planned.close();
          await executed.close();
          await db.close();
        }
      }
      console.log(`${dialect}: ${drawn} node(id) queries, ${answered} answered from their plans`);
      assert(answered >= drawn / 3, `only ${answered} of ${drawn} answered from their plans`);
    },
  });
}
