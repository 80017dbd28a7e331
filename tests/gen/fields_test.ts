/**
 * gen/fields.ts's scalar kinds: binary columns are `bytes`; a property whose `runtimeType` is a
 * class (reflect-metadata: `Reference` for `Ref<string>`, `Object` for `number & Opt`) takes the
 * kind of its declared `type`; with no runtime type at all, the column type decides; decimals kept
 * as strings are `decimal` and `date` columns `date`.
 */
import { assertEquals } from "@std/assert";
import type { EntityProperty } from "@mikro-orm/core";
import { scalarShape, unknownColumnType } from "../../gen/fields.ts";

const prop = (p: Partial<EntityProperty>) => ({ kind: "scalar", ...p }) as EntityProperty;

Deno.test("scalarShape: binary columns, and declared types behind class runtime types", () => {
  assertEquals(scalarShape(prop({ runtimeType: "Buffer", type: "blob" }))?.kind, "bytes");
  assertEquals(scalarShape(prop({ runtimeType: "Uint8Array" }))?.kind, "bytes");
  assertEquals(
    scalarShape(prop({ runtimeType: "Reference" as never, type: "text" }))?.kind,
    "string",
  );
  assertEquals(
    scalarShape(prop({ runtimeType: "Object" as never, type: "integer", columnTypes: ["integer"] }))
      ?.kind,
    "int",
  );
  assertEquals(
    scalarShape(prop({ runtimeType: "Object" as never, type: "datetime" }))?.kind,
    "time",
  );
  // A class runtime type without a known declared type stays JSON.
  assertEquals(scalarShape(prop({ runtimeType: "Object" as never, type: "Point" }))?.kind, "json");
  assertEquals(scalarShape(prop({ runtimeType: "string", type: "text" }))?.kind, "string");
});

Deno.test("scalarShape: decimals kept as strings are Decimal, date columns Date", () => {
  const shape = (p: Partial<EntityProperty>) => scalarShape(prop(p))?.kind;
  assertEquals(
    shape({ runtimeType: "string", type: "decimal", columnTypes: ["numeric(10,2)"] }),
    "decimal",
  );
  // `mode: "number"`: a number in the entity, a Float.
  assertEquals(
    shape({ runtimeType: "number", type: "decimal", columnTypes: ["numeric(10,2)"] }),
    "float",
  );
  assertEquals(shape({ runtimeType: "string", type: "date", columnTypes: ["date"] }), "date");
  // MikroORM's `date` type reads `YYYY-MM-DD` text, whatever the declared runtime type.
  assertEquals(shape({ runtimeType: "Date", type: "date", columnTypes: ["date"] }), "date");
  // A date-time (`type: Date`, lower-cased `date`) is no date.
  assertEquals(shape({ runtimeType: "Date", type: "Date", columnTypes: ["datetime"] }), "time");
  assertEquals(shape({ runtimeType: "Date", type: "datetime", columnTypes: ["date"] }), "time");
  assertEquals(shape({ runtimeType: "string", type: "time", columnTypes: ["time(0)"] }), "string");
});

Deno.test("scalarShape: the column type decides when MikroORM reports no runtime type", () => {
  const unknown = (column: string) =>
    scalarShape(prop({ runtimeType: "unknown" as never, type: "unknown", columnTypes: [column] }));
  assertEquals(unknown("timestamptz"), { kind: "time", list: false });
  assertEquals(unknown("timestamp(3)"), { kind: "time", list: false });
  assertEquals(unknown("datetime(6)"), { kind: "time", list: false });
  assertEquals(unknown("text[]"), { kind: "string", list: true });
  assertEquals(unknown("varchar(40)[]"), { kind: "string", list: true });
  assertEquals(unknown("uuid"), { kind: "string", list: false });
  assertEquals(unknown("numeric(10,2)"), { kind: "decimal", list: false });
  assertEquals(unknown("decimal"), { kind: "decimal", list: false });
  assertEquals(unknown("date"), { kind: "date", list: false });
  assertEquals(unknown("time(0)"), { kind: "string", list: false });
  assertEquals(unknown("int8"), { kind: "bigint", list: false });
  assertEquals(unknown("int4"), { kind: "int", list: false });
  assertEquals(unknown("double precision"), { kind: "float", list: false });
  assertEquals(unknown("bytea"), { kind: "bytes", list: false });
  assertEquals(unknown("jsonb"), { kind: "json", list: false });
  // Truly unknown: JSON, and the generator warns naming the property.
  assertEquals(unknown("geometry(Point)"), { kind: "json", list: false });
  assertEquals(
    unknownColumnType(
      prop({ runtimeType: "unknown" as never, type: "unknown", columnTypes: ["geometry"] }),
    ),
    true,
  );
  assertEquals(
    unknownColumnType(
      prop({ runtimeType: "unknown" as never, type: "unknown", columnTypes: ["timestamptz"] }),
    ),
    false,
  );
  assertEquals(unknownColumnType(prop({ runtimeType: "object", type: "json" })), false);
});
