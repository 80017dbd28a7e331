/**
 * Seed data of the workspace: ann (OWNER of Acme), bob (EDITOR of Acme), cat (VIEWER of Acme),
 * dan (OWNER of Globex), eve (no organization); projects, tasks (some confidential) and comments.
 *
 * @module
 */
import type { EntityManager } from "@mikro-orm/core";
import { BasePostgreSqlPlatform } from "@mikro-orm/sql";
import { Comment } from "./entities/comment.ts";
import { Membership } from "./entities/membership.ts";
import { Organization } from "./entities/organization.ts";
import { Project } from "./entities/project.ts";
import { Task } from "./entities/task.ts";
import { User } from "./entities/user.ts";

/**
 * Inserts the seed (fixed ids: users 1-5 ann, bob, cat, dan, eve; organizations 1 Acme, 2 Globex;
 * projects 1-3; tasks 1-6; comments 1-5; on PostgreSQL the id sequences are moved past them).
 *
 * @returns the number of rows inserted
 */
export async function seed(em: EntityManager): Promise<number> {
  const [ann, bob, cat, dan, eve] = ["ann", "bob", "cat", "dan", "eve"].map((username, i) =>
    em.create(User, {
      id: i + 1,
      username,
      name: username[0].toUpperCase() + username.slice(1),
      email: `${username}@example.com`,
    })
  );
  const acme = em.create(Organization, { id: 1, name: "Acme" });
  const globex = em.create(Organization, { id: 2, name: "Globex" });
  const memberships = [
    [1, acme, ann, "OWNER"],
    [2, acme, bob, "EDITOR"],
    [3, acme, cat, "VIEWER"],
    [4, globex, dan, "OWNER"],
  ] as const;
  for (const [id, organization, user, role] of memberships) {
    em.create(Membership, { id, organization, user, role });
  }
  const website = em.create(Project, { id: 1, organization: acme, name: "Website" });
  const launch = em.create(Project, { id: 2, organization: acme, name: "Launch" });
  const apollo = em.create(Project, { id: 3, organization: globex, name: "Apollo" });
  const tasks = [
    [1, website, "Design homepage", "DOING", false, bob],
    [2, website, "Fix login bug", "TODO", true, cat],
    [3, website, "Salary review", "TODO", true, null],
    [4, launch, "Press release", "DONE", false, null],
    [5, apollo, "Build rocket", "DOING", false, dan],
    [6, apollo, "Secret plan", "TODO", true, dan],
  ] as const;
  const [design, login, salary, , rocket] = tasks.map((
    [id, project, title, status, confidential, assignee],
  ) => em.create(Task, { id, project, title, status, confidential, assignee }));
  const comments = [
    [1, design, bob, "First draft is up"],
    [2, design, cat, "Looks good"],
    [3, login, cat, "Reproduced on Safari"],
    [4, salary, ann, "Budget +5%"],
    [5, rocket, dan, "Engines ordered"],
  ] as const;
  for (const [id, task, author, body] of comments) em.create(Comment, { id, task, author, body });
  void eve;
  await em.flush();
  // PostgreSQL's sequences do not see explicit ids: move them past the seeded rows (MariaDB and
  // SQLite do this themselves).
  if (em.getPlatform() instanceof BasePostgreSqlPlatform) {
    for (const entity of [User, Organization, Membership, Project, Task, Comment]) {
      const { tableName } = em.getMetadata().find(entity as never)!;
      const table = em.getPlatform().quoteIdentifier(tableName);
      await em.getConnection().execute(
        `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
      );
    }
  }
  return 5 + 2 + memberships.length + 3 + tasks.length + comments.length;
}
