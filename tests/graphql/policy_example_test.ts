/**
 * README's policy example holds against the blog example: the block itself (written as a module
 * of a project whose entities and generated API are the blog's, then imported) builds the schema
 * served here on SQLite with the blog's seed, the viewer being the `x-viewer` header's user id.
 * Anonymous requests read published posts only; a viewer reads those and their own; a user's
 * email only by that user; the author updates their post but cannot hand it to someone else
 * (the rule checks `after`), nor can anyone else update it; a post is created only in the
 * viewer's name. After each refusal the database holds what it held before.
 */
import { assertEquals } from "@std/assert";
import { fromFileUrl, join, toFileUrl } from "@std/path";
import type { GraphQLSchema } from "graphql";
import { Post } from "../../examples/blog/entities/post.ts";
import { User } from "../../examples/blog/entities/user.ts";
import { entities } from "../../examples/blog/entities.ts";
import { seed } from "../../examples/blog/seed.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { openTestOrm } from "../support/databases.ts";
import { docBlocks, writeBlockProject } from "../support/doc_blocks.ts";
import { startServer } from "../support/server.ts";

const ROOT = fromFileUrl(new URL("../../", import.meta.url));

type Answer = {
  data?: Record<string, unknown> | null;
  errors?: { extensions?: { code?: string } }[];
};

/** The schema README's policy example builds, from the block as written. */
async function exampleSchema(dir: string): Promise<GraphQLSchema> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const start = readme.indexOf("<!-- policy-example -->");
  const block = docBlocks(readme.slice(start)).find((b) => b.lang === "ts")!;
  const path = await writeBlockProject(dir, {
    ...block,
    text: `${block.text}\nexport { schema };\n`,
  });
  return (await import(toFileUrl(path).href)).schema;
}

Deno.test({
  name:
    "README's policy example on the blog example: reads filtered, writes judged before and after",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "mikrogql_policy_example_" });
    const db = await openTestOrm("sqlite", entities);
    try {
      await seed(db.orm.em.fork());
      const schema = await exampleSchema(dir);
      const server = startServer(db.orm, schema, [], {
        context: ({ request }: { request: Request }) => {
          const header = request.headers.get("x-viewer");
          return { em: db.orm.em.fork(), viewer: header ? { id: Number(header) } : undefined };
        },
      } as never);
      const ask = async (viewer: number | undefined, query: string): Promise<Answer> => {
        const response = await fetch(server.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(viewer === undefined ? {} : { "x-viewer": String(viewer) }),
          },
          body: JSON.stringify({ query }),
        });
        return await response.json();
      };
      const codes = (a: Answer) => (a.errors ?? []).map((e) => e.extensions?.code);
      const fresh = () => db.orm.em.fork();
      const titles = (a: Answer) =>
        (a.data!.posts as { edges: { node: { title: string } }[] }).edges.map((e) => e.node.title);
      try {
        const all = await fresh().find(Post, {}, { orderBy: { id: "asc" } });
        const published = all.filter((p) => p.status === "published");
        const reader = all.find((p) => p.status !== "published")!.author.id;
        // a published post: still readable by its author once handed over, so only the write
        // rule's check of `after` refuses it
        const own = published[0];
        const author = own.author.id;
        const other = (await fresh().find(User, { id: { $ne: author } }))[0].id;
        const query = `{ posts(first: 1000) { edges { node { title } } } }`;
        // reads: anonymous -> published; a viewer -> published or their own
        assertEquals(titles(await ask(undefined, query)), published.map((p) => p.title));
        assertEquals(
          titles(await ask(reader, query)),
          all.filter((p) => p.status === "published" || p.author.id === reader).map((p) => p.title),
        );
        // field rule: a user's email only by that user
        const emails = await ask(reader, `{ users { edges { node { id email } } } }`);
        const users = emails.data!.users as { edges: { node: { id: string; email: string } }[] };
        for (const { node } of users.edges) {
          assertEquals(node.email !== null, node.id === encodeGlobalId("User", reader));
        }
        // update: the author may change the title, not hand the post to someone else
        const id = encodeGlobalId("Post", own.id);
        const retitled = await ask(
          author,
          `mutation { updatePost(id: "${id}", input: { title: "Retitled" }) { title } }`,
        );
        assertEquals(codes(retitled), []);
        const handed = await ask(
          author,
          `mutation { updatePost(id: "${id}", input: { authorID: "${
            encodeGlobalId("User", other)
          }" }) { id } }`,
        );
        assertEquals(codes(handed), ["FORBIDDEN"]);
        // someone else, who reads it, may not update it
        const taken = await ask(
          other,
          `mutation { updatePost(id: "${id}", input: { title: "Mine" }) { id } }`,
        );
        assertEquals(codes(taken), ["FORBIDDEN"]);
        const after = await fresh().findOneOrFail(Post, own.id);
        assertEquals([after.title, after.author.id], ["Retitled", author]);
        // create: only in the viewer's own name
        const count = await fresh().count(Post);
        const forged = await ask(
          author,
          `mutation { createPost(input: { title: "Forged", body: "", authorID: "${
            encodeGlobalId("User", other)
          }" }) { id } }`,
        );
        assertEquals(codes(forged), ["FORBIDDEN"]);
        assertEquals(await fresh().count(Post), count);
      } finally {
        await server.close();
      }
    } finally {
      await db.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
