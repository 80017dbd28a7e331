/**
 * Embeddables in the Model: each embeddable class becomes a GraphQL object type named after it
 * (`Address`; `Type(name)` on the embeddable renames it) and an input type `<Name>Input`, nested as
 * in the model (`Address.geo: Geo`), whatever the storage: inline (flattened `address_*`
 * columns) or object mode (one JSON column), single or arrays (`[Parcel!]`). The flattened
 * properties MikroORM adds for them (`address_street`, `shipping_address~street`) never appear.
 *
 * @module
 */
import type { EntityMetadata, EntityProperty } from "@mikro-orm/core";
import { type Annotation, type EntityAnnotations, SkipType } from "../runtime/annotations.ts";
import { embeddableInputName } from "../runtime/names.ts";
import { find, skipModes } from "./read_annotations.ts";
import { generated, optionalOnCreate } from "./fields.ts";
import type { ModelEmbeddable, ModelField } from "./model.ts";

/** The doc comments the embeddables read: of a class, and of one of its properties. */
export interface EmbeddableDocs {
  entity(meta: EntityMetadata): string | undefined;
  property(meta: EntityMetadata, prop: string): string | undefined;
}

/** The flattened copy MikroORM adds for a property of an embeddable (`address_street`). */
export function flattened(prop: EntityProperty): boolean {
  return prop.embedded !== undefined;
}

/**
 * Builds the embeddable types of a model on demand.
 *
 * @param annotationsOf the annotations of the entity or embeddable of a MikroORM class name
 * @param scalarField turns a scalar property of an embeddable into its field (kinds and enums as
 *   on node types), or `undefined` when GraphQL cannot carry it
 * @param docs the doc comments of embeddables and of embedded properties (descriptions where
 *   MikroORM's `comment` gives none)
 */
export class Embeddables {
  readonly #types = new Map<string, ModelEmbeddable>();

  constructor(
    readonly annotationsOf: (className: string) => EntityAnnotations,
    readonly scalarField: (
      owner: string,
      meta: EntityMetadata,
      prop: EntityProperty,
      list: Annotation[],
    ) => ModelField | undefined,
    readonly docs: EmbeddableDocs,
  ) {}

  /** Every embeddable type built so far that has fields, in the order first reached. */
  all(): ModelEmbeddable[] {
    return [...this.#types.values()].filter((t) => t.fields.length > 0);
  }

  /**
   * The field of an embedded property (`address: Address`, `parcels: [Parcel!]`), or `undefined`
   * when its embeddable has no field to show (every property hidden or skipped): GraphQL has no
   * empty object type.
   *
   * @param owner the metadata of the entity or embeddable holding the property
   * @param skip the `Skip` modes annotated on the property
   */
  field(prop: EntityProperty, owner: EntityMetadata, skip: number): ModelField | undefined {
    const type = this.type(prop.targetMeta as EntityMetadata);
    if (type.fields.length === 0) return undefined;
    // The keys of `FieldDescription` first, in the order the generated tables print them.
    return {
      prop: prop.name,
      kind: "json",
      list: prop.array || undefined,
      embedded: type.name,
      name: prop.name,
      graphqlType: type.name,
      nullable: !!prop.nullable,
      description: prop.comment ?? this.docs.property(owner, prop.name),
      skip,
      generated: generated(prop),
      optional: optionalOnCreate(owner, prop),
      object: !!prop.object,
    };
  }

  /** The type of an embeddable class, built (with the embeddables it nests) on first use. */
  type(meta: EntityMetadata): ModelEmbeddable {
    const known = this.#types.get(meta.className);
    if (known) return known;
    const annotations = this.annotationsOf(meta.className);
    const name = find(annotations.entity, "Type")?.name ?? meta.className;
    const type: ModelEmbeddable = {
      name,
      inputName: embeddableInputName(name),
      className: meta.className,
      fields: [],
      description: meta.comment ?? this.docs.entity(meta),
    };
    this.#types.set(meta.className, type);
    for (const prop of Object.values(meta.properties)) {
      const list = annotations.fields[prop.name] ?? [];
      if (flattened(prop) || (prop.hidden && !find(list, "Expose")) || prop.persist === false) {
        continue;
      }
      if (skipModes(list) & SkipType) continue;
      const field = prop.kind === "embedded"
        ? this.field(prop, meta, skipModes(list))
        : prop.kind === "scalar"
        ? this.scalarField(name, meta, prop, list)
        : undefined;
      if (field) type.fields.push(field);
    }
    return type;
  }
}
