/**
 * Where inputs (entgql's `<T>WhereInput.P()`): a `<T>WhereInput` value becomes a MikroORM
 * `FilterQuery` of the type's entity.
 *
 * - Several predicates in one object are ANDed; `and`/`or` combine their lists; `not` negates.
 * - Field predicates (`text`, `textNEQ`, `textIn`, ... `textContainsFold`, `textIsNil`) map to
 *   MikroORM operators; `Contains`/`HasPrefix`/`HasSuffix` are case-sensitive and
 *   `EqualFold`/`ContainsFold` case-insensitive on every dialect, with the user's text escaped
 *   (`textContains: "50%"` matches a literal `50%`). `IsNil: false`/`NotNil: false` add nothing,
 *   as in entgql.
 * - `id` and foreign-key predicates (`categoryID`) take global ids of their type.
 * - `has<Edge>` tests that related rows exist; `has<Edge>With` that one related row matches
 *   every listed input. `has<Edge>` on a non-unique edge is a semi-join subquery (MikroORM's
 *   `$some`/`$none`: `id IN (SELECT ...)`, which every engine plans as `EXISTS`), on a unique
 *   edge a test of the foreign key; `has<Edge>With` an uncorrelated semi-join on the edge's
 *   columns whose listed inputs read the target's fenced visible rows (`plan/visible_rows.ts`),
 *   so the client's predicates are evaluated on rows the request may read only (leakproof
 *   ordering: no hidden row's content changes the statement's work).
 * - Related rows are only those the request may read: every `has<Edge>` adds the target's read
 *   filter (`plan/read_filters.ts` `readFilterOf`: MikroORM filters, policies' read rules) to
 *   its subquery or foreign-key test, every `has<Edge>With` reads the visible rows, and an
 *   `<edge>ID` predicate on a nullable edge treats a target the request may not read as no
 *   target (`IsNil` matches it, the others do not; a `CASE` evaluates the visibility before the
 *   client's value is compared), so no count or answer depends on a hidden row.
 * - A predicate on a field with a policy field rule (`policy.ts`) is `FORBIDDEN` unless the
 *   viewer may read the field on every row.
 * - Fields the user adds in their own SDL call the functions registered for them
 *   (`createSchema({ where: { TodoWhereInput: { createdToday: (value) => filter } } })`).
 * - `where: {}` at the top is no filter; an empty input anywhere inside (`not: {}`,
 *   `or: [{}]`, `hasChildrenWith: []`) is a `BAD_USER_INPUT` error naming its path.
 *
 * @module
 */
import { type EntityManager, type EntityProperty, type FilterQuery, raw } from "@mikro-orm/core";
import { containsFold, type Dialect, dialectOf, matchText, quoteIdentifiers } from "../dialect.ts";
import { ErrorCode, gqlError, quoteInput } from "../error_codes.ts";
import type { Graph, NodeType, WhereFieldDescription, WhereOp, WhereOpFamily } from "../graph.ts";
import { hasPredicateName, predicateName } from "../names.ts";
import { decodeGlobalId, isOfType } from "./global_id.ts";
import { keyValuesOf } from "../keys.ts";
import { allOf } from "../jsutils/all_of.ts";
import { readFilterOf, visibleKeys } from "./read_filters.ts";
import { visibleRows } from "./visible_rows.ts";
import { checkFieldReadable } from "../policy_binding.ts";
import { checkFilterValue, keyValueError } from "../column_values.ts";

const FAMILIES: Record<WhereOpFamily, WhereOp[]> = {
  boolean: ["EQ", "NEQ"],
  equality: ["EQ", "NEQ", "In", "NotIn"],
  comparison: ["EQ", "NEQ", "In", "NotIn", "GT", "GTE", "LT", "LTE"],
  string: [
    "EQ",
    "NEQ",
    "In",
    "NotIn",
    "GT",
    "GTE",
    "LT",
    "LTE",
    "Contains",
    "HasPrefix",
    "HasSuffix",
  ],
};

/**
 * The operators of a where field, in SDL order: its family's, then `IsNil`/`NotNil` when it is
 * nullable, then `EqualFold`/`ContainsFold` for strings (entgql's order).
 */
export function whereOps(field: { ops: WhereOpFamily; nullable?: boolean }): WhereOp[] {
  return [
    ...FAMILIES[field.ops],
    ...(field.nullable ? ["IsNil", "NotNil"] as const : []),
    ...(field.ops === "string" ? ["EqualFold", "ContainsFold"] as const : []),
  ];
}

type Predicate =
  | { field: WhereFieldDescription; op: WhereOp }
  | { edge: string; with: boolean };

const PREDICATES = new WeakMap<NodeType, Map<string, Predicate>>();

function predicatesOf(type: NodeType): Map<string, Predicate> {
  let map = PREDICATES.get(type);
  if (!map) {
    map = new Map();
    for (const [name, field] of Object.entries(type.where?.fields ?? {})) {
      for (const op of whereOps(field)) map.set(predicateName(name, op), { field, op });
    }
    for (const edge of type.where?.edges ?? []) {
      map.set(hasPredicateName(edge), { edge, with: false });
      map.set(hasPredicateName(edge, true), { edge, with: true });
    }
    PREDICATES.set(type, map);
  }
  return map;
}

/**
 * The entities whose read filters the compiled `where` of `typeName` reads in its subqueries (the
 * targets of its `has<Edge>`/`has<Edge>With` predicates, at any depth, and of its `<edge>ID`
 * predicates), for `prepareReadFilters` (`plan/read_filters.ts`).
 */
export function whereTargets(
  em: EntityManager,
  graph: Graph,
  typeName: string,
  where: unknown,
  out: Set<string | object> = new Set(),
): Set<string | object> {
  if (where == null || typeof where !== "object") return out;
  const type = graph.types[typeName];
  for (const [key, value] of Object.entries(where as Input)) {
    if (value == null) continue;
    if (key === "not") whereTargets(em, graph, typeName, value, out);
    else if (key === "and" || key === "or") {
      for (const input of value as unknown[]) whereTargets(em, graph, typeName, input, out);
    } else {
      const predicate = predicatesOf(type).get(key);
      if (!predicate) continue;
      if ("edge" in predicate) {
        const target = graph.types[type.edges[predicate.edge].target];
        out.add(target.entity);
        if (predicate.with && Array.isArray(value)) {
          for (const input of value) whereTargets(em, graph, target.name, input, out);
        }
      } else if (predicate.field.kind === "id") {
        const property = em.getMetadata().find(type.entity)?.properties[predicate.field.prop];
        if (property?.targetMeta) out.add(property.targetMeta.class);
      }
    }
  }
  return out;
}

/**
 * Turns the `<T>WhereInput` value `where` of the node type `typeName` into a MikroORM filter on
 * its entity. Used by root connections and, through field collection, nested connections.
 *
 * @param where the argument value (`null`/`undefined` is no filter)
 * @param em the request's EntityManager, after `prepareReadFilters(em, whereTargets(...))`
 *   (`plan/read_filters.ts`)
 * @param path where the input sits in the operation, for error messages (e.g. `"where"`)
 * @returns the filter; `{}` when `where` holds no predicate
 * @throws GraphQLError `BAD_USER_INPUT` naming the path of an empty nested input or list, of a
 *   global id that does not name a node of the predicate's type, or of a user field with no
 *   registered filter function; `FORBIDDEN` naming the path of a predicate on a field the
 *   viewer may not read on every row
 */
export function whereFilter(
  em: EntityManager,
  graph: Graph,
  typeName: string,
  where: unknown,
  path = "where",
): FilterQuery<object> {
  if (where == null) return {};
  const compiler = new WhereCompiler(em, graph);
  return compiler.input(graph.types[typeName], where as Input, path) ?? {};
}

type Input = Record<string, unknown>;

class WhereCompiler {
  readonly #dialect: Dialect;

  constructor(readonly em: EntityManager, readonly graph: Graph) {
    this.#dialect = dialectOf(em);
  }

  /** The filter of one input object, or `undefined` when it holds no predicate. */
  input(type: NodeType, input: Input, path: string): FilterQuery<object> | undefined {
    const parts: FilterQuery<object>[] = [];
    for (const [key, value] of Object.entries(input)) {
      if (value == null) continue;
      const at = `${path}.${key}`;
      // `$not` holds an `$and`: MikroORM 7.2 resolves a key column of a bare `$not` inside a
      // one-to-many `$some` against the outer query's alias (`b0.copyNumber`: no such column).
      if (key === "not") parts.push({ $not: { $and: [this.nested(type, value as Input, at)] } });
      else if (key === "and" || key === "or") {
        parts.push({ [`$${key}`]: this.list(type, value, at) });
      } else {
        const part = this.predicate(type, key, value, at);
        if (part) parts.push(part);
      }
    }
    // A lone `$not` is wrapped in `$and`: MikroORM 7.2 resolves the columns of a bare `$not`
    // inside an m:n `$some` against the pivot table's alias (`u2.email`).
    return parts.length === 0
      ? undefined
      : parts.length === 1 && !("$not" in parts[0])
      ? parts[0]
      : { $and: parts };
  }

  nested(type: NodeType, input: Input, path: string): FilterQuery<object> {
    const filter = this.input(type, input, path);
    if (!filter) throw badInput(`${path}: empty ${type.where!.name}: give at least one predicate`);
    return filter;
  }

  list(type: NodeType, value: unknown, path: string): FilterQuery<object>[] {
    const inputs = value as Input[];
    if (inputs.length === 0) throw badInput(`${path}: empty list: give at least one input`);
    return inputs.map((input, i) => this.nested(type, input, `${path}[${i}]`));
  }

  predicate(
    type: NodeType,
    key: string,
    value: unknown,
    path: string,
  ): FilterQuery<object> | undefined {
    const predicate = predicatesOf(type).get(key);
    if (!predicate) {
      const extension = this.graph.hooks?.where?.[type.where!.name]?.[key];
      if (!extension) {
        throw badInput(`${path}: no filter function is registered for ${type.where!.name}.${key}`);
      }
      const filter = extension(value, { em: this.em, type, path });
      return Object.keys(filter).length + Object.getOwnPropertySymbols(filter).length === 0
        ? undefined
        : filter;
    }
    if ("edge" in predicate) return this.edge(type, predicate.edge, predicate.with, value, path);
    return this.field(type, predicate.field, predicate.op, value, path);
  }

  field(
    type: NodeType,
    field: WhereFieldDescription,
    op: WhereOp,
    value: unknown,
    path: string,
  ): FilterQuery<object> | undefined {
    const nil = op === "IsNil" || op === "NotNil";
    checkFieldReadable(this.em, type.entity, type.name, field.prop, path);
    if (!nil && field.kind !== "id") this.values(type, field.prop, value, path);
    const condition = this.fieldCondition(type, field, op, value, path, nil);
    return field.kind === "id" && condition
      ? this.visibleTarget(type, field, op, condition)
      : condition;
  }

  /**
   * An `<edge>ID` predicate on a nullable edge whose target has a read filter: a target the
   * request may not read is no target, so the predicate compares `CASE WHEN <fk> IN (<visible
   * keys>) THEN <fk> END`, the value a database holding only the visible rows would hold (null,
   * with SQL's null logic under `not`, `IsNil` matching it). A required edge's target is already
   * visible (the row's own read filter requires it); a foreign key of several columns is tested
   * with {@linkcode visibleReference}.
   */
  visibleTarget(
    type: NodeType,
    field: WhereFieldDescription,
    op: WhereOp,
    condition: FilterQuery<object>,
  ): FilterQuery<object> {
    const property = this.em.getMetadata().find(type.entity)?.properties[field.prop];
    const reference = property?.kind === "m:1" || (property?.kind === "1:1" && property.owner);
    if (!reference || !property.nullable) return condition;
    const keys = visibleKeys(this.em, property.targetMeta!.class);
    if (!keys) return condition;
    const value = (condition as Record<string, unknown>)[field.prop];
    if (property.fieldNames.length > 1 || value === undefined) {
      const visible = this.visibleReference(type, field.prop, op !== "IsNil")!;
      return op === "IsNil" ? { $or: [condition, visible] } : { $and: [condition, visible] };
    }
    const column = quoteIdentifiers(this.em, property.fieldNames[0]);
    const shown = raw(
      (alias: string) =>
        `(case when ${alias}.${column} in (${keys.sql}) then ${alias}.${column} end)`,
      [...keys.params],
    );
    return { [shown as never]: value };
  }

  /**
   * On a reference property `prop`: "points to a row the request may read" (`fk in (<visible
   * keys>)`), or with `visible` false "points to a row it may not read" (`fk not in (...)`, a null
   * `fk` excluded); `undefined` when the target has no read filter. A subquery rather than a
   * condition on the joined target, whose columns the join's own filters (`applyJoinedFilters`)
   * turn to null for a hidden row.
   */
  visibleReference(
    type: NodeType,
    prop: string,
    visible: boolean,
  ): FilterQuery<object> | undefined {
    const property = this.em.getMetadata().find(type.entity)!.properties[prop];
    const keys = visibleKeys(this.em, property.targetMeta!.class);
    if (!keys) return undefined;
    const columns = property.fieldNames.map((c) => quoteIdentifiers(this.em, c));
    const test = visible ? "in" : "not in";
    return {
      [
        raw((alias: string) => {
          const tuple = columns.length === 1
            ? `${alias}.${columns[0]}`
            : `(${columns.map((c) => `${alias}.${c}`).join(", ")})`;
          return `${tuple} is not null and ${tuple} ${test} (${keys.sql})`;
        }, [...keys.params]) as never
      ]: [],
    };
  }

  fieldCondition(
    type: NodeType,
    field: WhereFieldDescription,
    op: WhereOp,
    value: unknown,
    path: string,
    nil: boolean,
  ): FilterQuery<object> | undefined {
    const v = field.kind === "id" && !nil ? this.ids(field.target!, value, path) : value;
    // `address.geo.lat` (a property of an embeddable) nests: { address: { geo: { lat: ... } } }.
    const on = (condition: unknown) =>
      field.prop.split(".").reduceRight<unknown>(
        (inner, key) => ({ [key]: inner }),
        condition,
      ) as FilterQuery<object>;
    switch (op) {
      case "EQ":
        return on(v);
      case "NEQ":
        return on({ $ne: v });
      case "In":
      case "NotIn": {
        const values = v as unknown[];
        // In a JSON column of an object-mode embeddable, MariaDB's IN compares JSON-quoted text:
        // a property of an embeddable is matched value by value instead.
        if (!field.prop.includes(".") || values.length === 0) {
          return on({ [op === "In" ? "$in" : "$nin"]: values });
        }
        return op === "In"
          ? { $or: values.map((x) => on(x)) }
          : { $and: values.map((x) => on({ $ne: x })) };
      }
      case "GT":
      case "GTE":
      case "LT":
      case "LTE":
        return on({ [`$${op.toLowerCase()}`]: v });
      case "IsNil":
        return v === true ? this.nullness(type, field.prop, true) ?? on(null) : undefined;
      case "NotNil":
        return v === true ? this.nullness(type, field.prop, false) ?? on({ $ne: null }) : undefined;
      case "Contains":
      case "HasPrefix":
      case "HasSuffix": {
        const match = op === "Contains" ? "contains" : op === "HasPrefix" ? "prefix" : "suffix";
        return this.sql(
          type,
          field.prop,
          (column) => matchText(this.#dialect, column, match, v as string),
        );
      }
      case "EqualFold":
        return this.sql(type, field.prop, (column) => [`lower(${column}) = lower(?)`, v as string]);
      case "ContainsFold":
        return this.sql(type, field.prop, (column) => containsFold(column, v as string));
    }
  }

  /**
   * Checks the operand(s) of a predicate on `prop` against its column before they reach SQL
   * (`checkFilterValue` of `column_values.ts`: ranges, decimal syntax, dates, times, finite
   * numbers, unpaired surrogates).
   *
   * @throws GraphQLError `BAD_USER_INPUT` naming the predicate (and the list index)
   */
  values(type: NodeType, prop: string, value: unknown, path: string): void {
    const property = this.property(type, prop);
    if (!property) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => checkFilterValue(this.em, property, v, `${path}[${i}]`));
    } else {
      checkFilterValue(this.em, property, value, path);
    }
  }

  /** The MikroORM property of `prop` (`address.city`: the embeddable's property). */
  property(type: NodeType, prop: string): EntityProperty | undefined {
    const meta = this.em.getMetadata().find(type.entity);
    const [first, ...rest] = prop.split(".");
    let property = meta?.properties[first] as EntityProperty | undefined;
    for (const key of rest) property = property?.embeddedProps?.[key];
    return property;
  }

  /** A raw SQL condition on the column of `prop`, against the row's alias. */
  sql(
    type: NodeType,
    prop: string,
    condition: (column: string) => [string, unknown],
  ): FilterQuery<object> {
    const meta = this.em.getMetadata().find(type.entity)!;
    // A property of an inline embeddable (`address.city`) is its flattened column (`address_city`).
    const [first, ...rest] = prop.split(".");
    const property = rest.reduce(
      (p, key) => p.embeddedProps![key],
      meta.properties[first] as EntityProperty,
    );
    const column = quoteIdentifiers(this.em, property.fieldNames[0]);
    const [sql, param] = condition(`__alias__.${column}`);
    return {
      [raw((alias: string) => sql.replaceAll("__alias__", alias), [param]) as never]: [],
    };
  }

  /**
   * A foreign key of several columns (a to-one edge to a composite key) or in the primary key is
   * null or not: every column tested (a row value `IS NULL` is not SQL every engine takes, and
   * MikroORM 7.2 names a key relation's property instead of its column inside a join);
   * `undefined` for other properties, which MikroORM's `null`/`$ne: null` serve.
   */
  nullness(type: NodeType, prop: string, isNull: boolean): FilterQuery<object> | undefined {
    const property = this.em.getMetadata().find(type.entity)?.properties[prop];
    const owner = property?.kind === "m:1" || (property?.kind === "1:1" && property.owner);
    if (!owner || (property.fieldNames.length < 2 && !property.primary)) return undefined;
    const test = isNull ? "is null" : "is not null";
    const columns = property.fieldNames.map((c) => quoteIdentifiers(this.em, c));
    return {
      [raw((alias: string) => columns.map((c) => `${alias}.${c} ${test}`).join(" and ")) as never]:
        [],
    };
  }

  /**
   * Global ids (one, or a list) of `target` -> primary keys: the key's value, or for a composite
   * key the list of its parts' values (MikroORM compares it with the foreign key's columns).
   */
  ids(target: string, value: unknown, path: string): unknown {
    const decode = (id: string, at: string) => {
      const decoded = decodeGlobalId(this.graph, id);
      if (!decoded || !isOfType(decoded.type, target)) {
        throw badInput(`${at}: ${quoteInput(id)} is not the global id of a ${target}`);
      }
      // A key its column cannot hold (beyond an integer type, a malformed UUID).
      const error = keyValueError(this.em, decoded.type, decoded.pk, at);
      if (error) throw error;
      return decoded.type.id.parts ? keyValuesOf(decoded.type, decoded.pk) : decoded.pk;
    };
    return Array.isArray(value)
      ? value.map((id, i) => decode(id, `${path}[${i}]`))
      : decode(value as string, path);
  }

  edge(
    type: NodeType,
    name: string,
    withFilter: boolean,
    value: unknown,
    path: string,
  ): FilterQuery<object> {
    const edge = type.edges[name];
    const target = this.graph.types[edge.target];
    if (withFilter) return this.related(type, name, allOf(...this.list(target, value, path)));
    // Only rows the request may read are related rows.
    const visible = readFilterOf(this.em, target.entity);
    const exists = value === true;
    const present = this.nullness(type, edge.prop, !exists) ??
      { [edge.prop]: exists ? { $ne: null } : null };
    if (edge.kind !== "m:1" && edge.kind !== "1:1") {
      return { [edge.prop]: exists ? { $some: visible } : { $none: visible } };
    }
    const reference = Reflect.ownKeys(visible as object).length > 0 &&
      this.visibleReference(type, edge.prop, exists);
    if (!reference) return present;
    return exists ? reference : { $or: [present, reference] };
  }

  /**
   * `has<Edge>With`: the row has a related row the request may read that matches `filter` (the
   * listed inputs, on the target's entity). The related rows are read from the target's fenced
   * visible rows (`plan/visible_rows.ts`), so `filter` is evaluated on visible rows only, as an
   * uncorrelated semi-join on the edge's columns:
   *
   * - to-one owner (`m:1`, owning `1:1`): `<fk> is not null and <fk> in (select <referenced key>
   *   from <visible targets> where <filter>)`;
   * - to-many or inverse `1:1`: `<key> in (select <fk> from <visible targets> where <fk> is not
   *   null and <filter>)`;
   * - `m:n`: `<key> in (select <own pivot columns> from <pivot> where <target pivot columns> in
   *   (select <target key> from <visible targets> where <filter>))`.
   *
   * Never unknown (a missing edge is false), so `not` matches a row without the edge.
   */
  related(type: NodeType, name: string, filter: FilterQuery<object>): FilterQuery<object> {
    const meta = this.em.getMetadata().find(type.entity)!;
    const prop = meta.properties[type.edges[name].prop];
    const target = prop.targetMeta!;
    const q = (...parts: string[]) => quoteIdentifiers(this.em, ...parts);
    const tuple = (alias: string, columns: string[]) =>
      columns.length === 1
        ? q(alias, columns[0])
        : `(${columns.map((c) => q(alias, c)).join(", ")})`;
    // A row value is no operand of `is not null` on SQLite: each column is tested.
    const notNull = (alias: string, columns: string[]) =>
      columns.map((c) => `${q(alias, c)} is not null`).join(" and ");
    const keys = (m: typeof meta) => m.primaryKeys.flatMap((pk) => m.properties[pk].fieldNames);
    // The select list is set after the condition: a condition on an inverse one-to-one makes
    // MikroORM join its owner and add the owner's key to the list (`partitioned.ts` does the same).
    const rows = visibleRows(this.em, target.class, RELATED);
    let own: string[];
    let sql: string;
    let params: readonly unknown[];
    if (prop.kind === "m:n") {
      const owning = prop.owner ? prop : target.properties[prop.mappedBy];
      const [ownPivot, targetPivot] = prop.owner
        ? [owning.joinColumns, owning.inverseJoinColumns]
        : [owning.inverseJoinColumns, owning.joinColumns];
      rows.where(filter as never).select(keys(target).map((c) => `${RELATED}.${c}`) as never);
      own = keys(meta);
      const pivot = this.em.getMetadata().find(owning.pivotEntity)!;
      sql = `select ${ownPivot.map((c) => q(PIVOT, c)).join(", ")} from ${q(pivot.tableName)} as ${
        q(PIVOT)
      } where ${tuple(PIVOT, targetPivot)} in (${rows.getQuery()})`;
      params = rows.getParams();
    } else {
      const owner = prop.kind === "m:1" || (prop.kind === "1:1" && prop.owner);
      const back = owner ? prop : target.properties[prop.mappedBy];
      own = owner ? prop.fieldNames : back.referencedColumnNames;
      const theirs = owner ? prop.referencedColumnNames : back.fieldNames;
      const present = owner ? {} : {
        [raw((alias: string) => notNull(alias, theirs)) as never]: [],
      };
      rows.where(allOf(present, filter) as never)
        .select(theirs.map((c) => `${RELATED}.${c}`) as never);
      sql = rows.getQuery();
      params = rows.getParams();
    }
    const nullable = prop.kind !== "m:n" && prop.nullable;
    return {
      [
        raw((alias: string) => {
          const test = `${tuple(alias, own)} in (${sql})`;
          return nullable ? `${notNull(alias, own)} and ${test}` : test;
        }, [...params]) as never
      ]: [],
    };
  }
}

/** The alias of a `has<Edge>With` subquery's visible related rows. */
const RELATED = "__r";
/** The alias of an `m:n` edge's pivot table in a `has<Edge>With` subquery. */
const PIVOT = "__p";

function badInput(message: string): Error {
  return gqlError(ErrorCode.BAD_USER_INPUT, message);
}
