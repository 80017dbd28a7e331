/**
 * The GraphQL enums of enum properties: one GraphQL enum per TypeScript enum, named after its
 * export (`Tier`) with its member names as values (numeric enums keep `Low`, `High`), shared by
 * every property that uses it; `Type(name)` on the property renames it. Enum properties whose
 * values are not an exported enum object (`p.enum(["draft", "published"])`) get a GraphQL enum of
 * their own, `<Type><Property>`, with the values upper-cased (`DRAFT`).
 *
 * @module
 */
import type { EntityProperty } from "@mikro-orm/core";
import { propertyEnumName } from "../runtime/names.ts";
import type { DiagnosticInput, Diagnostics } from "./diagnostics.ts";
import type { LoadedEnum } from "./load_entities.ts";
import type { ModelEnum } from "./model.ts";

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * The GraphQL enum of an enum property (or enum array property).
 *
 * @param typeName the GraphQL type the property belongs to
 * @param loaded the exported enum object the property's `items` names, if any
 * @param rename the `Type(name)` annotation on the property
 * @param diagnostics records the problem, at `site` (the entity file and property), and abandons
 *   the property
 */
export function enumOf(
  typeName: string,
  prop: EntityProperty,
  loaded: LoadedEnum | undefined,
  rename: string | undefined,
  diagnostics: Diagnostics,
  site: Omit<DiagnosticInput, "message">,
): ModelEnum {
  const fail = (message: string) => diagnostics.fail({ ...site, message });
  const name = rename ?? loaded?.name ?? propertyEnumName(typeName, prop.name);
  if (!NAME.test(name)) fail(`invalid GraphQL enum name "${name}"`);
  const values = loaded
    ? loaded.members.map(([member, value]) => ({ name: sanitize(member), value }))
    : itemsOf(prop).map((value) => ({ name: sanitize(String(value)).toUpperCase(), value }));
  const names = new Set(values.map((v) => v.name));
  if (values.length === 0) {
    // A `const enum` is erased by the compiler: `items: () => Tier` names nothing at run time.
    fail(
      "enum without values: its items are empty at run time (a `const enum`, erased by TypeScript, or an empty list); use a regular `enum` or an object of values, or list the values in `items`",
    );
  }
  if (names.size !== values.length) {
    fail(
      `enum values ${
        JSON.stringify(values.map((v) => v.value))
      } do not map to distinct GraphQL enum values; rename the members so that each gives its own name, or Skip(SkipEnumField) to expose the property as a String`,
    );
  }
  return { name, values };
}

/**
 * Adds `e` to `enums` unless an enum of the same name and values is there (a TypeScript enum
 * used by several properties).
 *
 * @returns an error message when another enum already has the name
 */
export function addEnum(enums: ModelEnum[], e: ModelEnum): string | undefined {
  const same = enums.find((other) => other.name === e.name);
  if (!same) {
    enums.push(e);
    return undefined;
  }
  return JSON.stringify(same.values) === JSON.stringify(e.values)
    ? undefined
    : `GraphQL enum "${e.name}" is already generated with other values`;
}

function itemsOf(prop: EntityProperty): (string | number)[] {
  const items = typeof prop.items === "function" ? (prop.items as () => unknown[])() : prop.items;
  return (items ?? []) as (string | number)[];
}

function sanitize(name: string): string {
  return name.replace(/[^_0-9A-Za-z]+/g, "_").replace(/^(\d)/, "_$1");
}
