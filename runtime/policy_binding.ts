/**
 * A request's policies: the schema's {@linkcode Policy} list with the request's viewer, kept on
 * the GraphQL context by the schema's resolvers and put on every EntityManager `fromContext`
 * returns for the request (the request's, the Transactioner's fork): each read rule becomes a
 * MikroORM filter of the EntityManager, so `em.find`, `em.count` and the runtime's QueryBuilder
 * reads (`plan/read_filters.ts`) apply it in the statement they build. A policy on a class of a
 * single-table or table-per-type inheritance covers the rows of its subclasses too: its read rule
 * is a filter of every class extending it (MikroORM matches a filter's entities by class), and
 * its write rules are those of each subclass without a policy of its own.
 *
 * @module
 */
import {
  type EntityManager,
  type EntityMetadata,
  type EntityName,
  type FilterQuery,
  raw,
  Utils,
} from "@mikro-orm/core";
import type { Policy, PolicyRules, RowCondition } from "./policy.ts";
import { ErrorCode, gqlError } from "./error_codes.ts";

/** The policies of a request and its viewer. */
export interface PolicyBinding {
  /** The schema's policies. */
  readonly policies: readonly Policy<never, never>[];
  /** The request's viewer (`undefined`: anonymous). */
  readonly viewer: unknown;
  /**
   * The entities of the schema's node types: those no policy gives a read rule (their own, or
   * one of a class they extend) read no row (deny by default).
   */
  // deno-lint-ignore no-explicit-any
  readonly entities?: readonly EntityName<any>[];
}

const ON_CONTEXT = Symbol.for("mikrogql.policies");
const BOUND = new WeakMap<EntityManager, PolicyBinding>();

/**
 * Keeps `binding` on the GraphQL context `ctx` (once per request: the first call wins), for
 * `fromContext` to bind to the EntityManagers it returns.
 */
export function attachPolicies(ctx: object, binding: () => PolicyBinding): void {
  const holder = ctx as { [ON_CONTEXT]?: PolicyBinding };
  holder[ON_CONTEXT] ??= binding();
}

/** The binding {@linkcode attachPolicies} kept on `ctx`, if any. */
export function policiesOfContext(ctx: object): PolicyBinding | undefined {
  return (ctx as { [ON_CONTEXT]?: PolicyBinding })[ON_CONTEXT];
}

/** The filter name of an entity's read rule. */
function policyFilterName(className: string): string {
  return `mikrogql:policy:${className}`;
}

/**
 * Registers the read rules of `binding` as MikroORM filters of `em` (once per EntityManager; a
 * fork copies them), evaluated with the binding's viewer.
 *
 * @returns `em`
 */
export function bindPolicies(em: EntityManager, binding: PolicyBinding): EntityManager {
  if (BOUND.get(em) === binding) return em;
  BOUND.set(em, binding);
  for (const policy of binding.policies) {
    const rules = policy.rules as PolicyRules<object, unknown>;
    const read = rules.read;
    if (!read) continue;
    em.addFilter({
      name: policyFilterName(Utils.className(policy.entity as never)),
      entity: coveredClasses(em, policy.entity) as never,
      cond: () => rowFilter(read(binding.viewer)),
      default: true,
    });
  }
  for (const entity of unreadable(em, binding)) {
    em.addFilter({
      name: policyFilterName(Utils.className(entity as never)),
      entity: [entity] as never,
      cond: NO_ROW,
      default: true,
    });
  }
  return em;
}

/**
 * The entities of `binding.entities` without a read rule (of their own policy, else of the
 * nearest class they extend that has a policy), found once per policy list and ORM.
 */
// deno-lint-ignore no-explicit-any
export function unreadable(em: EntityManager, binding: PolicyBinding): EntityName<any>[] {
  const entities = binding.entities;
  if (!entities) return [];
  const storage = em.getMetadata();
  let known = UNREADABLE.get(entities);
  if (!known) UNREADABLE.set(entities, known = new WeakMap());
  let found = known.get(storage);
  if (!found) {
    const probe = { policies: binding.policies, viewer: undefined };
    found = entities.filter((entity) => !policyOf(em, probe, entity)?.rules.read);
    known.set(storage, found);
  }
  return found;
}

// deno-lint-ignore no-explicit-any
const UNREADABLE = new WeakMap<readonly unknown[], WeakMap<object, EntityName<any>[]>>();

/**
 * The entity classes a policy on `entity` covers: its own and every class extending it (the
 * subclasses of an inheritance root or of an intermediate class).
 */
// deno-lint-ignore no-explicit-any
function coveredClasses(em: EntityManager, entity: EntityName<any>): unknown[] {
  const storage = em.getMetadata();
  let known = COVERED.get(storage);
  if (!known) COVERED.set(storage, known = new Map());
  let covered = known.get(entity);
  if (!covered) {
    const base = classOf(em, entity);
    covered = [
      entity,
      ...[...storage.getAll().values()].flatMap((meta: EntityMetadata) =>
        base && typeof meta.class === "function" && meta.class.prototype instanceof base
          ? [meta.class]
          : []
      ),
    ];
    known.set(entity, covered);
  }
  return covered;
}

/** Per metadata storage (one per ORM): the classes a policy's entity covers, found once. */
const COVERED = new WeakMap<object, Map<unknown, unknown[]>>();

/** The class MikroORM discovered for an entity given as a class, a schema or a name. */
function classOf(em: EntityManager, entity: unknown): (abstract new () => unknown) | undefined {
  const found = em.getMetadata().find(entity as never)?.class;
  return typeof found === "function" ? found as abstract new () => unknown : undefined;
}

/**
 * The rules of `entity` under `em`'s binding, with the viewer they are evaluated for: the policy
 * of its class, else of the nearest class it extends that has one, else no rule at all (`{}`:
 * every write denied); `undefined` when `em` has no binding (no policies: nothing checked).
 */
export function rulesOf(
  em: EntityManager,
  entity: unknown,
): { rules: PolicyRules<Record<string, unknown>, unknown>; viewer: unknown } | undefined {
  const binding = BOUND.get(em);
  if (!binding) return undefined;
  const policy = policyOf(em, binding, entity);
  // Once policies are on, an entity without one has no rule: every write is denied.
  return {
    rules: (policy?.rules ?? {}) as PolicyRules<Record<string, unknown>, unknown>,
    viewer: binding.viewer,
  };
}

/** The policy of `entity`'s class, else of the nearest class it extends that has one. */
function policyOf(
  em: EntityManager,
  binding: PolicyBinding,
  entity: unknown,
): Policy<never, never> | undefined {
  const name = Utils.className(entity as never);
  let policy = binding.policies.find((p) => Utils.className(p.entity as never) === name);
  const own = policy ? undefined : classOf(em, entity);
  for (let c = own && Object.getPrototypeOf(own); c && !policy; c = Object.getPrototypeOf(c)) {
    policy = binding.policies.find((p) => classOf(em, p.entity) === c);
  }
  return policy;
}

/** The binding {@linkcode bindPolicies} put on `em`, if any. */
export function bindingOf(em: EntityManager): PolicyBinding | undefined {
  return BOUND.get(em);
}

/** A condition matching no row. */
const NO_ROW = (): FilterQuery<object> => ({ [raw("1 = 0") as never]: [] });

/**
 * A rule's answer as a filter query: `true` is `{}` (every row), `false` a condition no row
 * matches.
 */
export function rowFilter<E>(condition: RowCondition<E>): FilterQuery<object> {
  if (condition === true) return {};
  if (condition === false) return NO_ROW();
  return condition as FilterQuery<object>;
}

/** Whether a rule's answer lets every row through (`true` or an empty filter). */
function allowsEveryRow<E>(condition: RowCondition<E>): boolean {
  return condition === true ||
    (typeof condition === "object" && condition !== null &&
      Reflect.ownKeys(condition).length === 0);
}

/**
 * Refuses a where predicate or an order on the property `prop` of `entity` when `em`'s policy
 * has a field rule for it that does not let the viewer read it on every row: filtering or
 * ordering by it would tell its hidden values.
 *
 * @param typeName the GraphQL type, for the message
 * @param path where the predicate or order sits in the operation
 * @throws GraphQLError `FORBIDDEN` naming the path, the type and the field
 */
export function checkFieldReadable(
  em: EntityManager,
  entity: unknown,
  typeName: string,
  prop: string,
  path: string,
): void {
  const found = rulesOf(em, entity);
  const rule = found?.rules.fields?.[prop.split(".")[0]];
  if (!rule || allowsEveryRow(rule(found.viewer))) return;
  throw gqlError(
    ErrorCode.FORBIDDEN,
    `${path}: ${typeName}.${prop} may not be filtered or ordered by: it is not readable on every row`,
  );
}
