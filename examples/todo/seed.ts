/**
 * Seed data of the todo example, small and exact so tests can state every expected row: seven
 * todos (a parent/children tree, texts with LIKE and GLOB wildcards, mixed case), three
 * categories, three users in three groups.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import { BasePostgreSqlPlatform } from "@mikro-orm/sql";
import { Category } from "./entities/category.ts";
import { Group } from "./entities/group.ts";
import { Todo } from "./entities/todo.ts";
import { User } from "./entities/user.ts";

/** Creation time of todo 1; todo `i` is created `i - 1` seconds later. */
export const BASE = Date.UTC(2026, 0, 1);

/** The todos: id, text, status, priority, parent id, category id. */
export const TODOS = [
  [1, "Buy milk", "IN_PROGRESS", 1, null, 3],
  [2, "Write report 50%", "COMPLETED", 2, null, 1],
  [3, "write REPORT draft", "PENDING", 3, 2, 1],
  [4, "Review 50_percent", "IN_PROGRESS", 0, 2, null],
  [5, "buy Bread", "COMPLETED", 1, 1, 3],
  [6, "Clean*house?[x]", "PENDING", 5, null, 2],
  [7, "back\\slash", "IN_PROGRESS", 2, 6, null],
] as const;

/** The users: id, name, username (a UUID), admin, group ids. */
export const USERS = [
  [1, "alice", "00000000-0000-4000-8000-000000000001", true, [1, 2]],
  [2, "bob", "00000000-0000-4000-8000-000000000002", false, [2]],
  [3, "Anonymous", "00000000-0000-4000-8000-000000000003", false, []],
] as const;

/**
 * Inserts the seed data with fixed ids (and, on PostgreSQL, moves the id sequences past them).
 *
 * @returns the number of rows inserted
 */
export async function seed(em: EntityManager): Promise<number> {
  em.create(Category, {
    id: 1,
    text: "Work",
    status: "ENABLED",
    weight: 1.5,
    count: 10n,
    config: { color: "red" },
  });
  em.create(Category, {
    id: 2,
    text: "Home",
    status: "DISABLED",
    weight: null,
    count: 12884901888n,
  });
  em.create(Category, { id: 3, text: "Errands", status: "ENABLED", weight: 3.25, count: null });
  for (const [id, text, status, priority, parent, category] of TODOS) {
    em.create(Todo, {
      id,
      text,
      status,
      priority,
      parent,
      category,
      createdAt: new Date(BASE + (id - 1) * 1000),
    });
  }
  const groups = ["admins", "staff", "empty"].map((name, i) =>
    em.create(Group, { id: i + 1, name })
  );
  for (const [id, name, username, admin, groupIds] of USERS) {
    em.create(User, {
      id,
      name,
      username,
      admin,
      password: admin ? "secret" : null,
      groups: groupIds.map((g) => groups[g - 1]),
    });
  }
  await em.flush();
  // PostgreSQL's sequences do not see explicit ids: move them past the seeded rows, so the next
  // createTodo/createCategory/createUser gets a free id (MariaDB and SQLite do this themselves).
  if (em.getPlatform() instanceof BasePostgreSqlPlatform) {
    for (const entity of [Category, Todo, User, Group]) {
      const { tableName } = em.getMetadata().find(entity as never)!;
      const table = em.getPlatform().quoteIdentifier(tableName);
      await em.getConnection().execute(
        `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
      );
    }
  }
  return 3 + TODOS.length + groups.length + USERS.length;
}
