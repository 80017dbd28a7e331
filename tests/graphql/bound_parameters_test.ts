/**
 * No value of a request is ever part of the SQL text the database receives: on PostgreSQL, every
 * statement the `pg` driver sends for queries with where values, cursors, global ids and page
 * sizes carries them as bound parameters (`$1`, ... with the values beside the text, the extended
 * protocol), recorded at the driver (`pg`'s `client.query(text, values)`), on the production
 * stack (`mikrogqlPreset`); so on SQLite, recorded at `node:sqlite`'s prepared statements (`?`
 * with bound values). MariaDB answers the same queries the same (mysql2 escapes the `?` values
 * it receives into the text it sends).
 */
import { assert, assertEquals } from "@std/assert";
import type { MikroORM } from "@mikro-orm/core";
import { mikrogqlPreset } from "@mikrogql/ext";
import { entities } from "../../examples/blog/entities.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { createSchema } from "../../examples/blog/generated/mod.ts";
import { dialects, openTestOrm } from "../support/databases.ts";
import { recordingOptions, type Sent } from "../support/sent_statements.ts";
import { startServer } from "../support/server.ts";

/** Distinctive values: none of them can appear in SQL text by chance. */
const NAME = "Zq'x\\ Ünïcode";
const TITLE_PREFIX = "Tp7741";
const VIEWS = 98_761;
const FIRST_USER = 730_001;

const SEED = [
  `insert into "user" (id, name, email, created_at) values
     (${FIRST_USER}, 'a ${NAME.replaceAll("'", "''")} 1', 'a@x', now()),
     (${FIRST_USER + 1}, 'b ${NAME.replaceAll("'", "''")} 2', 'b@x', now()),
     (${FIRST_USER + 2}, 'c ${NAME.replaceAll("'", "''")} 3', 'c@x', now()),
     (${FIRST_USER + 3}, 'other', 'd@x', now())`,
  `insert into post (id, title, body, status, views, author_id)
     select i, '${TITLE_PREFIX} ' || i, '', 'published', ${VIEWS} + i % 3,
       ${FIRST_USER} + i % 4 from generate_series(1, 40) i`,
];

async function seed(orm: MikroORM, dialect: string): Promise<void> {
  const connection = orm.em.getConnection();
  if (dialect === "postgresql") {
    for (const sql of SEED) await connection.execute(sql);
    return;
  }
  const em = orm.em.fork();
  for (let i = 0; i < 4; i++) {
    em.create(User, {
      id: FIRST_USER + i,
      name: i < 3 ? `${"abc"[i]} ${NAME} ${i + 1}` : "other",
      email: `${i}@x`,
      createdAt: new Date(),
    });
  }
  for (let i = 1; i <= 40; i++) {
    em.create(Post, {
      id: i,
      title: `${TITLE_PREFIX} ${i}`,
      body: "",
      status: "published",
      views: VIEWS + (i % 3),
      author: FIRST_USER + (i % 4),
    });
  }
  await em.flush();
}

const PAGE = `query Page($after: Cursor, $name: String!, $prefix: String!, $views: Int!) {
  users(first: 2, after: $after, where: { nameContains: $name }) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { node { id name posts(first: 3, where: { titleHasPrefix: $prefix, viewsGTE: $views },
      orderBy: { field: VIEWS, direction: DESC }) {
      totalCount edges { cursor node { title views } } } } }
  }
}`;

const NODES = `query Nodes($id: ID!, $ids: [ID!]!) {
  node(id: $id) { id ... on User { name } }
  nodes(ids: $ids) { id ... on User { name } }
}`;

type Page = {
  users: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string };
    edges: {
      node: {
        id: string;
        name: string;
        posts: { totalCount: number; edges: { cursor: string; node: { views: number } }[] };
      };
    }[];
  };
};

/**
 * The three requests of the test and what they answer.
 *
 * @param beforeNodes called before the `node`/`nodes` request
 */
async function run(orm: MikroORM, beforeNodes: () => void = () => {}) {
  const server = startServer(orm, createSchema(), [], mikrogqlPreset({ txOpener: orm }));
  try {
    const variables = { name: NAME, prefix: TITLE_PREFIX, views: VIEWS + 1 };
    const first = await server.query<Page>(PAGE, variables);
    assertEquals(first.errors, undefined);
    const after = first.data!.users.pageInfo.endCursor;
    const second = await server.query<Page>(PAGE, { ...variables, after });
    assertEquals(second.errors, undefined);
    const [a, b] = first.data!.users.edges.map((e) => e.node.id);
    const c = second.data!.users.edges[0].node.id;
    beforeNodes();
    const nodes = await server.query<{ node: { name: string }; nodes: { name: string }[] }>(
      NODES,
      { id: c, ids: [a, b] },
    );
    assertEquals(nodes.errors, undefined);
    return { first: first.data!, second: second.data!, nodes: nodes.data!, ids: [a, b, c] };
  } finally {
    await server.close();
  }
}

function assertAnswers(result: Awaited<ReturnType<typeof run>>): void {
  assertEquals(result.first.users.totalCount, 3);
  assertEquals(result.first.users.edges.map((e) => e.node.name), [
    `a ${NAME} 1`,
    `b ${NAME} 2`,
  ]);
  assertEquals(result.second.users.edges.map((e) => e.node.name), [`c ${NAME} 3`]);
  for (const { node } of result.first.users.edges) {
    assert(node.posts.edges.length > 0 && node.posts.edges.length <= 3);
    assert(node.posts.edges.every((e) => e.node.views >= VIEWS + 1));
  }
  assertEquals(result.nodes.node.name, `c ${NAME} 3`);
  assertEquals(result.nodes.nodes.map((n) => n.name), [`a ${NAME} 1`, `b ${NAME} 2`]);
}

if (dialects(["postgresql"]).length > 0) {
  Deno.test({
    name: "every statement carries the request's values as bound parameters (postgresql)",
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const sent: Sent[] = [];
      const db = await openTestOrm(
        "postgresql",
        entities,
        recordingOptions("postgresql", sent) as never,
      );
      try {
        await seed(db.orm, "postgresql");
        sent.length = 0;
        let nodesFrom = 0;
        assertAnswers(await run(db.orm, () => nodesFrom = sent.length));
        const reads = sent.filter((s) => /^\s*select\b/i.test(s.text));
        const nodeReads = sent.slice(nodesFrom);
        assert(reads.length >= 7, reads.map((s) => s.text).join("\n"));
        // The cursor of the first page's last user is its key: the second page's keyset has it.
        const cursorKey = FIRST_USER + 1;
        const texts = reads.map((s) => s.text).join("\n");
        const values = reads.flatMap((s) => s.values);
        for (const value of [NAME, TITLE_PREFIX, String(VIEWS + 1), String(cursorKey)]) {
          assert(!texts.includes(value), `${value} in SQL text:\n${texts}`);
        }
        // Page sizes and keyset/row limits are parameters too: no number follows these.
        assert(!/\blimit \d|"__rn" <= \d/i.test(texts), texts);
        // Every value is a parameter: where values (contains, prefix, a number), the cursor's
        // key, the global ids' keys, the page sizes.
        const has = (test: (v: unknown) => boolean, what: string) =>
          assert(values.some(test), `${what} not among the parameters: ${JSON.stringify(values)}`);
        has((v) => typeof v === "string" && v.includes(NAME), "the name");
        has((v) => typeof v === "string" && v.startsWith(TITLE_PREFIX), "the title prefix");
        has((v) => v === VIEWS + 1, "the views");
        has((v) => v === cursorKey, "the cursor's key");
        for (const id of [FIRST_USER, FIRST_USER + 1, FIRST_USER + 2]) {
          assert(
            nodeReads.some((s) => s.values.includes(id)),
            `the key ${id} of a global id is not a parameter of node/nodes`,
          );
        }
        has((v) => v === 3 || v === 4, "the nested page size");
        // Every statement with a placeholder was sent with its values ($n numbered from 1).
        for (const s of reads) {
          const numbers = [...s.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
          assertEquals(
            numbers.length === 0 ? 0 : Math.max(...numbers),
            s.values.length,
            s.text,
          );
          assert(!/\?/.test(s.text), s.text);
        }
      } finally {
        await db.close();
      }
    },
  });
}

if (dialects(["sqlite"]).length > 0) {
  Deno.test({
    name: "every statement carries the request's values as bound parameters (sqlite)",
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const sent: Sent[] = [];
      const db = await openTestOrm("sqlite", entities, recordingOptions("sqlite", sent) as never);
      try {
        await seed(db.orm, "sqlite");
        sent.length = 0;
        assertAnswers(await run(db.orm));
        const reads = sent.filter((s) => /^\s*select\b/i.test(s.text));
        assert(reads.length >= 7, reads.map((s) => s.text).join("\n"));
        const texts = reads.map((s) => s.text).join("\n");
        for (const value of [NAME, TITLE_PREFIX, String(VIEWS + 1), String(FIRST_USER + 1)]) {
          assert(!texts.includes(value), `${value} in SQL text:\n${texts}`);
        }
        assert(!/\blimit \d|"__rn" <= \d/i.test(texts), texts);
        const values = reads.flatMap((s) => s.values);
        assert(values.some((v) => typeof v === "string" && v.includes(NAME)), "the name");
        assert(values.includes(VIEWS + 1), "the views");
        assert(values.includes(FIRST_USER + 1), "the cursor's key");
        for (const s of reads) {
          assertEquals(s.text.split("?").length - 1, s.values.length, s.text);
        }
      } finally {
        await db.close();
      }
    },
  });
}

// MariaDB: the values go to mysql2 as `query(sql, values)` (Kysely's MySQL dialect), which
// escapes them into the text it sends; the answers are the same as on the others.
if (dialects(["mariadb"]).length > 0) {
  Deno.test({
    name: "queries with where values, cursors and ids answer with bound parameters (mariadb)",
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      const db = await openTestOrm("mariadb", entities);
      try {
        await seed(db.orm, "mariadb");
        assertAnswers(await run(db.orm));
      } finally {
        await db.close();
      }
    },
  });
}
