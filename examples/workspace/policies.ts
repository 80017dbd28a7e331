/**
 * Who may read and write what in the workspace (`definePolicy` per entity). The viewer is the
 * signed-in user's username (the JWT's `sub`, `auth.ts`), `undefined` when anonymous: anonymous
 * reads no row and writes nothing.
 *
 * - Reads: the organizations the viewer belongs to and their memberships; the users who share an
 *   organization with the viewer (and the viewer); the projects of the viewer's organizations
 *   and their tasks, except that a confidential task is visible only to its assignee and the
 *   organization's OWNERs; a comment when its task is. `User.email`: by the user and by OWNERs of
 *   an organization they share.
 * - Writes (judged on the database as it was before the write, so no request can grant itself
 *   a role and use it): memberships created, changed (their role only) and deleted by OWNERs of
 *   the organization, never leaving it without an OWNER; projects and tasks created and updated
 *   by OWNERs and EDITORs (for a move, of both organizations), deleted by OWNERs, a task's
 *   `confidential` set only by an OWNER and its `createdBy` by the server; comments created by
 *   whoever sees the task, their author set by the server to the viewer, updated by their
 *   author, deleted by their author or an OWNER. Organizations and users are not written
 *   through the API (no rule: denied).
 *
 * @module
 */
import type { EntityManager, FilterQuery, InferEntity } from "@mikro-orm/core";
import { definePolicy, type WritePermission } from "@mikrogql/ext";
import { Comment } from "./entities/comment.ts";
import { Membership } from "./entities/membership.ts";
import { Organization } from "./entities/organization.ts";
import { Project } from "./entities/project.ts";
import { Task } from "./entities/task.ts";
import { User } from "./entities/user.ts";

/** The signed-in user's username; `undefined` when anonymous. */
export type Viewer = string | undefined;

type Role = "OWNER" | "EDITOR" | "VIEWER";

/** Organizations (as a condition on an organization) the viewer holds one of `roles` in. */
function memberOf(
  viewer: string,
  roles?: Role[],
): FilterQuery<InferEntity<typeof Organization>> {
  return {
    memberships: {
      $some: { user: { username: viewer }, ...(roles ? { role: { $in: roles } } : {}) },
    },
  };
}

/** The condition on a task that it is visible to `viewer`. */
function visibleTask(viewer: string): FilterQuery<InferEntity<typeof Task>> {
  return {
    project: { organization: memberOf(viewer) },
    $or: [
      { confidential: false },
      { assignee: { username: viewer } },
      { project: { organization: memberOf(viewer, ["OWNER"]) } },
    ],
  };
}

/** The organization id of the project `project` (an entity or a reference). */
async function organizationOf(em: EntityManager, project: { id: number }): Promise<number> {
  const found = await em.findOneOrFail(Project, project.id, { fields: ["organization"] });
  return found.organization.id;
}

/**
 * Whether the viewer holds one of `roles` in every organization of `organizations`, as the
 * database holds the memberships before the write (a count: not the identity map, where the
 * write being checked may already have changed the viewer's own membership).
 */
async function holds(
  em: EntityManager,
  viewer: Viewer,
  organizations: number[],
  roles: Role[],
): Promise<boolean> {
  if (viewer === undefined) return false;
  for (const organization of new Set(organizations)) {
    const held = await em.count(Membership, {
      organization,
      user: { username: viewer },
      role: { $in: roles },
    });
    if (held === 0) return false;
  }
  return true;
}

/** The id of the viewer's user (the rule EntityManager reads the viewer's own row). */
async function userOf(em: EntityManager, viewer: Viewer): Promise<number | undefined> {
  if (viewer === undefined) return undefined;
  return (await em.findOne(User, { username: viewer }, { fields: ["id"] }))?.id;
}

/**
 * Whether the organization of `membership` keeps another OWNER than it: an OWNER's membership
 * is demoted, moved or deleted only while one is left.
 */
async function anotherOwner(
  em: EntityManager,
  membership: Partial<InferEntity<typeof Membership>>,
): Promise<boolean> {
  if (membership.role !== "OWNER") return true;
  const others = await em.count(Membership, {
    organization: membership.organization!.id,
    role: "OWNER",
    id: { $ne: membership.id },
  });
  return others > 0;
}

const organizations = definePolicy(Organization, {
  read: (viewer: Viewer) => viewer !== undefined && memberOf(viewer),
});

const memberships = definePolicy(Membership, {
  read: (viewer: Viewer) => viewer !== undefined && { organization: memberOf(viewer) },
  create: ({ viewer, after, em }) => holds(em, viewer, [after!.organization.id], ["OWNER"]),
  // Only the role changes (a membership never moves), by an OWNER, and never the last OWNER's.
  update: {
    columns: ["role"],
    allow: async ({ viewer, before, after, em }) =>
      await holds(em, viewer, [before!.organization!.id], ["OWNER"]) &&
      (after!.role === "OWNER" || await anotherOwner(em, before!)),
  },
  delete: async ({ viewer, before, em }) =>
    await holds(em, viewer, [before!.organization!.id], ["OWNER"]) &&
    await anotherOwner(em, before!),
});

const users = definePolicy(User, {
  read: (viewer: Viewer) =>
    viewer !== undefined && {
      $or: [
        { username: viewer },
        { memberships: { $some: { organization: memberOf(viewer) } } },
      ],
    },
  fields: {
    email: (viewer: Viewer) =>
      viewer !== undefined && {
        $or: [
          { username: viewer },
          { memberships: { $some: { organization: memberOf(viewer, ["OWNER"]) } } },
        ],
      },
  },
});

const projects = definePolicy(Project, {
  read: (viewer: Viewer) => viewer !== undefined && { organization: memberOf(viewer) },
  create: ({ viewer, after, em }) =>
    holds(em, viewer, [after!.organization.id], ["OWNER", "EDITOR"]),
  update: ({ viewer, before, after, em }) =>
    holds(
      em,
      viewer,
      [before!.organization!.id, after!.organization.id],
      ["OWNER", "EDITOR"],
    ),
  delete: ({ viewer, before, em }) => holds(em, viewer, [before!.organization!.id], ["OWNER"]),
});

type TaskRow = InferEntity<typeof Task>;

/** The task input fields an EDITOR sets; an OWNER (of every organization involved) also sets `confidential`. */
const TASK_FIELDS = ["title", "status", "projectID", "assigneeID", "clearAssignee"];

/** The organizations a task write touches: the project's before (update) and after. */
async function taskOrganizations(
  em: EntityManager,
  before: Partial<TaskRow> | undefined,
  after: TaskRow,
): Promise<number[]> {
  const projects = before ? [before.project!, after.project] : [after.project];
  return await Promise.all(projects.map((project) => organizationOf(em, project)));
}

/** What a task write may set: `confidential` only for an OWNER. */
const taskColumns: WritePermission<TaskRow, Viewer>["columns"] = async (
  { viewer, before, after, em },
) =>
  await holds(em, viewer, await taskOrganizations(em, before, after!), ["OWNER"])
    ? [...TASK_FIELDS, "confidential"]
    : TASK_FIELDS;

const tasks = definePolicy(Task, {
  read: (viewer: Viewer) => viewer !== undefined && visibleTask(viewer),
  create: {
    columns: taskColumns,
    // The server records who created the task.
    preset: async ({ viewer, em }) => ({ createdBy: await userOf(em, viewer) }),
    allow: async ({ viewer, after, em }) =>
      holds(em, viewer, await taskOrganizations(em, undefined, after!), ["OWNER", "EDITOR"]),
  },
  update: {
    columns: taskColumns,
    allow: async ({ viewer, before, after, em }) =>
      holds(em, viewer, await taskOrganizations(em, before, after!), ["OWNER", "EDITOR"]),
  },
  delete: async ({ viewer, before, em }) =>
    holds(em, viewer, [await organizationOf(em, before!.project!)], ["OWNER"]),
});

/** The organization id of the task `task` (an entity or a reference). */
async function organizationOfTask(em: EntityManager, task: { id: number }): Promise<number> {
  const found = await em.findOneOrFail(Task, task.id, { fields: ["project"] });
  return await organizationOf(em, found.project);
}

const comments = definePolicy(Comment, {
  read: (viewer: Viewer) => viewer !== undefined && { task: visibleTask(viewer) },
  // The task is one the viewer can see (an invisible taskID is NOT_FOUND); the server sets the
  // author to the viewer (an authorID naming anyone else is FORBIDDEN).
  create: {
    columns: ["body", "taskID"],
    preset: async ({ viewer, em }) => ({ author: await userOf(em, viewer) }),
    allow: ({ viewer }) => viewer !== undefined,
  },
  update: async ({ viewer, before, em }) =>
    viewer !== undefined && before!.author!.id === await userOf(em, viewer),
  delete: async ({ viewer, before, em }) =>
    viewer !== undefined &&
    (before!.author!.id === await userOf(em, viewer) ||
      await holds(em, viewer, [await organizationOfTask(em, before!.task!)], ["OWNER"])),
});

/** The workspace's policies, for `createSchema({ policies })`. */
export const policies = [organizations, memberships, users, projects, tasks, comments];
