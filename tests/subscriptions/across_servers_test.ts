/**
 * Subscriptions across two server processes of the workspace example sharing a PostgreSQL
 * database and a Redis of the test's own (`REDIS_URL`, a unique channel prefix): real
 * `graphql-ws` (WebSocket) and `graphql-sse` (SSE) clients. A mutation on one server reaches
 * subscribers on the other; after every commit of random mutations (printed seed;
 * `SUBSCRIPTION_MUTATIONS` more), what each subscriber holds from its events equals what a
 * query of its viewer returns (ann, OWNER: confidential tasks too; cat, VIEWER: not those unless
 * assigned); cat never receives a change of a task it may not read; a rolled-back operation
 * publishes nothing; auth on connect and limits.
 */
import { assert, assertEquals } from "@std/assert";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { createTestDatabase } from "../support/databases.ts";
import { startExample } from "../support/example_process.ts";
import { random } from "../support/random_data.ts";
import {
  startRedis,
  type Subscriber,
  subscribeSse,
  subscribeWs,
  TEST_JWT_SECRET,
  testToken,
} from "../support/subscribers.ts";

type Answer = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
};
type Task = { id: string; title: string; status: string; confidential: boolean };

const FEED = `subscription { taskChanged { operation id node { id title status confidential } } }`;
const SEED = Number(Deno.env.get("SUBSCRIPTION_SEED") ?? 37);
const MUTATIONS = Number(Deno.env.get("SUBSCRIPTION_MUTATIONS") ?? 24);

async function post(url: string, token: string, query: string, variables = {}): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return await response.json();
}

/** The tasks `token`'s viewer reads now, by id. */
async function visibleTasks(url: string, token: string): Promise<Map<string, Task>> {
  const answer = await post(
    url,
    token,
    `{ tasks(first: 1000) { edges { node { id title status confidential } } } }`,
  );
  const edges = (answer.data!.tasks as { edges: { node: Task }[] }).edges;
  return new Map(edges.map((e) => [e.node.id, e.node]));
}

/** A subscriber's view rebuilt from its events over `start`. */
function replay(start: Map<string, Task>, subscriber: Subscriber): Map<string, Task> {
  const view = new Map(start);
  for (const event of subscriber.events("taskChanged")) {
    if (event.operation === "DELETED") view.delete(event.id);
    else view.set(event.id, event.node as unknown as Task);
  }
  return view;
}

const sorted = (m: Map<string, Task>) => [...m.values()].sort((a, b) => a.id.localeCompare(b.id));

Deno.test({
  name: "subscriptions across two servers sharing Redis: oracle, viewer, rollback, auth, limits",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    console.log(`seed ${SEED}, ${MUTATIONS} mutations (SUBSCRIPTION_SEED, SUBSCRIPTION_MUTATIONS)`);
    const redis = await startRedis();
    const db = await createTestDatabase("postgresql");
    const env = {
      REDIS_URL: redis.url,
      REDIS_PREFIX: `h37:${crypto.randomUUID()}:`,
      JWT_SECRET: TEST_JWT_SECRET,
    };
    const a = await startExample("workspace", db.url, env);
    const b = await startExample("workspace", db.url, env);
    const subscribers: Subscriber[] = [];
    try {
      const ann = await testToken("ann");
      const cat = await testToken("cat");
      const annOnA = subscribeWs(a.url, FEED, `Bearer ${ann}`);
      const catOnA = subscribeSse(a.url, FEED, `Bearer ${cat}`);
      const annOnB = subscribeSse(b.url, FEED, `Bearer ${ann}`);
      const catOnB = subscribeWs(b.url, FEED, `Bearer ${cat}`);
      subscribers.push(annOnA, catOnA, annOnB, catOnB);
      const all = [annOnA, catOnA, annOnB, catOnB];

      // Until each subscription listens (on both servers, and on Redis), a sentinel update of a
      // task everybody reads (4, "Press release") is sent again; then the views start.
      const sentinel = encodeGlobalId("Task", 4);
      let round = 0;
      const touch = async (url: string) => {
        round++;
        const answer = await post(
          url,
          ann,
          `mutation($id: ID!, $t: String!) { updateTask(id: $id, input: { title: $t }) { id } }`,
          { id: sentinel, t: `sentinel ${round}` },
        );
        assertEquals(answer.errors, undefined);
        return `sentinel ${round}`;
      };
      const saw = (s: Subscriber, title: string) =>
        s.events("taskChanged").some((e) => e.node?.title === title);
      const sawSentinel = (s: Subscriber) =>
        s.events("taskChanged").some((e) => String(e.node?.title).startsWith("sentinel "));
      // Any sentinel reaching a subscription shows that it listens (on a loaded machine one may
      // take longer to arrive than the half second a round waits)...
      for (let warm = 0;; warm++) {
        await touch(warm % 2 ? a.url : b.url);
        try {
          await Promise.all(
            all.map((s) => s.until(() => sawSentinel(s), 500)),
          );
          break;
        } catch (error) {
          const ended = all.find((s) => s.ended !== undefined);
          if (ended) throw new Error(`a subscription ended: ${Deno.inspect(ended.ended)}`);
          if (warm > 60) {
            const counts = all.map((s) => `${s.received.length} results`).join(", ");
            throw new Error(`${error} (${counts})`);
          }
        }
      }
      // ...then one more reaches every subscription: each has seen every sentinel before it
      const last = await touch(a.url);
      await Promise.all(all.map((s) => s.until(() => saw(s, last))));
      const annStart = await visibleTasks(a.url, ann);
      const catStart = await visibleTasks(a.url, cat);
      const seen = all.map((s) => s.received.length);
      for (const [i, s] of all.entries()) s.received.splice(0, seen[i]);

      const rng = random(SEED);
      const pick = <T>(list: readonly T[]) => list[Math.floor(rng() * list.length)];
      const created: string[] = [];
      const everVisibleToCat = new Set(catStart.keys());
      for (let i = 0; i < MUTATIONS; i++) {
        const server = pick([a, b]);
        const kind = created.length === 0
          ? "create"
          : pick(["create", "update", "update", "delete"]);
        let answer: Answer;
        if (kind === "create") {
          answer = await post(
            server.url,
            ann,
            `mutation($in: CreateTaskInput!) { createTask(input: $in) { id } }`,
            {
              in: {
                title: `task ${i}`,
                projectID: encodeGlobalId("Project", pick([1, 2])),
                confidential: rng() < 0.5,
                ...(rng() < 0.5 ? { assigneeID: encodeGlobalId("User", pick([2, 3])) } : {}),
              },
            },
          );
          if (answer.data?.createTask) {
            created.push((answer.data.createTask as { id: string }).id);
          }
        } else if (kind === "update") {
          answer = await post(
            server.url,
            ann,
            `mutation($id: ID!, $in: UpdateTaskInput!) { updateTask(id: $id, input: $in) { id } }`,
            {
              id: pick(created),
              in: {
                title: `task ${i} (edited)`,
                status: pick(["TODO", "DOING", "DONE"]),
                confidential: rng() < 0.5,
              },
            },
          );
        } else {
          const id = pick(created);
          created.splice(created.indexOf(id), 1);
          answer = await post(server.url, ann, `mutation($id: ID!) { deleteTask(id: $id) }`, {
            id,
          });
        }
        assertEquals(answer.errors, undefined, `${kind}: ${JSON.stringify(answer.errors)}`);
        const title = await touch(server.url);
        await Promise.all(all.map((s) => s.until(() => saw(s, title))));
        const annNow = await visibleTasks(a.url, ann);
        const catNow = await visibleTasks(b.url, cat);
        for (const id of catNow.keys()) everVisibleToCat.add(id);
        for (const s of [annOnA, annOnB]) {
          assertEquals(sorted(replay(annStart, s)), sorted(annNow), `ann after ${kind} ${i}`);
        }
        for (const s of [catOnA, catOnB]) {
          assertEquals(sorted(replay(catStart, s)), sorted(catNow), `cat after ${kind} ${i}`);
        }
      }
      // cat never received a task it could not read: every id of its CREATED/UPDATED events was
      // in one of its queries' answers.
      for (const s of [catOnA, catOnB]) {
        for (const event of s.events("taskChanged")) {
          if (event.operation !== "DELETED") assert(everVisibleToCat.has(event.id), event.id);
        }
      }

      // A rolled-back operation (its second field fails) publishes nothing.
      const before = all.map((s) => s.received.length);
      const rolledBack = await post(
        a.url,
        ann,
        `mutation($id: ID!, $gone: ID!) {
          first: updateTask(id: $id, input: { title: "rolled back" }) { id }
          second: updateTask(id: $gone, input: { title: "nope" }) { id }
        }`,
        { id: sentinel, gone: encodeGlobalId("Task", 999_999) },
      );
      assertEquals(rolledBack.data, null);
      const title = await touch(a.url);
      await Promise.all(all.map((s) => s.until(() => saw(s, title))));
      for (const [i, s] of all.entries()) {
        const after = s.events("taskChanged").slice(
          s.events("taskChanged").length - (s.received.length - before[i]),
        );
        assertEquals(after.map((e) => e.node?.title), [title]);
      }

      // Auth on connect: a bad token closes the socket (4403); no event reaches it.
      const forged = subscribeWs(a.url, FEED, "Bearer not.a.token");
      subscribers.push(forged);
      await forged.until(() => forged.ended !== undefined);
      assertEquals((forged.ended as { code?: number }).code, 4403);
    } finally {
      for (const s of subscribers) s.stop();
      await a.stop();
      await b.stop();
      await redis.stop();
      await db.drop();
    }
  },
});
