/**
 * The lean read path: rows read for queries become records, not managed
 * entities. A record is an object whose prototype is a per-entity record prototype over the
 * entity's own prototype, so the entity's getters and methods work and `__meta` names its type,
 * but it is never registered in the unit of work, has no `Collection`s and no change tracking.
 * Each column is converted once with its property's MikroORM type, the way MikroORM's hydrator
 * does (custom types, booleans, dates); a many-to-one or owning one-to-one property holds the
 * target's primary key (the list of its columns' values for a composite key, in key order).
 *
 * Types whose selected properties need more (embeddables, formulas, `ref` scalars) and types of
 * an inheritance hierarchy are read as entities, as before.
 *
 * @module
 */
import type { EntityManager, EntityMetadata, EntityProperty } from "@mikro-orm/core";

const RECORD = Symbol("mikrogql.record");
const prototypes = new WeakMap<EntityMetadata, object>();
const converters = new WeakMap<EntityMetadata, Map<string, (value: unknown) => unknown>>();

type Row = Record<string, unknown>;

/** Whether `value` is a record of the lean read path (not a managed entity). */
export function isRecord(value: unknown): boolean {
  return typeof value === "object" && value !== null &&
    (value as Record<symbol, unknown>)[RECORD] === true;
}

/**
 * Whether rows of `meta` selecting `props` can be read as records: every property is a stored
 * scalar (no embeddable, formula or `ref` scalar) or a many-to-one / owning one-to-one
 * reference. `undefined` (every column) is never lean.
 */
export function leanable(meta: EntityMetadata, props: readonly string[] | undefined): boolean {
  if (!props || inherits(meta)) return false;
  return props.every((name) => {
    const prop = meta.properties[name];
    if (!prop || prop.formula || prop.embedded || prop.persist === false) return false;
    if (prop.kind === "scalar") return !prop.ref && prop.fieldNames?.length === 1;
    return (prop.kind === "m:1" || (prop.kind === "1:1" && prop.owner)) &&
      prop.fieldNames?.length >= 1;
  });
}

/**
 * Turns raw driver rows of `meta` (keyed by column name) into records keyed by property name.
 * Other columns of a row (a parent key, a row number) are ignored.
 *
 * @param props the selected properties, for which {@linkcode leanable} holds
 */
export function toRecords(
  em: EntityManager,
  meta: EntityMetadata,
  rows: readonly Row[],
  props: readonly string[],
): object[] {
  const map = mapperOf(em, meta, props);
  const records = new Array<object>(rows.length);
  for (let i = 0; i < rows.length; i++) records[i] = map(rows[i]);
  return records;
}

/** One selected property: where its value is in a row and how it is converted. */
interface Column {
  column: string;
  prop: string;
  convert?: (value: unknown) => unknown;
  /** A foreign key of several columns: all of them, read as the list of their values. */
  columns?: string[];
}

const mappers = new WeakMap<EntityMetadata, Map<string, (row: Row) => object>>();

/** The row mapper of `meta` for the selection `props`, built once per selection. */
function mapperOf(
  em: EntityManager,
  meta: EntityMetadata,
  props: readonly string[],
): (row: Row) => object {
  let byProps = mappers.get(meta);
  if (!byProps) mappers.set(meta, byProps = new Map());
  const key = props.join(",");
  let map = byProps.get(key);
  if (map) return map;
  const prototype = recordPrototype(meta);
  const convert = converterOf(em, meta);
  const columns: Column[] = [...new Set(props)].map((prop) => {
    const { fieldNames } = meta.properties[prop];
    return {
      column: fieldNames[0],
      prop,
      convert: convert.get(prop),
      columns: fieldNames.length > 1 ? fieldNames : undefined,
    };
  });
  map = (row) => {
    const record = Object.create(prototype);
    for (const { column, prop, convert, columns: several } of columns) {
      if (several) {
        // A composite foreign key: null when its columns are, else their values in key order.
        record[prop] = row[column] == null ? null : several.map((c) => row[c]);
        continue;
      }
      const value = row[column];
      record[prop] = value == null || !convert ? value : convert(value);
    }
    return record;
  };
  byProps.set(key, map);
  return map;
}

/**
 * Whether `meta` is part of an inheritance hierarchy (single-table or table-per-type): its rows
 * take the class of their discriminator or child table, which MikroORM's hydration decides.
 */
function inherits(meta: EntityMetadata): boolean {
  return meta.discriminatorColumn !== undefined || meta.discriminatorValue !== undefined ||
    meta.inheritanceType !== undefined || meta.root !== meta;
}

/** The record prototype of `meta`: plain data properties over the entity's prototype. */
function recordPrototype(meta: EntityMetadata): object {
  let prototype = prototypes.get(meta);
  if (prototype) return prototype;
  prototype = Object.create(meta.prototype) as object;
  // MikroORM puts change-tracking setters on the entity prototype; data properties in between
  // let assignments create own properties instead. Accessors the class defines (getters) stay.
  for (const prop of meta.props) {
    if (hasGetter(meta.prototype, prop.name)) continue;
    Object.defineProperty(prototype, prop.name, {
      value: undefined,
      writable: true,
      configurable: true,
    });
  }
  Object.defineProperty(prototype, RECORD, { value: true });
  prototypes.set(meta, prototype);
  return prototype;
}

function hasGetter(prototype: object | null, name: string): boolean {
  for (let p = prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.getOwnPropertyDescriptor(p, name)?.get) return true;
  }
  return false;
}

/** Property name -> conversion of a non-null database value, as MikroORM's hydrator does it. */
function converterOf(
  em: EntityManager,
  meta: EntityMetadata,
): Map<string, (value: unknown) => unknown> {
  let map = converters.get(meta);
  if (map) return map;
  map = new Map();
  const platform = em.getPlatform();
  const tz = platform.getTimezone();
  for (const prop of meta.props as EntityProperty[]) {
    if (prop.kind !== "scalar") continue;
    if (prop.customType) {
      const type = prop.customType;
      map.set(
        prop.name,
        (value) => type.convertToJSValue(value, platform, { mode: "serialization" } as never),
      );
    } else if (prop.runtimeType === "boolean") {
      map.set(prop.name, (value) => !!value);
    } else if (prop.runtimeType === "Date" && !platform.isNumericProperty(prop)) {
      map.set(prop.name, (value) => {
        if (value instanceof Date) return value;
        if (typeof value === "bigint") return platform.parseDate(Number(value));
        if (!tz || tz === "local" || typeof value === "number") {
          return platform.parseDate(value as string);
        }
        const text = value as string;
        return platform.parseDate(
          text.includes("+") || text.lastIndexOf("-") > 10 || text.endsWith("Z") ? text : text + tz,
        );
      });
    }
  }
  converters.set(meta, map);
  return map;
}
