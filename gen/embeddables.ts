/**
 * Embeddables in the Graph: each embeddable class becomes a GraphQL object type named after it
 * (`Address`; `Type(name)` on the embeddable renames it) and an input type `<Name>Input`, nested as
 * in the model (`Address.geo: Geo`), whatever the storage: inline (flattened `address_*`
 * columns) or object mode (one JSON column), single or arrays (`[Parcel!]`). The flattened
 * properties MikroORM adds for them (`address_street`, `shipping_address~street`) never appear.
 *
 * @module
 */
import type { EntityMetadata, EntityProperty } from "@mikro-orm/core";
import { type Annotation, annotationsOf, SkipType } from "../runtime/annotations.ts";
import { embeddableInputName } from "../runtime/names.ts";
import { optionalOnCreate } from "./fields.ts";
import type { GraphField } from "./graph.ts";
import type { LoadedModel } from "./load.ts";

/** An embeddable's GraphQL object type and input type. */
export interface GraphEmbeddable {
  /** GraphQL object type name: the class name, or its `Type(name)`. */
  name: string;
  /** Input type name, `<name>Input`. */
  inputName: string;
  /** MikroORM class name. */
  className: string;
  /** Its fields: scalars, enums and nested embeddables (`embedded` set). */
  fields: GraphField[];
  /** Field name -> an input may leave it out (nullable or defaulted). */
  optional: Record<string, boolean>;
}

/** The flattened copy MikroORM adds for a property of an embeddable (`address_street`). */
export function flattened(prop: EntityProperty): boolean {
  return prop.embedded !== undefined;
}

/**
 * Builds the embeddable types of a model on demand.
 *
 * @param scalarField turns a scalar property of an embeddable into its field (kinds and enums as
 *   on node types), or `undefined` when GraphQL cannot carry it
 */
export class Embeddables {
  readonly #types = new Map<string, GraphEmbeddable>();

  constructor(
    readonly model: LoadedModel,
    readonly scalarField: (
      owner: string,
      meta: EntityMetadata,
      prop: EntityProperty,
      list: Annotation[],
    ) => GraphField | undefined,
  ) {}

  /** Every embeddable type built so far, in the order first reached. */
  all(): GraphEmbeddable[] {
    return [...this.#types.values()];
  }

  /** The field of an embedded property (`address: Address`, `parcels: [Parcel!]`). */
  field(prop: EntityProperty, name = prop.name): GraphField {
    const type = this.type(prop.targetMeta as EntityMetadata);
    return {
      name,
      prop: prop.name,
      kind: "json",
      graphqlType: type.name,
      embedded: type.name,
      nullable: !!prop.nullable,
      list: prop.array || undefined,
      description: prop.comment,
    };
  }

  /** The type of an embeddable class, built (with the embeddables it nests) on first use. */
  type(meta: EntityMetadata): GraphEmbeddable {
    const known = this.#types.get(meta.className);
    if (known) return known;
    const loaded = this.model.entities.find((e) => e.className === meta.className);
    const annotations = loaded
      ? annotationsOf(loaded.entity)
      : { entity: [], fields: {} as Record<string, Annotation[]> };
    const rename = annotations.entity.find((a) => a.kind === "Type");
    const name = rename?.kind === "Type" ? rename.name : meta.className;
    const type: GraphEmbeddable = {
      name,
      inputName: embeddableInputName(name),
      className: meta.className,
      fields: [],
      optional: {},
    };
    this.#types.set(meta.className, type);
    for (const prop of Object.values(meta.properties)) {
      const list = annotations.fields[prop.name] ?? [];
      if (flattened(prop) || prop.hidden || prop.persist === false) continue;
      if (list.some((a) => a.kind === "Skip" && (a.modes & SkipType) !== 0)) continue;
      const field = prop.kind === "embedded"
        ? this.field(prop)
        : prop.kind === "scalar"
        ? this.scalarField(name, meta, prop, list)
        : undefined;
      if (!field) continue;
      type.fields.push(field);
      type.optional[field.name] = optionalOnCreate(meta, prop);
    }
    return type;
  }
}
