/**
 * The SQL of field collection is as good as hand-written, on PostgreSQL with
 * enough rows for the planner to care (500 users, 5,000 posts, 50,000 comments, analyzed): a
 * nested page reads the child table alone (`where <fk> in (...)`, no join back to the parent)
 * and its plan uses the foreign key's index, never a sequential scan of the child table, also
 * when it counts each parent's rows (`totalCount`, a window in the page's statement). The row beyond `first` is read only when `hasNextPage` (or, for `last`,
 * `hasPreviousPage`) is selected.
 */
import { assert, assertEquals } from "@std/assert";
import { entities } from "../../examples/blog/entities.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { startServer } from "../support/server.ts";

const FILL = [
  `insert into "user" (id, name, email, created_at) select i, 'user' || i, 'u' || i || '@x',
     now() from generate_series(1, 500) i`,
  `insert into post (id, title, body, status, views, author_id) select i, 'Post ' || i, '',
     'published', 0, (i - 1) / 10 + 1 from generate_series(1, 5000) i`,
  `insert into comment (id, text, created_at, post_id, author_id) select i, 'Comment ' || i,
     now(), (i - 1) / 10 + 1, i % 500 + 1 from generate_series(1, 50000) i`,
  `analyze`,
];

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

function scans(node: PlanNode, into: PlanNode[] = []): PlanNode[] {
  if (node["Relation Name"]) into.push(node);
  for (const child of node.Plans ?? []) scans(child, into);
  return into;
}

if (dialects(["postgresql"]).length > 0) {
  Deno.test({
    name: "nested pages and counts read the child table by its foreign-key index (postgresql)",
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const statements: { sql: string; params: readonly unknown[] }[] = [];
      const db = await openTestOrm("postgresql", entities, {
        onQuery: (sql: string, params: readonly unknown[]) => {
          statements.push({ sql, params });
          return sql;
        },
      });
      const server = startServer(db.orm, createSchema());
      try {
        const connection = db.orm.em.getConnection();
        for (const sql of FILL) await connection.execute(sql);
        statements.length = 0;
        const response = await server.query<
          { users: { edges: { node: { posts: { totalCount: number } } }[] } }
        >(`{ users(first: 10) { edges { node { name posts(first: 10) { totalCount edges { node {
          title comments(first: 10) { totalCount edges { node { text } } } } } } } } } }`);
        assertEquals(response.errors, undefined);
        assertEquals(response.data!.users.edges[0].node.posts.totalCount, 10);
        const platform = db.orm.em.getPlatform();
        const nested = statements.map((s) => platform.formatQuery(s.sql, [...s.params]))
          .filter((sql) => /from "(post|comment)"/.test(sql));
        // posts and comments: one page each, counting each parent's rows in it (a window)
        assertEquals(nested.length, 2, nested.join("\n"));
        for (const sql of nested) {
          assert(!/\bjoin\b/i.test(sql), `joins back to the parent: ${sql}`);
          const [{ "QUERY PLAN": [{ Plan: plan }] }] = await connection.execute(
            `explain (format json) ${sql}`,
          );
          const child = scans(plan).filter((s) =>
            ["post", "comment"].includes(s["Relation Name"]!)
          );
          assert(child.length > 0, sql);
          for (const scan of child) {
            assert(
              /Index/.test(scan["Node Type"]) &&
                /^(post_author_id|comment_post_id)_index$/.test(scan["Index Name"] ?? ""),
              `${scan["Node Type"]} on ${scan["Relation Name"]} (${scan["Index Name"]}): ${sql}`,
            );
          }
        }
        // Without pageInfo: exactly `first` rows; with hasNextPage: one more, and the right answer.
        const limits = async (query: string) => {
          statements.length = 0;
          const answer = await server.query<Record<string, unknown>>(query);
          assertEquals(answer.errors, undefined);
          // The page size is a bound parameter (`"__rn" <= ?`): read with its value filled in.
          const text = statements.map((s) => s.sql.replace(/\s+/g, " ")).join("\n");
          assert(!/"__rn" <= [^?]/.test(text), text);
          return {
            answer: answer.data,
            sql: statements.map((s) => platform.formatQuery(s.sql, [...s.params]))
              .map((sql) => sql.replace(/\s+/g, " ")).join("\n"),
            text,
          };
        };
        const lean = await limits(
          `{ users(first: 2) { edges { node { posts(first: 3) { edges { node { id } } } } } } }`,
        );
        assert(/ limit \?/.test(lean.text) && /"__rn" <= 3 /.test(lean.sql), lean.sql);
        assertEquals(statements[0].params.at(-1), 2, "the root page reads 2 rows");
        const paged = await limits(
          `{ users(first: 2) { pageInfo { hasNextPage } edges { node {
            posts(last: 3) { pageInfo { hasPreviousPage } edges { cursor } } } } } }`,
        );
        assert(/"__rn" <= 4 /.test(paged.sql), paged.sql);
        assertEquals(statements[0].params.at(-1), 3, "the root page reads 3 rows");
        const users = (paged.answer as {
          users: {
            pageInfo: { hasNextPage: boolean };
            edges: { node: { posts: { pageInfo: unknown; edges: unknown[] } } }[];
          };
        }).users;
        assertEquals(users.pageInfo.hasNextPage, true);
        for (const { node } of users.edges) {
          assertEquals(node.posts.pageInfo, { hasPreviousPage: true });
          assertEquals(node.posts.edges.length, 3);
        }
      } finally {
        await server.close();
        await db.close();
      }
    },
  });
}
