/**
 * How a scalar property becomes a GraphQL field: its scalar kind and list-ness, whether it is
 * computed (`persist: false` getters, `formula`) and what a computed getter reads, whether a
 * create input may leave it out (defaulted) or never takes it (generated), whether it holds
 * UUIDs, and which properties are MikroORM internals.
 *
 * @module
 */
import type { EntityMetadata, EntityProperty } from "@mikro-orm/core";
import { textValueKind } from "../runtime/column_values.ts";
import type { ScalarKind } from "../runtime/graph.ts";

/** The GraphQL shape of a scalar property. */
export interface ScalarShape {
  kind: ScalarKind;
  /** `[T!]`: string arrays (`p.array()`, `string[]`) and enum arrays. */
  list: boolean;
}

/** The scalar kinds a keyset order can compare (order fields, a collection's declared order). */
export const COMPARABLE_KINDS: ReadonlySet<ScalarKind> = new Set<ScalarKind>([
  "int",
  "float",
  "decimal",
  "string",
  "boolean",
  "time",
  "date",
  "bigint",
  "enum",
]);

/** MikroORM type names -> the runtime type they map to, for a property whose `runtimeType` is a class. */
const RUNTIME_OF_TYPE: Record<string, string> = {
  integer: "number",
  int: "number",
  smallint: "number",
  tinyint: "number",
  mediumint: "number",
  number: "number",
  float: "number",
  double: "number",
  real: "number",
  bigint: "bigint",
  string: "string",
  text: "string",
  varchar: "string",
  character: "string",
  uuid: "string",
  decimal: "string",
  numeric: "string",
  date: "string",
  time: "string",
  interval: "string",
  enum: "string",
  boolean: "boolean",
  bool: "boolean",
  datetime: "Date",
  timestamp: "Date",
  blob: "Buffer",
  uint8array: "Uint8Array",
  json: "object",
  jsonb: "object",
};

/**
 * The runtime type of a property: MikroORM's `runtimeType`, or, when that names no primitive
 * (reflect-metadata gives the class of a `Ref<string>` property, `Reference`, and `Object` for an
 * intersection such as `number & Opt`), the one of its declared `type`.
 */
function runtimeOf(prop: EntityProperty): string | undefined {
  const runtime = prop.runtimeType as string | undefined;
  if (runtime && (/^[a-z]/.test(runtime) || runtime in PRIMITIVE_CLASSES)) return runtime;
  const declared = typeof prop.type === "string" ? RUNTIME_OF_TYPE[prop.type.toLowerCase()] : "";
  return declared || runtime;
}

/** Runtime types named by a class that are values, not objects. */
const PRIMITIVE_CLASSES: Record<string, true> = { Date: true, Buffer: true, Uint8Array: true };

/**
 * The scalar kind of a property: decimals MikroORM keeps as strings are `decimal` (GraphQL
 * `Decimal`), `date` columns `date` (GraphQL `Date`), binary columns (`blob`, `uint8array`)
 * `bytes` (GraphQL `Bytes`, base64); `undefined` for properties GraphQL cannot carry.
 */
export function scalarShape(prop: EntityProperty): ScalarShape | undefined {
  if (prop.enum) return { kind: "enum", list: false };
  if (prop.array && prop.items) return { kind: "enum", list: true };
  const column = (prop.columnTypes?.[0] ?? "").toLowerCase();
  const runtime = runtimeOf(prop);
  // A decimal MikroORM keeps as a string (not `mode: "number"`), a date column (MikroORM's
  // `date` type reads it as `YYYY-MM-DD` text whatever the declared type).
  const text = textValueKind(prop);
  if (text === "decimal" && runtime !== "number") return { kind: "decimal", list: false };
  if (text === "date" && (runtime !== "Date" || prop.type === "date")) {
    return { kind: "date", list: false };
  }
  switch (runtime) {
    case "number":
      return {
        kind: /int|serial/.test(column) && !/interval|point/.test(column) ? "int" : "float",
        list: false,
      };
    case "bigint":
      return { kind: "bigint", list: false };
    case "string":
      return { kind: "string", list: false };
    case "string[]":
      return { kind: "string", list: true };
    case "boolean":
      return { kind: "boolean", list: false };
    case "Date":
      return { kind: "time", list: false };
    case "Buffer":
    case "Uint8Array":
      return { kind: "bytes", list: false };
    default:
      // No runtime type MikroORM knows (`unknown` for a column type it does not map, such as
      // PostgreSQL's `timestamptz` or `text[]` declared by `columnType`): the column type decides.
      return columnShape(column) ?? { kind: "json", list: false };
  }
}

/**
 * Column types of PostgreSQL, MariaDB/MySQL and SQLite -> the scalar kind their values have, for
 * properties MikroORM reports no runtime type for, first match wins.
 */
const COLUMN_KINDS: [RegExp, ScalarShape][] = [
  [/^(json|jsonb)\b/, { kind: "json", list: false }],
  [/^(text|varchar|character varying|char|character|citext|uuid)(\(\d+\))?\s*\[\]$/, {
    kind: "string",
    list: true,
  }],
  [/^(timestamptz|timestamp|datetime)\b/, { kind: "time", list: false }],
  [/^(numeric|decimal)\b/, { kind: "decimal", list: false }],
  [/^date$/, { kind: "date", list: false }],
  [/^(bigint|int8|bigserial)\b/, { kind: "bigint", list: false }],
  [/^(int|integer|int2|int4|smallint|tinyint|mediumint|serial|smallserial)\b/, {
    kind: "int",
    list: false,
  }],
  [/^(real|float|float4|float8|double)\b/, { kind: "float", list: false }],
  [/^(bool|boolean)\b/, { kind: "boolean", list: false }],
  [/^(bytea|blob|tinyblob|mediumblob|longblob|binary|varbinary)\b/, {
    kind: "bytes",
    list: false,
  }],
  [
    /^(uuid|time|timetz|interval|text|tinytext|mediumtext|longtext|varchar|character varying|char|character|citext|enum|inet|cidr|macaddr|xml|money)\b/,
    { kind: "string", list: false },
  ],
];

/**
 * The scalar kind of a column type (`timestamptz` → `time`, `numeric` → `decimal`, `date` →
 * `date`, `text[]` → a string list, `uuid` → `string`), or `undefined` for one no database here knows (mapped to
 * `JSON`, with a warning naming the property: {@linkcode unknownColumnType}).
 */
export function columnShape(column: string): ScalarShape | undefined {
  const type = column.toLowerCase().trim();
  return COLUMN_KINDS.find(([pattern]) => pattern.test(type))?.[1];
}

/**
 * Whether `prop` is typed `JSON` only because neither MikroORM's runtime type nor its column type
 * says what it holds (the generator warns, naming the property).
 */
export function unknownColumnType(prop: EntityProperty): boolean {
  const column = (prop.columnTypes?.[0] ?? "").toLowerCase();
  const runtime = runtimeOf(prop);
  const known = [
    "number",
    "bigint",
    "string",
    "string[]",
    "boolean",
    "Date",
    "Buffer",
    "Uint8Array",
  ];
  return !prop.enum && !(prop.array && prop.items) && !known.includes(runtime ?? "") &&
    runtime !== "object" && runtime !== "any" && !columnShape(column);
}

/**
 * `getter` for a `persist: false` property (a getter or a plain property the class computes),
 * `formula` for an SQL formula; `undefined` for stored columns.
 */
export function computedKind(prop: EntityProperty): "getter" | "formula" | undefined {
  if (prop.formula) return "formula";
  return prop.persist === false ? "getter" : undefined;
}

/**
 * The stored properties a computed getter reads, found by running it once on a recording stand-in
 * of an entity: every stored property it touches (directly, or through the getters and methods
 * of the class it calls) is recorded and answers with a placeholder that absorbs any use (method
 * calls, property reads, string conversion). Reads behind a branch not taken are not seen; a
 * `CollectedFor("<getter>")` annotation on the properties it needs overrides the result. When it
 * touches none, every stored column (non-lazy scalars and foreign keys) is selected.
 */
export function getterReads(meta: EntityMetadata, prop: EntityProperty): string[] {
  const props = meta.properties as Record<string, EntityProperty>;
  const stored = (p: EntityProperty) =>
    p.persist !== false && !p.formula && !p.lazy &&
    (p.kind === "scalar" || p.kind === "embedded" || p.kind === "m:1" ||
      (p.kind === "1:1" && !!p.owner));
  const reads = new Set<string>();
  const absorb: unknown = new Proxy(function () {}, {
    get: (_target, key) =>
      key === Symbol.toPrimitive
        ? () => ""
        : typeof key === "symbol" || key === "then"
        ? undefined
        : absorb,
    apply: () => absorb,
  });
  const self = new Proxy(Object.create(meta.prototype as object), {
    get(target, key, receiver) {
      const p = typeof key === "string" ? props[key] : undefined;
      if (p && stored(p)) {
        reads.add(p.name);
        return absorb;
      }
      return Reflect.get(target, key, receiver);
    },
  });
  try {
    (self as Record<string, unknown>)[prop.name];
  } catch {
    // The getter failed on a placeholder: what it read until then is what is known.
  }
  if (reads.size === 0) return Object.values(props).filter(stored).map((p) => p.name);
  return Object.values(props).filter((p) => reads.has(p.name)).map((p) => p.name);
}

/**
 * A create input may leave the property out: it is nullable, has a default (`default`,
 * `defaultRaw`), or a fresh instance of the entity class already holds a value (a class field
 * initializer such as `nicknames: string[] = []`).
 */
export function optionalOnCreate(meta: EntityMetadata, prop: EntityProperty): boolean {
  if (prop.nullable || prop.default !== undefined || prop.defaultRaw !== undefined) return true;
  try {
    const Class = meta.class as unknown as new () => Record<string, unknown>;
    return new Class()[prop.name] != null;
  } catch {
    return false;
  }
}

/**
 * A property MikroORM adds for its own use: the inverse side it creates for a unidirectional
 * m:n (`Author_friends__inverse`).
 */
export function internal(prop: EntityProperty): boolean {
  return prop.persist === false && prop.kind !== "scalar" &&
    prop.name === `${prop.type}_${prop.mappedBy}__inverse`;
}

/**
 * Set by the database or MikroORM, never by an input: `onCreate`/`onUpdate`, `version`, formulas,
 * generated columns, `persist: false`.
 */
export function generated(prop: EntityProperty): boolean {
  return !!(prop.onCreate || prop.onUpdate || prop.version || prop.formula ||
    prop.generated || prop.persist === false);
}

/** A UUID column (`uuid` type or column type): compared as a value, never matched as text. */
export function isUuid(prop: EntityProperty): boolean {
  return /^uuid(type)?$/i.test(String(prop.type)) ||
    (prop.columnTypes?.[0] ?? "").toLowerCase() === "uuid";
}
