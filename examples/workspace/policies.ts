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
 * - Writes: memberships by OWNERs of the organization; projects and tasks created and updated by
 *   OWNERs and EDITORs (for a move, of both organizations), deleted by OWNERs; comments created
 *   by whoever sees the task, in their own name only, updated by their author, deleted by their
 *   author or an OWNER.
 *
 * @module
 */
import type { EntityManager, FilterQuery, InferEntity } from "@mikro-orm/core";
import { definePolicy } from "@mikrogql/ext";
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

const organizations = definePolicy(Organization, {
  read: (viewer: Viewer) => viewer !== undefined && memberOf(viewer),
});

const memberships = definePolicy(Membership, {
  read: (viewer: Viewer) => viewer !== undefined && { organization: memberOf(viewer) },
  create: ({ viewer, after, em }) => holds(em, viewer, [after!.organization.id], ["OWNER"]),
  update: ({ viewer, before, after, em }) =>
    holds(em, viewer, [before!.organization!.id, after!.organization.id], ["OWNER"]),
  delete: ({ viewer, before, em }) => holds(em, viewer, [before!.organization!.id], ["OWNER"]),
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

const tasks = definePolicy(Task, {
  read: (viewer: Viewer) => viewer !== undefined && visibleTask(viewer),
  create: async ({ viewer, after, em }) =>
    holds(em, viewer, [await organizationOf(em, after!.project)], ["OWNER", "EDITOR"]),
  update: async ({ viewer, before, after, em }) =>
    holds(
      em,
      viewer,
      [await organizationOf(em, before!.project!), await organizationOf(em, after!.project)],
      ["OWNER", "EDITOR"],
    ),
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
  // The task is one the viewer can see (an invisible taskID is NOT_FOUND); the author is the viewer.
  create: ({ viewer, after }) => viewer !== undefined && after!.author.username === viewer,
  update: async ({ viewer, before, em }) =>
    viewer !== undefined &&
    (await em.findOneOrFail(User, before!.author!.id)).username === viewer,
  delete: async ({ viewer, before, em }) =>
    viewer !== undefined &&
    ((await em.findOneOrFail(User, before!.author!.id)).username === viewer ||
      await holds(em, viewer, [await organizationOfTask(em, before!.task!)], ["OWNER"])),
});

/** The workspace's policies, for `createSchema({ policies })`. */
export const policies = [organizations, memberships, users, projects, tasks, comments];
