/**
 * `resolve/selection_answer.ts` against the two executors it stands in for: random operations
 * (aliases, repeated keys, inline fragments with and without a type condition, on the type and on
 * an interface, named fragments spread more than once, nested objects and lists, enums) over random
 * data, answered by graphql-js's `execute` and by graphql-jit's compiled query with default
 * resolvers. A compiled answer must be the executor's `data`, byte for byte as JSON; where the data
 * breaks the schema (a `null` in a non-null place) the executor reports an error and the compiled
 * answer throws `NotAnswered`; a selection with a directive is not compiled.
 *
 * `SELECTION_SEED=<n>` replays a run (the seed is in the test's name).
 *
 * @module
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import {
  buildSchema,
  execute,
  type GraphQLObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from "graphql";
import { compileQuery, isCompiledQuery } from "graphql-jit";
import {
  compileSelection,
  type Executor,
  NotAnswered,
} from "../../../runtime/resolve/selection_answer.ts";
import { random } from "../../support/random_data.ts";
import { testSeed } from "../../support/test_seed.ts";

const SCHEMA = buildSchema(`
  interface Named { name: String }
  enum Tone { LOW HIGH }
  type Item implements Named {
    name: String
    count: Int!
    ratio: Float
    flag: Boolean
    tone: Tone
    tags: [String!]
    child: Item
    children: [Item!]!
  }
  type Query { item: Item, other: Item! }
`);

const SEED = testSeed("SELECTION_SEED", 20_261_130);
const OPERATIONS = 400;

const LEAVES = ["name", "count", "ratio", "flag", "tone", "tags", "__typename"];
const OBJECTS = ["child", "children"];

/** Random operations over `SCHEMA` (see the module documentation). */
class Operations {
  #fragments: string[] = [];
  #n = 0;

  constructor(readonly rand: () => number) {}

  chance(p: number): boolean {
    return this.rand() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)];
  }

  /** A selection on `Item`, `depth` levels of objects at most. */
  item(depth: number): string {
    const parts: string[] = [];
    const count = 1 + Math.floor(this.rand() * 5);
    for (let i = 0; i < count; i++) {
      const object = depth > 0 && this.chance(0.3);
      const name = object ? this.pick(OBJECTS) : this.pick(LEAVES);
      // A few aliases, so that repeated keys and the same field under two keys both occur.
      const key = this.chance(0.2) ? `${this.pick(["a", "b", "c"])}: ${name}` : name;
      const body = object ? ` { ${this.item(depth - 1)} }` : "";
      const directive = this.chance(0.02) ? " @include(if: true)" : "";
      parts.push(`${key}${directive}${body}`);
    }
    const out: string[] = [];
    for (const part of parts) {
      const r = this.rand();
      if (r < 0.15) out.push(`... on Item { ${part} }`);
      else if (r < 0.2) out.push(`... { ${part} }`);
      else if (r < 0.3) {
        const name = `F${this.#n++}`;
        this.#fragments.push(`fragment ${name} on Item { ${part} }`);
        // Spread twice: each executor expands it once.
        out.push(this.chance(0.3) ? `...${name} ...${name}` : `...${name}`);
      } else out.push(part);
    }
    if (this.chance(0.15)) out.push(`... on Named { ${this.chance(0.5) ? "name" : "n: name"} }`);
    return out.join(" ");
  }

  /** One operation. */
  operation(): string {
    this.#fragments = [];
    const root = this.chance(0.5) ? "item" : "other";
    return `{ ${root} { ${this.item(3)} } }\n${this.#fragments.join("\n")}`;
  }
}

/** A random `Item` tree, `depth` levels deep; now and then a `null` where the schema has none. */
function item(rand: () => number, depth: number): Record<string, unknown> {
  const maybe = <T>(value: T) => rand() < 0.2 ? null : value;
  const broken = rand() < 0.05;
  return {
    name: maybe(["ab", "é", ""][Math.floor(rand() * 3)]),
    count: broken ? null : Math.floor(rand() * 100) - 50,
    ratio: maybe(rand() * 10),
    flag: maybe(rand() < 0.5),
    tone: maybe(rand() < 0.5 ? "LOW" : "HIGH"),
    tags: maybe(Array.from({ length: Math.floor(rand() * 3) }, (_, i) => `t${i}`)),
    child: depth > 0 ? maybe(item(rand, depth - 1)) : null,
    children: depth > 0
      ? Array.from({ length: Math.floor(rand() * 3) }, () => item(rand, depth - 1))
      : [],
  };
}

/** The executor's answer of `text` over `root`: its data and whether it reported an error. */
function executed(
  executor: Executor,
  text: string,
  root: object,
): { data: unknown; errors: boolean } {
  const document = parse(text);
  if (executor === "graphql-js") {
    const result = execute({ schema: SCHEMA, document, rootValue: root }) as {
      data?: unknown;
      errors?: unknown[];
    };
    return { data: result.data, errors: (result.errors?.length ?? 0) > 0 };
  }
  const compiled = compileQuery(SCHEMA, document);
  if (!isCompiledQuery(compiled)) throw new Error(`not compiled: ${JSON.stringify(compiled)}`);
  const result = compiled.query(root, {}, {}) as { data?: unknown; errors?: unknown[] };
  return { data: result.data, errors: (result.errors?.length ?? 0) > 0 };
}

for (const executor of ["graphql-js", "graphql-jit"] as const) {
  Deno.test(`selection answer: the ${executor} executor's data on random operations (seed ${SEED})`, () => {
    const rand = random(SEED);
    const operations = new Operations(rand);
    let compared = 0;
    let refused = 0;
    let unanswered = 0;
    for (let i = 0; i < OPERATIONS; i++) {
      const text = operations.operation();
      const document = parse(text);
      if (validate(SCHEMA, document).length > 0) continue;
      const root = { item: rand() < 0.1 ? null : item(rand, 3), other: item(rand, 3) };
      const operation = document.definitions.find((d) =>
        d.kind === Kind.OPERATION_DEFINITION
      ) as OperationDefinitionNode;
      const fragments = Object.fromEntries(
        document.definitions.flatMap((d) =>
          d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d]] : []
        ),
      );
      const answer = compileSelection(
        { schema: SCHEMA, executor, fragments, field: () => "default" },
        SCHEMA.getQueryType() as GraphQLObjectType,
        [operation.selectionSet],
      );
      const want = executed(executor, text, root);
      if (!answer) {
        assert(/@include/.test(text), `not compiled without a directive:\n${text}`);
        refused++;
        continue;
      }
      if (want.errors) {
        assertThrows(() => answer(root, undefined), NotAnswered, undefined, text);
        unanswered++;
        continue;
      }
      assertEquals(JSON.stringify(answer(root, undefined)), JSON.stringify(want.data), text);
      compared++;
    }
    console.log(
      `${executor}: ${compared} answers equal, ${unanswered} not answered (the data breaks the schema), ${refused} not compiled (a directive)`,
    );
    assert(compared >= OPERATIONS / 2, `only ${compared} answers compared`);
  });
}
