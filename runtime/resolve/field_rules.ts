/**
 * Policies' field read rules (`policy.ts` `fields`): a field with a rule is nullable in the
 * schema ({@linkcode guardedTypeDefs}), and its resolver answers the value only on a row the rule
 * lets the viewer read, else `null` with a `FORBIDDEN` error at the field's path
 * ({@linkcode guardedFieldResolver}). Which rows pass is asked of the database: the rule's
 * condition and the keys of the rows being resolved, one statement per field and batch of rows
 * (the rows of one level of the response), through the request's read filters.
 *
 * @module
 */
import { type DocumentNode, Kind, parse, visit } from "graphql";
import { Utils } from "@mikro-orm/core";
import { readRefusal } from "../read_refusal.ts";
import type { Graph, NodeType } from "../graph.ts";
import { keyParts, keyText, keyValues, rowsFilter } from "../keys.ts";
import type { Policy } from "../policy.ts";
import { rowFilter, rulesOf } from "../policy_binding.ts";
import type { RequestState } from "../request/request_state.ts";
import { allOf } from "../jsutils/all_of.ts";

/** A field with a read rule: its node type, GraphQL name and entity property. */
export interface GuardedField {
  type: NodeType;
  name: string;
  prop: string;
}

/**
 * The fields the policies' field rules name, on every node type of their entity.
 *
 * @throws Error naming the entity and the property when a rule names a property that is no field
 *   of the entity's node types (the type checker refuses it already in a typed project)
 */
// deno-lint-ignore no-explicit-any
export function guardedFields(graph: Graph, policies: readonly Policy<any, any>[]): GuardedField[] {
  const guarded: GuardedField[] = [];
  for (const policy of policies) {
    const className = Utils.className(policy.entity as never);
    const types = Object.values(graph.types).filter((t) =>
      Utils.className(t.entity as never) === className
    );
    for (const prop of Object.keys(policy.rules.fields ?? {})) {
      const found = types.flatMap((type) =>
        Object.entries(type.fields).filter(([, f]) => f.prop === prop).map(([name]) => ({
          type,
          name,
          prop,
        }))
      );
      if (found.length === 0) {
        throw new Error(
          `the policy of ${className} has a read rule for "${prop}", which is no field of ${className}`,
        );
      }
      guarded.push(...found);
    }
  }
  return guarded;
}

/**
 * The SDL `typeDefs` with every guarded field nullable (`email: String!` becomes `email:
 * String`): a denied field answers `null`.
 */
export function guardedTypeDefs(typeDefs: string, guarded: GuardedField[]): DocumentNode {
  const byType = new Map<string, Set<string>>();
  for (const { type, name } of guarded) {
    byType.set(type.name, (byType.get(type.name) ?? new Set()).add(name));
  }
  return visit(parse(typeDefs), {
    ObjectTypeDefinition: (node) => {
      const names = byType.get(node.name.value);
      if (!names) return undefined;
      return {
        ...node,
        fields: node.fields?.map((field) =>
          names.has(field.name.value) && field.type.kind === Kind.NON_NULL_TYPE
            ? { ...field, type: field.type.type }
            : field
        ),
      };
    },
  });
}

/** The pending rows of one guarded field in one request, answered together. */
interface Batch {
  rows: object[];
  done: Promise<Set<string>>;
}

const BATCHES = new WeakMap<RequestState, Map<string, Batch>>();

/**
 * Whether the viewer may read `field` on `row`: the field rule of the request's binding (none:
 * yes), asked of the database for all rows resolved in the same turn.
 */
async function readable(ctx: RequestState, field: GuardedField, row: object): Promise<boolean> {
  const found = rulesOf(ctx.em, field.type.entity);
  const rule = found?.rules.fields?.[field.prop];
  if (!rule) return true;
  const condition = rule(found.viewer);
  if (condition === true) return true;
  if (condition === false) return false;
  let batches = BATCHES.get(ctx);
  if (!batches) BATCHES.set(ctx, batches = new Map());
  const key = `${field.type.name}.${field.prop}`;
  let batch = batches.get(key);
  if (!batch) {
    const rows: object[] = [];
    const open = batches;
    const done = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(async () => {
      open.delete(key);
      const type = field.type;
      const allowed = await ctx.em.find(
        type.entity,
        allOf(rowsFilter(type, rows.map((r) => keyValues(type, r))), rowFilter(condition)) as never,
        { fields: keyParts(type).map((part) => part.prop) as never, ...ctx.read },
      );
      return new Set(allowed.map((r) => keyText(type, keyValues(type, r))));
    });
    batches.set(key, batch = { rows, done });
  }
  batch.rows.push(row);
  return (await batch.done).has(keyText(field.type, keyValues(field.type, row)));
}

/**
 * The resolver of a guarded field: the row's value where the rule lets the viewer read it.
 *
 * @param request the request context of a resolver call (the schema's `request(ctx)`)
 * @throws GraphQLError `FORBIDDEN` at the field's path on a row the viewer may not read it on (a
 *   `readRefusal`: in a mutation's payload, the write is committed all the same)
 */
export function guardedFieldResolver<C>(
  field: GuardedField,
  request: (ctx: C) => RequestState,
): (row: Record<string, unknown>, args: unknown, ctx: C) => Promise<unknown> {
  return async (row, _args, ctx) => {
    if (!await readable(request(ctx), field, row)) {
      throw readRefusal(`${field.type.name}.${field.name} is not readable by this request`);
    }
    return row[field.prop];
  };
}
