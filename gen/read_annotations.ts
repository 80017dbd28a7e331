/**
 * How the generator reads the annotations (`runtime/annotations.ts`): every loaded entity's and
 * embeddable's are read once, at the start of the Model build, and looked up from there; the
 * first annotation of a kind, and the `Skip` modes of a list.
 *
 * @module
 */
import {
  type Annotation,
  type AnnotationKind,
  annotationsOf,
  type EntityAnnotations,
} from "../runtime/annotations.ts";
import type { EntityMetadata } from "@mikro-orm/core";
import { relative } from "@std/path";
import { didYouMean } from "./did_you_mean.ts";
import type { Diagnostics } from "./diagnostics.ts";
import type { LoadedEntity } from "./load_entities.ts";

/** The annotations of every loaded entity, read once. */
export class ModelAnnotations {
  readonly #byEntity = new Map<LoadedEntity, EntityAnnotations>();
  readonly #byClass = new Map<string, EntityAnnotations>();

  /**
   * Reads the annotations of each of `entities` (the first of a class name answers for it). An
   * annotated field that is no property of its entity's metadata is an error naming the closest
   * property (`annotate(Author, { fields: { post: ... } })`, a typo of `posts`).
   */
  constructor(
    entities: readonly LoadedEntity[],
    metadata: ReadonlyMap<string, EntityMetadata>,
    diagnostics: Diagnostics,
    cwd: string,
  ) {
    for (const loaded of entities) {
      const annotations = annotationsOf(loaded.entity);
      this.#byEntity.set(loaded, annotations);
      if (!this.#byClass.has(loaded.className)) this.#byClass.set(loaded.className, annotations);
      const properties = metadata.get(loaded.className)?.properties;
      if (!properties) continue;
      for (const field of Object.keys(annotations.fields)) {
        if (field in properties) continue;
        diagnostics.error({
          file: relative(cwd, loaded.file),
          entity: loaded.className,
          prop: field,
          message: `annotations on "${field}", which is no property of ${loaded.className}${
            didYouMean(field, Object.keys(properties))
          }`,
        });
      }
    }
  }

  /** The annotations of a loaded entity. */
  of(loaded: LoadedEntity): EntityAnnotations {
    return this.#byEntity.get(loaded)!;
  }

  /** The annotations of the loaded entity of a MikroORM class name; none when it was not loaded. */
  ofClass(className: string): EntityAnnotations {
    return this.#byClass.get(className) ?? { entity: [], fields: {} };
  }
}

/** The first annotation of `kind` in `list`. */
export function find<K extends AnnotationKind>(
  list: readonly Annotation[],
  kind: K,
): Extract<Annotation, { kind: K }> | undefined {
  return list.find((a) => a.kind === kind) as Extract<Annotation, { kind: K }> | undefined;
}

/** The `Skip` modes of `list`, or-ed (`SkipWhereInput | SkipOrderField`); `0` for none. */
export function skipModes(list: readonly Annotation[]): number {
  return list.reduce((modes, a) => a.kind === "Skip" ? modes | a.modes : modes, 0);
}
