/**
 * Creates that can never succeed: a required stored property that `Create<T>Input` cannot set
 * (`hidden`, `Skip(SkipMutationCreateInput)`, or of a kind GraphQL does not carry) and that
 * nothing else fills in (no default, no class initializer, not generated, no MikroORM create
 * hook) makes every `create<T>` fail at the database. The generator leaves such a create out with
 * a warning naming the property and what to do; with a hook that may set it, it keeps the create
 * and warns.
 *
 * @module
 */
import type { EntityMetadata, EntityProperty } from "@mikro-orm/core";
import type { Diagnostics } from "./diagnostics.ts";
import { generated, optionalOnCreate } from "./fields.ts";
import type { ModelType } from "./model.ts";

/** Drops `type`'s create mutation (with a warning) when a required property cannot be set. */
export function checkCreate(type: ModelType, diagnostics: Diagnostics): void {
  const create = type.mutations?.create;
  if (!create) return;
  const { meta } = type;
  const set = new Set(create.fields.map((f) => f.prop));
  const missing = Object.values(meta.properties).filter((prop) =>
    stored(meta, prop) && !set.has(prop.name) && required(meta, prop)
  );
  if (missing.length === 0) return;
  const hooked = (["beforeCreate", "beforeUpsert", "onInit"] as const).some((h) =>
    (meta.hooks[h]?.length ?? 0) > 0
  );
  for (const prop of missing) {
    const why = prop.hidden ? "hidden" : "not in the create input";
    diagnostics.warn({
      file: type.file,
      entity: meta.className,
      prop: prop.name,
      message: hooked
        ? `${create.field} cannot set this required property (${why}): it succeeds only if a create hook of ${meta.className} sets it`
        : `${create.field} left out: it could never succeed, as this required property is ${why} and has no default; make it nullable or give it a default (or a class initializer), Expose() it, or annotate Mutations({ create: false })`,
    });
  }
  if (!hooked) delete type.mutations!.create;
}

/** A property a row stores, which an insert must give a value. */
function stored(meta: EntityMetadata, prop: EntityProperty): boolean {
  if (prop.persist === false || prop.formula || prop.embedded) return false;
  if (prop.name === meta.root.discriminatorColumn) return false; // set by MikroORM
  if (prop.kind === "scalar" || prop.kind === "m:1" || prop.kind === "embedded") return true;
  return prop.kind === "1:1" && !!prop.owner;
}

/** Nothing fills the property in when the input leaves it out. */
function required(meta: EntityMetadata, prop: EntityProperty): boolean {
  if (generated(prop) || (prop.primary && prop.autoincrement)) return false;
  return !optionalOnCreate(meta, prop);
}
