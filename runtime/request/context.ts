/**
 * The context contract: what mikrogql reads from a GraphQL context (`MikroContext`), and
 * `fromContext`, which gives resolvers the EntityManager to use — the one bound to the
 * operation's transaction by the Transactioner (`plugins/transactioner.ts`), else the request's.
 *
 * @module
 */
import type { EntityManager, SessionContext } from "@mikro-orm/core";
import { type ReadFrom, readFrom } from "../database/read_from.ts";
import { bindConnections } from "../database/bound_connection.ts";
import { lightenForks } from "../light_forks.ts";
import { bindPolicies, policiesOfContext } from "../policy_binding.ts";
import type { ChangeFeed } from "../events/change_feed.ts";

/** The part of a GraphQL context that mikrogql reads. */
export interface MikroContext {
  /** The request's EntityManager (a fork per request: `context: () => ({ em: orm.em.fork() })`). */
  em?: EntityManager;
  /**
   * The request's viewer, read by the schema's policies (`createSchema({ policies })`) unless
   * the schema's `viewer` option reads it elsewhere: `undefined` is anonymous.
   */
  viewer?: unknown;
  /**
   * PostgreSQL row-level security as a second wall (PostGraphile's `pgSettings`): the request's
   * session variables (`set_config(name, value, true)`, read by RLS policies through
   * `current_setting(name)`) and role (`SET LOCAL ROLE`), applied in the transaction of each of
   * its statements: MikroORM wraps a read outside a transaction in a short one
   * (`em.setSessionContext`), the Transactioner applies them right after its `BEGIN`. PostgreSQL
   * only (MikroORM refuses a session context on the other databases).
   */
  databaseSession?: SessionContext;
  /**
   * Where this request's reads outside a transaction go when MikroORM has read replicas; wins
   * over the schema's `readFrom`. The Transactioner sets `"primary"` for a mutation operation and,
   * with `readYourWrites`, for a client's requests shortly after its own mutation.
   */
  readFrom?: ReadFrom;
  /**
   * The change feed the generated subscriptions read (`createChangeFeed`); `serve()` sets it.
   * Without one a subscription is refused with `SUBSCRIPTIONS_UNAVAILABLE`.
   */
  changes?: ChangeFeed;
}

/** Where the Transactioner keeps the EntityManager bound to the open transaction. */
const TX = Symbol.for("mikrogql.tx");

/** A context as the Transactioner sees it: with the EntityManager of the open transaction. */
type TxContext = MikroContext & { [TX]?: EntityManager };

/**
 * Returns the EntityManager resolvers must use: the one bound to the operation's transaction when
 * the Transactioner opened one (entgql's `ent.FromContext`), else the request's `em`, its
 * runtime reads sent to `ctx.readFrom ?? schemaReadFrom` (MikroORM's read connection when neither
 * is set; a transaction always reads from the primary). Under a schema with policies the
 * EntityManager carries the request's read rules as MikroORM filters (`policy_binding.ts`), so
 * your own `em.find` reads what the viewer may read.
 *
 * @example A user resolver reading inside or outside the Transactioner's transaction
 * ```ts
 * import { fromContext, type MikroContext } from "@mikrogql/ext";
 * import { Post } from "./entities/post.ts";
 *
 * const resolvers = {
 *   Query: {
 *     postCount: (_: unknown, __: unknown, ctx: MikroContext) => fromContext(ctx).count(Post),
 *   },
 * };
 * ```
 *
 * @param schemaReadFrom the schema's `readFrom` option
 * @throws Error when the context holds no EntityManager
 */
export function fromContext(ctx: MikroContext, schemaReadFrom?: ReadFrom): EntityManager {
  const em = (ctx as TxContext)[TX] ?? ctx.em;
  if (!em) {
    throw new Error(
      "no EntityManager in the GraphQL context: pass `context: () => ({ em: orm.em.fork() })` to createYoga",
    );
  }
  // An ORM a user opened with `MikroORM.init`: its statements go out bound from now on, and its
  // forks skip re-syncing their logging options.
  bindConnections(em);
  lightenForks(em);
  const policies = policiesOfContext(ctx);
  if (policies) bindPolicies(em, policies);
  if (ctx.databaseSession) bindSession(em, ctx.databaseSession);
  const target = ctx.readFrom ?? schemaReadFrom;
  return target ? readFrom(em, target) : em;
}

/**
 * Binds `em` (a fork in an open transaction) to `ctx` for {@linkcode fromContext}, or unbinds it
 * when `em` is `undefined`. Called by the Transactioner around the operation's execution.
 */
export function bindTransaction(ctx: MikroContext, em: EntityManager | undefined): void {
  if (em) (ctx as TxContext)[TX] = em;
  else delete (ctx as TxContext)[TX];
}

const SESSIONS = new WeakSet<EntityManager>();

/**
 * Gives `em` the request's database session (once per EntityManager), unless it is in a
 * transaction: the Transactioner applied it to its own, and MikroORM refuses to stage one there.
 */
function bindSession(em: EntityManager, session: SessionContext): void {
  if (SESSIONS.has(em) || em.isInTransaction()) return;
  SESSIONS.add(em);
  em.setSessionContext(session);
}
