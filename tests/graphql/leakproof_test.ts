/**
 * Leakproof ordering (issue 34, item 4): a client's condition on rows a read rule hides (a
 * `has<Edge>With` predicate, a connection's own where input: root, nested, paged) is evaluated
 * only on rows the viewer may read, behind a fence the database keeps
 * (`runtime/plan/visible_rows.ts`), so no hidden row's content changes the statement's work.
 * Checked on the SQL the workspace example sends for bob (a viewer with hidden comments, tasks
 * and users) and on each database's `EXPLAIN` of it: the client's text match sits outside the
 * derived table of visible rows, which the planner keeps whole (PostgreSQL: a `Subquery Scan`
 * whose filter holds the match and whose plan below holds none; SQLite: a co-routine or
 * materialisation, not flattened; MariaDB: a materialised `<derived>` table whose condition
 * holds the match and whose own query holds none). Timings are in `bench/auth_timing.ts`, not
 * here. sqlite, postgresql, mariadb.
 */
import { assert, assertEquals } from "@std/assert";
import { entities } from "../../examples/workspace/entities.ts";
import { workspaceSchema } from "../../examples/workspace/schema.ts";
import { seed } from "../../examples/workspace/seed.ts";
import { type Dialect, dialects, openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

/** The client's text match of each dialect (`matchText` of `runtime/dialect.ts`). */
const MATCH: Record<Dialect, RegExp> = {
  sqlite: / glob \?/,
  postgresql: / like \? escape/,
  mariadb: / like binary \? escape/,
};

/**
 * Queries whose client condition matches text on rows bob partly may not read, each with the
 * alias of its fenced visible rows (`__r` for a `has<Edge>With`'s, else the read's own alias).
 */
const QUERIES: { query: string; alias: string }[] = [
  // A to-many edge: dan's comments (hidden from bob) on tasks bob reads.
  {
    query: `{ tasks(where: { hasCommentsWith: [{ bodyHasPrefix: "secret" }] }) { totalCount } }`,
    alias: "__r",
  },
  // A to-one edge: users bob may not read as comment authors.
  {
    query: `{ comments(where: { hasAuthorWith: [{ usernameHasPrefix: "da" }] }) { totalCount } }`,
    alias: "__r",
  },
  // Nested: both levels fenced.
  {
    query:
      `{ tasks(where: { hasCommentsWith: [{ hasAuthorWith: [{ usernameHasPrefix: "da" }] }] }) {
      totalCount } }`,
    alias: "__r",
  },
  // A root connection's own where: its count, its page.
  { query: `{ comments(where: { bodyHasPrefix: "E" }) { totalCount } }`, alias: "e0" },
  {
    query: `{ comments(first: 2, where: { bodyHasPrefix: "E" }) { edges { node { id } } } }`,
    alias: "e0",
  },
  // A nested connection's own where: one parent's count (grouped), its page (with the node's
  // statement), many parents' pages with their counts (a window).
  {
    query: `{ node(id: "VGFzazox") { ... on Task { comments(where: { bodyHasPrefix: "E" }) {
      totalCount } } } }`,
    alias: "t",
  },
  {
    query:
      `{ node(id: "VGFzazox") { ... on Task { comments(first: 2, where: { bodyHasPrefix: "E" }) {
      edges { node { id } } } } } }`,
    alias: "e0",
  },
  {
    query: `{ tasks { edges { node { comments(first: 2, where: { bodyHasPrefix: "E" }) {
      totalCount edges { node { id } } } } } } }`,
    alias: "t",
  },
];

interface PgPlan {
  "Node Type": string;
  Alias?: string;
  Filter?: string;
  Plans?: PgPlan[];
}

function pgNodes(node: PgPlan, into: PgPlan[] = []): PgPlan[] {
  into.push(node);
  for (const child of node.Plans ?? []) pgNodes(child, into);
  return into;
}

/** MariaDB's EXPLAIN FORMAT=JSON objects that name a table. */
function mariaTables(value: unknown, into: Record<string, unknown>[] = []) {
  if (Array.isArray(value)) value.forEach((v) => mariaTables(v, into));
  else if (value && typeof value === "object") {
    const object = value as Record<string, unknown>;
    if (typeof object.table_name === "string") into.push(object);
    Object.values(object).forEach((v) => mariaTables(v, into));
  }
  return into;
}

/**
 * The workspace's seeded schema served to the viewer bob on a database of `dialect`, with every
 * statement sent recorded in `statements`.
 */
async function bobsServer(dialect: Dialect) {
  const statements: { sql: string; params: readonly unknown[] }[] = [];
  const db = await openTestOrm(dialect, entities, {
    onQuery: (sql: string, params: readonly unknown[]) => {
      statements.push({ sql, params });
      return sql;
    },
  } as never);
  const server = startServer(db.orm, workspaceSchema(), [], {
    context: () => ({ em: db.orm.em.fork(), viewer: "bob" }),
  } as never);
  return { statements, db, server };
}

for (const dialect of dialects()) {
  Deno.test({
    name:
      `leakproof: has<Edge>With and a connection's where match only visible rows, behind a fence (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const { statements, db, server } = await bobsServer(dialect);
      try {
        await seed(db.orm.em.fork());
        const connection = db.orm.em.getConnection();
        // dan's comment on a task bob reads (task 1): its author hides it from bob.
        await connection.execute(
          "insert into comment (id, task_id, author_id, body) values (6, 1, 4, 'Eyes only')",
        );
        for (const { query, alias } of QUERIES) {
          statements.length = 0;
          const answer = await server.query(query);
          assertEquals(answer.errors, undefined, query);
          const reads = statements.filter((s) => MATCH[dialect].test(s.sql));
          assertEquals(reads.length, 1, `${query}: ${statements.map((s) => s.sql).join("\n")}`);
          const { sql, params } = reads[0];
          // The match is applied to the derived table of visible rows, outside its fence.
          const parts = sql.split(new RegExp(`\\) as [\`"]${alias}[\`"] where `));
          // Each `has<Edge>With` level has its own visible rows.
          const fences = parts.length - 1;
          assert(fences >= 1, `no fenced visible rows: ${sql}`);
          for (const inner of parts.slice(0, -1)) {
            assert(/ offset \?$/.test(inner), `the visible rows end without a fence: ${inner}`);
          }
          if (dialect === "postgresql") {
            const [{ "QUERY PLAN": [{ Plan: plan }] }] = await connection.execute(
              `explain (format json) ${sql}`,
              [...params],
            );
            // Every evaluation of the match is a fenced scan's filter (EXPLAIN numbers repeated
            // aliases: `__r_1`).
            const fenced = (n: PgPlan) =>
              n["Node Type"] === "Subquery Scan" &&
              new RegExp(`^${alias}(_\\d+)?$`).test(n.Alias ?? "");
            const nodes = pgNodes(plan);
            assert(
              nodes.filter(fenced).length >= fences,
              `visible rows were pulled up: ${JSON.stringify(plan)}`,
            );
            for (const node of nodes) {
              const own = JSON.stringify({ ...node, Plans: undefined });
              if (/~~/.test(own)) {
                assert(fenced(node), `the match is evaluated below or beside the fence: ${own}`);
              }
            }
          } else if (dialect === "sqlite") {
            const plan = await connection.execute(`explain query plan ${sql}`, [...params]) as {
              detail: string;
            }[];
            assert(
              plan.filter((row) =>
                new RegExp(`^(CO-ROUTINE|MATERIALIZE) ${alias}$`).test(row.detail)
              )
                .length >= fences,
              `visible rows were flattened: ${plan.map((r) => r.detail).join("\n")}`,
            );
          } else {
            const [row] = await connection.execute(`explain format=json ${sql}`, [...params]);
            const tables = mariaTables(JSON.parse(row.EXPLAIN));
            const derived = tables.filter((t) =>
              /^<derived\d+>$/.test(t.table_name as string) && t.materialized
            );
            assert(derived.length >= fences, `visible rows were merged: ${row.EXPLAIN}`);
            // Every evaluation of the match is a derived table's condition.
            for (const table of tables) {
              if (/ like /.test(String(table.attached_condition ?? ""))) {
                assert(
                  derived.includes(table),
                  `the match is evaluated below or beside the fence: ${JSON.stringify(table)}`,
                );
              }
            }
          }
        }
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}

/** Hidden comments (dan's, on task 4, which bob reads) in the test of rows read. */
const HIDDEN = 20_000;

/**
 * Counts of a parent's children that read the visible rows first, for a task whose comments bob
 * may not read, with the databases that plan them so: `comments { totalCount }` (one parent: a
 * grouped count) and the same with a where input (fenced) on every database; many parents'
 * pages with their counts (a window) on PostgreSQL (SQLite and MariaDB read the window's rows by
 * the task's index here, and drop the hidden ones: docs/authorization-writes.md).
 */
const COUNTS: { query: string; dialects: Dialect[] }[] = [
  {
    query: `{ node(id: "VGFzazo0") { ... on Task { comments { totalCount } } } }`,
    dialects: ["sqlite", "postgresql", "mariadb"],
  },
  {
    query: `{ node(id: "VGFzazo0") { ... on Task { comments(where: { bodyHasPrefix: "s" }) {
      totalCount } } } }`,
    dialects: ["sqlite", "postgresql", "mariadb"],
  },
  {
    query: `{ nodes(ids: ["VGFzazo0", "VGFzazox"]) { ... on Task { comments(first: 2) {
      totalCount edges { node { id } } } } } }`,
    dialects: ["postgresql"],
  },
];

/** The rows of `table` each plan node of a PostgreSQL `EXPLAIN (ANALYZE, FORMAT JSON)` read. */
function pgRowsRead(node: Record<string, unknown>, table: string): number {
  const own = node["Relation Name"] === table
    ? ((node["Actual Rows"] as number) + ((node["Rows Removed by Filter"] as number) ?? 0) +
      ((node["Rows Removed by Index Recheck"] as number) ?? 0)) * (node["Actual Loops"] as number)
    : 0;
  return own +
    ((node.Plans ?? []) as Record<string, unknown>[]).reduce(
      (sum, child) => sum + pgRowsRead(child, table),
      0,
    );
}

for (const dialect of dialects()) {
  Deno.test({
    name:
      `leakproof: counting a task's hidden comments reads none of them, with statistics (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const { statements, db, server } = await bobsServer(dialect);
      try {
        await seed(db.orm.em.fork());
        const connection = db.orm.em.getConnection();
        for (let done = 0; done < HIDDEN; done += 5_000) {
          const rows = Array.from({ length: 5_000 }, (_, i) => `(4, 4, 'secret ${done + i}')`);
          await connection.execute(
            `insert into comment (task_id, author_id, body) values ${rows.join(", ")}`,
          );
        }
        // The plans of a server whose database has statistics (autovacuum's, `ANALYZE`): they
        // know that most of the task's comments have one author, and are the plans that read
        // them all when the author's visibility does not drive the scan.
        await connection.execute(dialect === "mariadb" ? "analyze table comment" : "analyze");
        for (const { query, dialects } of COUNTS) {
          if (!dialects.includes(dialect)) continue;
          statements.length = 0;
          const answer = await server.query(query);
          assertEquals(answer.errors, undefined, query);
          const [count] = statements.filter((s) => /count\(\*\)/.test(s.sql));
          assert(count, `${query}: no count in ${statements.map((s) => s.sql).join("\n")}`);
          const { sql, params } = count;
          if (dialect === "postgresql") {
            const [{ "QUERY PLAN": [{ Plan: plan }] }] = await connection.execute(
              `explain (analyze, format json) ${sql}`,
              [...params],
            );
            const read = pgRowsRead(plan, "comment");
            assert(
              read < 100,
              `${query}: ${read} comments read: ${JSON.stringify(plan).slice(0, 2000)}`,
            );
          } else if (dialect === "mariadb") {
            const [row] = await connection.execute(`analyze format=json ${sql}`, [...params]);
            // The comment table's accesses (MariaDB names a table by its alias: by its keys).
            const read = mariaTables(JSON.parse(row.ANALYZE))
              .filter((t) =>
                /^(PRIMARY|comment_)/.test(String(t.key)) &&
                (t.possible_keys as string[] | undefined)?.some((k) => k.startsWith("comment_"))
              )
              .reduce((sum, t) => sum + Number(t.r_rows ?? 0) * Number(t.r_loops ?? 1), 0);
            assert(
              read < 100,
              `${query}: ${read} comments read: ${String(row.ANALYZE).slice(0, 2000)}`,
            );
          } else {
            // SQLite's plan names no row counts: the comments are searched by the index of
            // `(task, author)` with both, per visible author, never by the task alone.
            const plan = await connection.execute(`explain query plan ${sql}`, [...params]) as {
              detail: string;
            }[];
            const searches = plan.map((r) => r.detail).filter((d) =>
              /^(SEARCH|SCAN) (t|e0)\b/.test(d) && / INDEX /.test(d)
            );
            assert(
              searches.length > 0 &&
                searches.every((d) => /\(task_id=\? AND author_id=\?\)/.test(d)),
              `${query}: ${plan.map((r) => r.detail).join("\n")}`,
            );
          }
        }
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
