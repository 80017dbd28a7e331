/**
 * The workspace example's entities, for servers, tests and benchmarks (without the example
 * server's imports).
 *
 * @module
 */
import { Comment } from "./entities/comment.ts";
import { Membership } from "./entities/membership.ts";
import { Organization } from "./entities/organization.ts";
import { Project } from "./entities/project.ts";
import { Task } from "./entities/task.ts";
import { User } from "./entities/user.ts";

/** The workspace's entities. */
export const entities = [User, Organization, Membership, Project, Task, Comment];
