/**
 * The blog example server as a real process on a PostgreSQL database of its own
 * (`DATABASE_URL`): SIGKILLed under mutation load by 8 clients, then started again on the same
 * database. Every acknowledged `createPost` is stored, nothing else is stored but requests that
 * were in flight at the kill, and the restart keeps the data (no schema refresh, no second seed).
 */
import { assert, assertEquals } from "@std/assert";
import { TextLineStream } from "@std/streams/text-line-stream";
import { globalIdOf } from "../../mod.ts";
import { graph } from "../../examples/blog/generated/mod.ts";
import { entities } from "../../examples/blog/entities.ts";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { openOrm } from "../../server/open_orm.ts";
import { createTestDatabase, dialects } from "../support/databases.ts";

interface Running {
  url: string;
  /** What the server printed on start. */
  banner: string;
  child: Deno.ChildProcess;
}

/** Starts `examples/blog/server.ts` on `databaseUrl` and a free port. */
async function startExample(databaseUrl: string): Promise<Running> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../examples/blog/server.ts", import.meta.url).pathname],
    env: { DATABASE_URL: databaseUrl, PORT: "0" },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(new TextLineStream());
  for await (const line of lines) {
    const match = line.match(/^(.*); GraphiQL at (http:\/\/127\.0\.0\.1:\d+\/graphql)$/);
    if (match) {
      lines.pipeTo(new WritableStream()).catch(() => {});
      return { url: match[2], banner: match[1], child };
    }
  }
  throw new Error("the example server exited before listening");
}

async function createPost(url: string, title: string, authorID: string): Promise<boolean> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      query: `mutation ($t: String!, $a: ID!) {
        createPost(input: { title: $t, body: "b", authorID: $a }) { id }
      }`,
      variables: { t: title, a: authorID },
    }),
  });
  const body = await response.json();
  return !body.errors && !!body.data?.createPost?.id;
}

if (dialects(["postgresql"]).length > 0) {
  Deno.test("SIGKILL under mutation load, restart: no acknowledged write lost, data kept", async () => {
    const db = await createTestDatabase("postgresql");
    const admin = { orm: undefined as Awaited<ReturnType<typeof openOrm>> | undefined };
    let server = await startExample(db.url);
    try {
      assertEquals(server.banner, "seeded");
      admin.orm = await openOrm({ entities, url: db.url });
      const seededPosts = await admin.orm.em.fork().count(Post);
      const users = await admin.orm.em.fork().count(User);
      const authorID = globalIdOf(graph, graph.types.User, 1);
      const acknowledged = new Set<string>();
      const inFlight = new Set<string>();
      let killed = false;
      const clients = Array.from({ length: 8 }, async (_, c) => {
        for (let i = 0; !killed; i++) {
          const title = `load ${c} ${i}`;
          inFlight.add(title);
          try {
            if (await createPost(server.url, title, authorID)) acknowledged.add(title);
            inFlight.delete(title);
          } catch {
            return; // the server is gone: this one stays in flight
          }
        }
      });
      while (acknowledged.size < 150) await new Promise((r) => setTimeout(r, 5));
      server.child.kill("SIGKILL");
      killed = true;
      await server.child.status;
      await Promise.all(clients);

      server = await startExample(db.url);
      assertEquals(server.banner, "kept the existing rows");
      const stored = new Set(
        (await admin.orm.em.fork().find(Post, { title: { $like: "load %" } })).map((p) => p.title),
      );
      for (const title of acknowledged) assert(stored.has(title), `acknowledged ${title} lost`);
      for (const title of stored) {
        assert(acknowledged.has(title) || inFlight.has(title), `${title} was never sent`);
      }
      assertEquals(await admin.orm.em.fork().count(User), users, "not seeded again");
      assertEquals(
        await admin.orm.em.fork().count(Post, { $not: { title: { $like: "load %" } } }),
        seededPosts,
      );
      assert(await createPost(server.url, "after restart", authorID));
    } finally {
      server.child.kill("SIGKILL");
      await server.child.status;
      await admin.orm?.close(true);
      await db.drop();
    }
  });
}

Deno.test("the blog example on embedded SQLite (README's `deno task example`) answers queries and mutations", async () => {
  const example = await startExample("sqlite::memory:");
  try {
    const post = async (query: string, variables?: Record<string, unknown>) => {
      const response = await fetch(example.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, variables }),
      });
      return await response.json();
    };
    const read = await post(`{ users(first: 2, orderBy: { field: NAME, direction: DESC }) {
      totalCount edges { node { id name posts(first: 2) { edges { node { title author { name } } } } } }
    } }`);
    assertEquals(read.errors, undefined);
    const users = read.data.users.edges.map((e: { node: { id: string } }) => e.node);
    assertEquals(users.length, 2);
    assert(await createPost(example.url, "from the test", users[0].id), "createPost succeeds");
  } finally {
    example.child.kill("SIGTERM");
    await example.child.status;
  }
});
