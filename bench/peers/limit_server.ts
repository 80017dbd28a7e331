/**
 * The limit of the peer benchmark: a hand-written server that answers the requests of
 * `bench/peers/queries.ts` (the floor and Q1–Q5, and bench:growth's Q1 at 1, 10 and 100 nodes per
 * level, in our schema's names and id formats) with no
 * GraphQL at all: `Deno.serve`, the request body parsed as JSON, its `query` text looked up in a
 * table, one named (prepared) `pg` statement per request whose `data` JSON — global ids,
 * cursors, `pageInfo`, `totalCount` — PostgreSQL builds, sent back as the statement returned it.
 * What a GraphQL server spends beyond this is the machinery of a GraphQL request.
 *
 * `deno run -A bench/peers/limit_server.ts <database url>`: listens on 127.0.0.1 (a free port,
 * printed as `listening <port>`); `GET /stats` answers `{ requests, statements, rss }` as
 * `bench/graphql_server.ts` does. Any other document is answered 400. bench:peers checks once, at
 * start, that its answers equal our server's.
 *
 * @module
 */
import pg from "pg";
import { GROWTH, OURS, QUERIES } from "./queries.ts";

const [url] = Deno.args;
if (!url) {
  console.error("usage: limit_server.ts <database url>");
  Deno.exit(2);
}

/** `$1` as base64url of `type:id` (our global id), in SQL. */
const gid = (type: string, id: string) =>
  `rtrim(translate(encode(convert_to('${type}:' || ${id}, 'UTF8'), 'base64'), E'+/\\n', '-_'), '=')`;
/** Our cursor of a row ordered by id, `[id,[],"","Type"]` as base64url, in SQL. */
const cursor = (type: string, id: string) =>
  `rtrim(translate(encode(convert_to('[' || ${id} || ',[],"","${type}"]', 'UTF8'), 'base64'), E'+/\\n', '-_'), '=')`;
/** Our `Time` scalar: ISO 8601 in UTC with milliseconds. */
const time = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Q1/Q2's tree of `first` nodes per level; `count` adds `totalCount` at every level. */
const tree = (count: boolean, first = 10) => {
  const total = (sql: string) => count ? `'totalCount', (${sql}), ` : "";
  const comments = `select json_build_object(${
    total(`select count(*) from comment c where c.post_id = p.id`)
  }'edges', coalesce(json_agg(json_build_object('node', json_build_object('id', ${
    gid("Comment", "c.id")
  }, 'text', c.text)) order by c.id), '[]'))
    from (select id, text from comment c where c.post_id = p.id order by id limit ${first}) c`;
  const posts = `select json_build_object(${
    total(`select count(*) from post p where p.author_id = u.id`)
  }'edges', coalesce(json_agg(json_build_object('node', json_build_object('id', ${
    gid("Post", "p.id")
  }, 'title', p.title, 'comments', (${comments}))) order by p.id), '[]'))
    from (select id, title from post p where p.author_id = u.id order by id limit ${first}) p`;
  return `select json_build_object('data', json_build_object('users', json_build_object(${
    total(`select count(*) from "user"`)
  }'edges', coalesce(json_agg(json_build_object('node', json_build_object('id', ${
    gid("User", "u.id")
  }, 'name', u.name, 'posts', (${posts}))) order by u.id), '[]'))))::text
    from (select id, name from "user" order by id limit ${first}) u`;
};

/** A users page of `first` after key `$1` (0: from the start), with `pageInfo`. */
const usersPage = (first: number, fields: string, extra: string) =>
  `select json_build_object('data', json_build_object('users', json_build_object(${extra}
    'pageInfo', json_build_object('hasNextPage', count(*) > ${first},
      'endCursor', (array_agg(${cursor("User", "u.id")} order by u.id))[least(count(*), ${first})]),
    'edges', coalesce(json_agg(json_build_object('cursor', ${
    cursor("User", "u.id")
  }, 'node', json_build_object(${fields})) order by u.id) filter (where u.n <= ${first}), '[]'))))::text
    from (select *, row_number() over (order by id) n from "user" where id > $1 order by id limit ${
    first + 1
  }) u`;

const SQL: Record<string, string> = {
  Q1: tree(false),
  Q2: tree(true),
  Q3: usersPage(
    50,
    `'id', ${gid("User", "u.id")}, 'name', u.name, 'email', u.email, 'createdAt', ${
      time("u.created_at")
    }`,
    `'totalCount', (select count(*) from "user"),`,
  ),
  Q4: usersPage(10, `'id', ${gid("User", "u.id")}, 'name', u.name`, ""),
  Q5: `select json_build_object('data', json_build_object('node', (
      select json_build_object('id', ${gid("Post", "p.id")}, 'title', p.title,
        'comments', json_build_object('edges', coalesce((
          select json_agg(json_build_object('node', json_build_object('id', ${
    gid("Comment", "c.id")
  }, 'text', c.text)) order by c.id)
          from (select id, text from comment c where c.post_id = p.id order by id limit 10) c), '[]')))
      from post p where p.id = $1)))::text`,
  ...Object.fromEntries(GROWTH.filter((q) => q.first).map((q) => [q.name, tree(false, q.first)])),
};

/** Decodes base64url text (a global id or a cursor); `undefined` when malformed. */
function fromBase64Url(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    return atob(value.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return undefined;
  }
}

/** The statement's parameters from the request's variables; `undefined` when they are bad. */
const PARAMETERS: Record<string, (variables: Record<string, unknown>) => unknown[] | undefined> = {
  ...Object.fromEntries(GROWTH.filter((q) => q.first).map((q) => [q.name, () => []])),
  Q1: () => [],
  Q2: () => [],
  Q3: () => [0],
  Q4: (variables) => {
    if (variables.after == null) return [0];
    const text = fromBase64Url(variables.after);
    const id = text?.startsWith("[") ? Number.parseInt(text.slice(1)) : NaN;
    return Number.isSafeInteger(id) ? [id] : undefined;
  },
  Q5: (variables) => {
    const text = fromBase64Url(variables.id);
    const id = text?.startsWith("Post:") ? Number(text.slice(5)) : NaN;
    return Number.isSafeInteger(id) ? [id] : undefined;
  },
};

const pool = new pg.Pool({ connectionString: url, min: 2, max: 10 });
// bench:growth's Q4 pages share Q4's text (their cursors differ): the first name of a text wins.
const byText = new Map(
  [...QUERIES, ...GROWTH].reverse().map((query) => [query.text(OURS), query.name]),
);
const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };
let requests = 0;
let statements = 0;

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
  if (req.url.endsWith("/stats")) {
    return Response.json({ requests, statements, rss: Deno.memoryUsage().rss });
  }
  requests++;
  let body: { query?: unknown; variables?: Record<string, unknown> | null };
  try {
    body = await req.json();
  } catch {
    return new Response('{"errors":[{"message":"bad JSON"}]}', { status: 400 });
  }
  const name = typeof body.query === "string" ? byText.get(body.query) : undefined;
  if (name === "floor") {
    return new Response('{"data":{"__typename":"Query"}}', { headers: JSON_HEADERS });
  }
  const values = name ? PARAMETERS[name](body.variables ?? {}) : undefined;
  if (!name || !values) {
    return new Response('{"errors":[{"message":"not one of the benchmark\'s requests"}]}', {
      status: 400,
      headers: JSON_HEADERS,
    });
  }
  statements++;
  try {
    const result = await pool.query({ name, text: SQL[name], values, rowMode: "array" });
    return new Response(result.rows[0][0] as string, { headers: JSON_HEADERS });
  } catch (error) {
    // A database fault (no free connection on a shared server, ...): answered, not a crash.
    console.error(`limit server: ${(error as Error).message}`);
    return new Response('{"errors":[{"message":"database unavailable"}]}', {
      status: 503,
      headers: JSON_HEADERS,
    });
  }
});
console.log(`listening ${server.addr.port}`);
