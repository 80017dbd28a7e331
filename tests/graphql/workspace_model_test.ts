/**
 * The workspace's rules against a reference model: seeded random sequences of every generated
 * mutation (create, update and delete of memberships, projects, tasks and comments) by random
 * viewers (ann OWNER, bob EDITOR, cat VIEWER of Acme, dan OWNER of Globex, eve in no
 * organization, anonymous; roles change as the sequence grants and revokes them), with random
 * inputs: self-references (a membership for oneself, a comment in another's name), ids of hidden
 * and deleted rows, fields the viewer may not set (`confidential`, a membership's user). Each
 * answer (the write, `NOT_FOUND`, `FORBIDDEN`, `BAD_USER_INPUT`) is compared with
 * `tests/support/workspace_model.ts`, a plain TypeScript model of the rules over an in-memory
 * copy of the tables, and after the sequence every table with the model's copy. SQLite,
 * PostgreSQL (row-level security on: `examples/workspace/rls.ts`), MariaDB.
 *
 * CI runs the fixed seeds below; `MODEL_SEED=<n>` replays one, `MODEL_MUTATIONS` sets the length
 * (`deno task test:model` runs 2,000 per database on a random seed, `MODEL_RANDOM=1`). Every run
 * prints its seed; a failing seed becomes a fixed case.
 */
import { assertEquals } from "@std/assert";
import type { EntityManager } from "@mikro-orm/core";
import { Comment } from "../../examples/workspace/entities/comment.ts";
import { Membership } from "../../examples/workspace/entities/membership.ts";
import { Organization } from "../../examples/workspace/entities/organization.ts";
import { Project } from "../../examples/workspace/entities/project.ts";
import { Task } from "../../examples/workspace/entities/task.ts";
import { User } from "../../examples/workspace/entities/user.ts";
import { workspaceSchema } from "../../examples/workspace/schema.ts";
import { encodeGlobalId } from "../../runtime/plan/global_id.ts";
import { dialects } from "../support/databases.ts";
import { random } from "../support/random_data.ts";
import { startServer } from "../support/server.ts";
import { openWorkspaceDatabase } from "../support/workspace_database.ts";
import {
  type Mutation,
  type Ref,
  type Tables,
  WorkspaceModel,
} from "../support/workspace_model.ts";

/** CI's fixed seeds (each a sequence of `MUTATIONS` mutations). */
const SEEDS = [1, 2];
const MUTATIONS = Number(Deno.env.get("MODEL_MUTATIONS") ?? 120);
/** One seed to run instead: `MODEL_SEED`, or a random one with `MODEL_RANDOM=1` (printed). */
const SEED = Deno.env.get("MODEL_SEED") ??
  (Deno.env.get("MODEL_RANDOM") ? String(Math.floor(Math.random() * 2 ** 31)) : undefined);

/** The viewers, members more often than outsiders. */
const VIEWERS = ["ann", "ann", "bob", "bob", "cat", "cat", "dan", "dan", "eve", undefined];
const ROLES = ["OWNER", "EDITOR", "VIEWER"];
const STATUSES = ["TODO", "DOING", "DONE"];

/** The tables as the database holds them (no rule: the test's own EntityManager). */
async function tablesOf(em: EntityManager): Promise<Tables> {
  const all = async <T>(entity: unknown) =>
    await em.find(entity as never, {}, { orderBy: { id: "asc" } as never }) as T[];
  type R = Record<string, unknown>;
  const id = (ref: unknown) =>
    ref === null || ref === undefined ? null : (ref as { id: number }).id;
  return {
    user: (await all<R>(User)).map((u) => ({ id: u.id as number, username: u.username as string })),
    organization: (await all<R>(Organization)).map((o) => ({ id: o.id as number })),
    membership: (await all<R>(Membership)).map((m) => ({
      id: m.id as number,
      organization: id(m.organization)!,
      user: id(m.user)!,
      role: m.role as "OWNER",
    })),
    project: (await all<R>(Project)).map((p) => ({
      id: p.id as number,
      organization: id(p.organization)!,
      name: p.name as string,
    })),
    task: (await all<R>(Task)).map((t) => ({
      id: t.id as number,
      project: id(t.project)!,
      title: t.title as string,
      status: t.status as string,
      confidential: t.confidential as boolean,
      assignee: id(t.assignee),
      createdBy: id(t.createdBy),
    })),
    comment: (await all<R>(Comment)).map((c) => ({
      id: c.id as number,
      task: id(c.task)!,
      author: id(c.author)!,
      body: c.body as string,
    })),
  };
}

/**
 * A random mutation over the rows `tables` holds: mostly rows `visible` says the viewer reads,
 * else any row (hidden, or deleted a moment ago) or an id no row has.
 */
function randomMutation(
  next: () => number,
  tables: Tables,
  visible: (type: string, id: number) => boolean,
): Mutation {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const maybe = (p = 0.5) => next() < p;
  const ref = (type: string): Ref => {
    const rows = tables[type.toLowerCase() as keyof Tables] as { id: number }[];
    const ids = rows.map((r) => r.id);
    const seen = ids.filter((id) => visible(type, id));
    // Now and then an id no row has (deleted, or never written).
    if (maybe(0.05) || ids.length === 0) return [type, Math.max(0, ...ids) + 1];
    return [type, seen.length > 0 && maybe(0.85) ? pick(seen) : pick(ids)];
  };
  const text = () => pick(["alpha", "beta", "gamma", "delta"]) + Math.floor(next() * 100);
  const type = pick(["Membership", "Project", "Task", "Comment"]);
  // Memberships are created more often than deleted, so viewers keep (and regain) their roles
  // over a long sequence instead of ending outside every organization.
  const mode = pick(
    type === "Membership"
      ? ["create", "create", "update", "delete"]
      : ["create", "update", "update", "delete"],
  );
  const field = `${mode}${type}`;
  if (mode === "delete") return { field, id: ref(type) };
  const input: Record<string, unknown> = {};
  const create = mode === "create";
  switch (type) {
    case "Membership":
      if (create || maybe()) input.role = pick(ROLES);
      if (create || maybe(0.15)) input.organizationID = ref("Organization");
      if (create || maybe(0.15)) input.userID = ref("User");
      break;
    case "Project":
      if (create || maybe()) input.name = text();
      if (create || maybe(0.3)) input.organizationID = ref("Organization");
      break;
    case "Task":
      if (create || maybe(0.4)) input.title = text();
      if (maybe(0.3)) input.status = pick(STATUSES);
      if (maybe(0.3)) input.confidential = maybe();
      if (create || maybe(0.25)) input.projectID = ref("Project");
      if (maybe(0.3)) input.assigneeID = ref("User");
      if (!create && maybe(0.15)) input.clearAssignee = true;
      break;
    default:
      input.body = text();
      if (create) {
        input.taskID = ref("Task");
        input.authorID = ref("User");
      }
  }
  return create ? { field, input } : { field, id: ref(type), input };
}

/** The GraphQL request of `mutation`: ids as global ids. */
function request(mutation: Mutation): { query: string; variables: Record<string, unknown> } {
  const gid = ([type, id]: Ref) => encodeGlobalId(type, id);
  const input = Object.fromEntries(
    Object.entries(mutation.input ?? {}).map(([name, value]) => [
      name,
      Array.isArray(value) ? gid(value as Ref) : value,
    ]),
  );
  const type = mutation.field.replace(/^(create|update|delete)/, "");
  if (mutation.field.startsWith("delete")) {
    return {
      query: `mutation($id: ID!) { ${mutation.field}(id: $id) }`,
      variables: { id: gid(mutation.id!) },
    };
  }
  if (mutation.field.startsWith("create")) {
    return {
      query: `mutation($input: Create${type}Input!) { ${mutation.field}(input: $input) { id } }`,
      variables: { input },
    };
  }
  return {
    query:
      `mutation($id: ID!, $input: Update${type}Input!) { ${mutation.field}(id: $id, input: $input) { id } }`,
    variables: { id: gid(mutation.id!), input },
  };
}

type Answer = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
};

for (const dialect of dialects()) {
  Deno.test({
    name: `workspace rules = reference model over random mutations (${dialect})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      const seeds = SEED ? [Number(SEED)] : SEEDS;
      console.log(`reference model: seeds ${seeds.join(", ")} (MODEL_SEED to replay one)`);
      for (const runSeed of seeds) {
        await t.step(`seed ${runSeed}, ${MUTATIONS} mutations`, async () => {
          const { db, rls, contextOf } = await openWorkspaceDatabase(dialect);
          const server = startServer(db.orm, workspaceSchema(), [], {
            context: ({ request }: { request: Request }) =>
              contextOf(request.headers.get("x-viewer") ?? undefined),
          } as never);
          const model = new WorkspaceModel(await tablesOf(db.orm.em.fork()));
          const next = random(runSeed);
          const tally: Record<string, number> = {};
          try {
            for (let i = 0; i < MUTATIONS; i++) {
              const viewer = VIEWERS[Math.floor(next() * VIEWERS.length)];
              const mutation = randomMutation(
                next,
                model.tables,
                (type, id) => model.visible(viewer, type, id),
              );
              const { query, variables } = request(mutation);
              const response = await fetch(server.url, {
                method: "POST",
                headers: {
                  "content-type": "application/json",
                  ...(viewer ? { "x-viewer": viewer } : {}),
                },
                body: JSON.stringify({ query, variables }),
              });
              const answer: Answer = await response.json();
              const written = answer.data?.[mutation.field] as { id: string } | string | undefined;
              const code = answer.errors?.[0]?.extensions?.code ?? "ok";
              const expected = model.apply(viewer, mutation, () => {
                const text = typeof written === "string" ? written : written!.id;
                return Number(atob(text.replaceAll("-", "+").replaceAll("_", "/")).split(":")[1]);
              });
              const context = `MODEL_SEED=${runSeed} (${dialect}) mutation ${i}: ${
                viewer ?? "anonymous"
              } ${JSON.stringify(mutation)} answered ${JSON.stringify(answer)}`;
              assertEquals(code, expected.ok ? "ok" : expected.code, context);
              tally[code] = (tally[code] ?? 0) + 1;
            }
            assertEquals(
              await tablesOf(db.orm.em.fork()),
              model.tables,
              `MODEL_SEED=${runSeed} (${dialect}): the tables after the sequence`,
            );
            console.log(
              `reference model: seed ${runSeed}, ${MUTATIONS} mutations on ${dialect}${
                rls ? " (RLS on)" : ""
              }: ${JSON.stringify(tally)}`,
            );
          } finally {
            await server.close();
            await db.close();
          }
        });
      }
    },
  });
}
