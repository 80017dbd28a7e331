/**
 * docs/subscriptions.md's code blocks: the SDL block is what the workspace example's generator
 * wrote, the annotation is the example's own, and the two servers of the shell block (on a Redis
 * of the test's own) with the client script run: a mutation on the second server reaches the
 * script subscribed on the first.
 */
import { assert, assertEquals } from "@std/assert";
import { TextLineStream } from "@std/streams";
import { buildSchema, type GraphQLNamedType, isEnumType, isObjectType } from "graphql";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { createTestDatabase } from "../support/databases.ts";
import { startExample } from "../support/example_process.ts";
import { startRedis, TEST_JWT_SECRET, testToken } from "../support/subscribers.ts";

const root = new URL("../../", import.meta.url);
const page = await Deno.readTextFile(new URL("docs/subscriptions.md", root));
const blocks = [...page.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
  lang: m[1],
  code: m[2],
}));
const block = (lang: string, index = 0) => blocks.filter((b) => b.lang === lang)[index].code;

/** A type's shape: field -> type and arguments, or enum values. */
function shape(type: GraphQLNamedType | undefined | null): unknown {
  if (isEnumType(type)) return type.getValues().map((v) => v.name);
  if (!isObjectType(type)) return undefined;
  return Object.values(type.getFields()).map((f) => [
    f.name,
    String(f.type),
    f.args.map((a) => `${a.name}: ${a.type}`),
  ]);
}

Deno.test("docs/subscriptions.md: the SDL and the annotation are the workspace example's", async () => {
  const generated = buildSchema(
    await Deno.readTextFile(new URL("examples/workspace/generated/schema.graphql", root)),
  );
  const documented = buildSchema(`type Query { x: Int } input TaskWhereInput { x: Int }
    type Task { id: ID! } ${block("graphql")}`);
  for (const name of ["Subscription", "TaskChangeEvent", "ChangeOperation"]) {
    assertEquals(shape(documented.getType(name)), shape(generated.getType(name)), name);
  }
  const entity = await Deno.readTextFile(new URL("examples/workspace/entities/task.ts", root));
  // the block's annotation is the example's (the block is a module of its own: annotate's list)
  const annotation = block("ts").match(/entity: \[[^\]]*\]/)?.[0];
  assert(annotation && entity.includes(annotation), annotation);
});

Deno.test({
  name: "docs/subscriptions.md: two servers on one Redis, and the client script",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const redis = await startRedis();
    const db = await createTestDatabase("postgresql");
    // The shell block's environment, on the test's Redis, ports chosen by the system.
    const lines = block("sh").trim().split("\n");
    assertEquals(lines.length, 2);
    const env = (line: string) =>
      Object.fromEntries(
        [...line.matchAll(/(\w+)=(\S+)/g)].filter(([, k]) => k !== "PORT").map(([, k, v]) => [
          k,
          k === "REDIS_URL" ? redis.url : v,
        ]),
      );
    for (const line of lines) assert(line.endsWith("deno run -A examples/workspace/server.ts"));
    const secret = { JWT_SECRET: TEST_JWT_SECRET };
    const a = await startExample("workspace", db.url, { ...env(lines[0]), ...secret });
    const b = await startExample("workspace", db.url, { ...env(lines[1]), ...secret });
    // saved in examples/workspace/, as the page says (it imports ./auth.ts)
    const script = new URL(`examples/workspace/.docs_client_${crypto.randomUUID()}.ts`, root);
    await Deno.writeTextFile(script, block("ts", 1));
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", script.pathname],
      cwd: root.pathname,
      env: { GRAPHQL_WS_URL: a.url.replace(/^http/, "ws"), ONE_EVENT: "1", ...secret },
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    try {
      const printed = child.stdout.pipeThrough(new TextDecoderStream())
        .pipeThrough(new TextLineStream())[Symbol.asyncIterator]();
      const first = printed.next();
      const token = await testToken("ann");
      let line: IteratorResult<string> | undefined;
      for (let round = 0; !line; round++) {
        // Until the script listens, a mutation on the other server is sent again.
        await fetch(b.url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({
            // A change every round (the same value again would be no change, and no event).
            query:
              `mutation($id: ID!, $t: String!) { updateTask(id: $id, input: { title: $t, status: DONE }) { id } }`,
            variables: { id: encodeGlobalId("Task", 1), t: `docs ${round}` },
          }),
        }).then((r) => r.body?.cancel());
        line = await Promise.race([first, new Promise<undefined>((r) => setTimeout(r, 500))]);
        if (round > 240) throw new Error("the client script printed nothing");
      }
      const event = JSON.parse(line.value).taskChanged;
      assertEquals([event.operation, event.id, event.node.status], [
        "UPDATED",
        encodeGlobalId("Task", 1),
        "DONE",
      ]);
      assert(event.node.title.startsWith("docs "), event.node.title);
      assertEquals((await child.status).code, 0);
    } finally {
      try {
        child.kill();
      } catch { /* exited */ }
      await Deno.remove(script).catch(() => {});
      await a.stop();
      await b.stop();
      await redis.stop();
      await db.drop();
    }
  },
});
