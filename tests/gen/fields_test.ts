/**
 * gen/fields.ts's scalar kinds: binary columns are `bytes`; a property whose `runtimeType` is a
 * class (reflect-metadata: `Reference` for `Ref<string>`, `Object` for `number & Opt`) takes the
 * kind of its declared `type`.
 */
import { assertEquals } from "@std/assert";
import type { EntityProperty } from "@mikro-orm/core";
import { scalarShape } from "../../gen/fields.ts";

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
