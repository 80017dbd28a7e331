/**
 * A plain TypeScript model of the workspace example's rules (`examples/workspace/policies.ts`)
 * over an in-memory copy of its tables: what each generated mutation answers for a viewer (the
 * written row's id, or the error code: `NOT_FOUND`, `FORBIDDEN`, `BAD_USER_INPUT`) and how it
 * changes the rows. The oracle of `tests/graphql/workspace_model_test.ts`; it shares no code with
 * the runtime or the policies.
 *
 * The order of judging is the runtime's: the ids an input names (invisible: `NOT_FOUND`), the row
 * to update or delete (`NOT_FOUND`), the fields the viewer may set and the presets (`FORBIDDEN`),
 * the rule on the database before the write (`FORBIDDEN`), the database's constraints
 * (`BAD_USER_INPUT`), the written row readable afterwards (`FORBIDDEN`).
 *
 * @module
 */

/** A membership role. */
export type Role = "OWNER" | "EDITOR" | "VIEWER";

/** The rows of the workspace, by table (ids as the database gave them). */
export interface Tables {
  user: { id: number; username: string }[];
  organization: { id: number }[];
  membership: { id: number; organization: number; user: number; role: Role }[];
  project: { id: number; organization: number; name: string }[];
  task: {
    id: number;
    project: number;
    title: string;
    status: string;
    confidential: boolean;
    assignee: number | null;
    createdBy: number | null;
  }[];
  comment: { id: number; task: number; author: number; body: string }[];
}

/** A node id in a mutation: `[type, id]`. */
export type Ref = [type: string, id: number];

/** One generated mutation: its field, the `id` argument (update, delete) and the input. */
export interface Mutation {
  field: string;
  id?: Ref;
  /** Input field -> value; an id field holds a {@linkcode Ref}. */
  input?: Record<string, unknown>;
}

/** What the model expects: the write's outcome, or the error code. */
export type Outcome = { ok: true } | { ok: false; code: string };

const TASK_FIELDS = ["title", "status", "projectID", "assigneeID", "clearAssignee"];

/** The rules over a copy of the tables. */
export class WorkspaceModel {
  constructor(public tables: Tables) {}

  #viewerId(viewer: string | undefined): number | undefined {
    return this.tables.user.find((u) => u.username === viewer)?.id;
  }

  #orgs(viewer: string | undefined, roles?: Role[]): Set<number> {
    const id = this.#viewerId(viewer);
    return new Set(
      this.tables.membership
        .filter((m) => m.user === id && id !== undefined && (!roles || roles.includes(m.role)))
        .map((m) => m.organization),
    );
  }

  #projectOrg(project: number): number {
    return this.tables.project.find((p) => p.id === project)!.organization;
  }

  /** Whether `viewer` may read the row `id` of `type`. */
  visible(viewer: string | undefined, type: string, id: number): boolean {
    if (viewer === undefined) return false;
    const t = this.tables;
    const orgs = this.#orgs(viewer);
    switch (type) {
      case "Organization":
        return t.organization.some((o) => o.id === id) && orgs.has(id);
      case "Membership": {
        const m = t.membership.find((m) => m.id === id);
        return !!m && orgs.has(m.organization);
      }
      case "User": {
        const u = t.user.find((u) => u.id === id);
        return !!u && (u.username === viewer ||
          t.membership.some((m) => m.user === id && orgs.has(m.organization)));
      }
      case "Project": {
        const p = t.project.find((p) => p.id === id);
        return !!p && orgs.has(p.organization);
      }
      case "Task": {
        const task = t.task.find((x) => x.id === id);
        if (!task) return false;
        const org = this.#projectOrg(task.project);
        return orgs.has(org) && (!task.confidential || task.assignee === this.#viewerId(viewer) ||
          this.#orgs(viewer, ["OWNER"]).has(org));
      }
      case "Comment": {
        const c = t.comment.find((c) => c.id === id);
        // A required relation to a row the viewer may not read hides the row (MikroORM joins
        // the target's filter: `autoJoinRefsForFilters`): a comment by a user who left.
        return !!c && this.visible(viewer, "Task", c.task) &&
          this.visible(viewer, "User", c.author);
      }
    }
    throw new Error(`no type ${type}`);
  }

  #holds(viewer: string | undefined, orgs: number[], roles: Role[]): boolean {
    const held = this.#orgs(viewer, roles);
    return viewer !== undefined && orgs.every((o) => held.has(o));
  }

  /** Whether the organization keeps an OWNER besides membership `m` (true unless `m` is one). */
  #anotherOwner(m: Tables["membership"][number]): boolean {
    return m.role !== "OWNER" ||
      this.tables.membership.some((o) =>
        o.id !== m.id && o.organization === m.organization && o.role === "OWNER"
      );
  }

  /**
   * Judges and applies `mutation` by `viewer`.
   *
   * @param newId the id the database gave a created row (known once the server answered)
   */
  apply(viewer: string | undefined, mutation: Mutation, newId?: () => number): Outcome {
    const fail = (code: string): Outcome => ({ ok: false, code });
    const input = mutation.input ?? {};
    // The ids the input names.
    for (const value of Object.values(input)) {
      if (Array.isArray(value) && typeof value[0] === "string") {
        const [type, id] = value as Ref;
        if (!this.visible(viewer, type, id)) return fail("NOT_FOUND");
      }
    }
    const [, mode, type] = /^(create|update|delete)(\w+)$/.exec(mutation.field)!;
    const table = type.toLowerCase() as keyof Tables;
    const rows = this.tables[table] as unknown as Record<string, unknown>[];
    let before: Record<string, unknown> | undefined;
    if (mode !== "create") {
      const id = mutation.id![1];
      if (!this.visible(viewer, type, id)) return fail("NOT_FOUND");
      before = rows.find((r) => r.id === id)!;
    }
    const vid = this.#viewerId(viewer);
    if (mode === "delete") {
      const b = before!;
      let allowed: boolean;
      switch (type) {
        case "Membership":
          allowed = this.#holds(viewer, [b.organization as number], ["OWNER"]) &&
            this.#anotherOwner(b as Tables["membership"][number]);
          break;
        case "Project":
          allowed = this.#holds(viewer, [b.organization as number], ["OWNER"]);
          break;
        case "Task":
          allowed = this.#holds(viewer, [this.#projectOrg(b.project as number)], ["OWNER"]);
          break;
        default: {
          const task = this.tables.task.find((t) => t.id === b.task)!;
          allowed = viewer !== undefined &&
            (b.author === vid || this.#holds(viewer, [this.#projectOrg(task.project)], ["OWNER"]));
        }
      }
      if (!allowed) return fail("FORBIDDEN");
      // Rows still referencing it (hidden ones too): the foreign key refuses.
      if (type === "Project" && this.tables.task.some((t) => t.project === b.id)) {
        return fail("BAD_USER_INPUT");
      }
      if (type === "Task" && this.tables.comment.some((c) => c.task === b.id)) {
        return fail("BAD_USER_INPUT");
      }
      rows.splice(rows.indexOf(b), 1);
      return { ok: true };
    }
    // The entity after the input: clear, then set.
    const after: Record<string, unknown> = { ...(before ?? defaults(type)) };
    const given = Object.entries(input).filter(([name, v]) =>
      name.startsWith("clear") ? v === true : v !== null && v !== undefined
    );
    for (const [name] of given) {
      if (name.startsWith("clear")) after[lower(name.slice(5))] = null;
    }
    for (const [name, value] of given) {
      if (name.startsWith("clear")) continue;
      after[name.endsWith("ID") ? name.slice(0, -2) : name] = Array.isArray(value)
        ? value[1]
        : value;
    }
    const names = given.map(([name]) => name);
    const refuseFields = (allowed: string[], preset: string[] = []) =>
      names.some((n) => !allowed.includes(n) && !preset.includes(n));
    let allowed: boolean;
    switch (type) {
      case "Membership":
        if (mode === "update" && refuseFields(["role"])) return fail("FORBIDDEN");
        allowed = mode === "create"
          ? this.#holds(viewer, [after.organization as number], ["OWNER"])
          : this.#holds(viewer, [before!.organization as number], ["OWNER"]) &&
            (after.role === "OWNER" ||
              this.#anotherOwner(before as Tables["membership"][number]));
        break;
      case "Project":
        allowed = this.#holds(
          viewer,
          [...(before ? [before.organization as number] : []), after.organization as number],
          ["OWNER", "EDITOR"],
        );
        break;
      case "Task": {
        const orgs = [
          ...(before ? [this.#projectOrg(before.project as number)] : []),
          this.#projectOrg(after.project as number),
        ];
        const columns = this.#holds(viewer, orgs, ["OWNER"])
          ? [...TASK_FIELDS, "confidential"]
          : TASK_FIELDS;
        if (refuseFields(columns)) return fail("FORBIDDEN");
        if (mode === "create") after.createdBy = vid ?? null;
        allowed = this.#holds(viewer, orgs, ["OWNER", "EDITOR"]);
        break;
      }
      default:
        if (mode === "create") {
          if (refuseFields(["body", "taskID"], ["authorID"])) return fail("FORBIDDEN");
          if (after.author !== vid) return fail("FORBIDDEN");
          allowed = viewer !== undefined;
        } else {
          allowed = viewer !== undefined && before!.author === vid;
        }
    }
    if (!allowed) return fail("FORBIDDEN");
    // Written, then read back through the rules: a row the viewer could not read is refused.
    const saved = rows.slice();
    if (before) rows[rows.indexOf(before)] = after;
    else {
      after.id = newId!();
      rows.push(after);
    }
    if (!this.visible(viewer, type, after.id as number)) {
      rows.splice(0, rows.length, ...saved);
      return fail("FORBIDDEN");
    }
    return { ok: true };
  }
}

function lower(name: string): string {
  return name[0].toLowerCase() + name.slice(1);
}

/** A created row's values before the input: the columns' defaults. */
function defaults(type: string): Record<string, unknown> {
  if (type === "Task") {
    return { status: "TODO", confidential: false, assignee: null, createdBy: null };
  }
  return {};
}
