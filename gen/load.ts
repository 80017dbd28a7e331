/**
 * Step 1 and 2 of generation: import every module of the entity directory, collect the MikroORM
 * entities they export, and run MikroORM's own metadata discovery on them (no database
 * connection).
 *
 * @module
 */
import {
  type Configuration,
  type EntityMetadata,
  EntitySchema,
  MetadataStorage,
  MikroORM,
} from "@mikro-orm/core";
import {
  AbstractSqlDriver,
  BaseSqliteConnection,
  NodeSqliteDialect,
  SqlitePlatform,
} from "@mikro-orm/sql";
import { walk } from "@std/fs/walk";
import { relative, toFileUrl } from "@std/path";
import { Diagnostics } from "./diagnostics.ts";
import { GenerateError } from "./errors.ts";

/** An entity found in an entity module. */
export interface LoadedEntity {
  /** The exported value: a decorated class, an `EntitySchema` or a `defineEntity` result. */
  entity: EntitySchema | (abstract new (...args: never[]) => object);
  /** The export's name in its module. */
  exportName: string;
  /** Absolute path of the module. */
  file: string;
  /** MikroORM's class name of the entity. */
  className: string;
}

/** The loaded entities with MikroORM's discovered metadata. */
export interface LoadedModel {
  entities: LoadedEntity[];
  /** Class name -> discovered metadata, for every entity MikroORM discovered. */
  metadata: Map<string, EntityMetadata>;
}

const MODULE = /\.(ts|mts|js|mjs)$/;
const NOT_MODULE = /(\.d\.ts|_test\.ts|\.test\.ts)$/;

/**
 * Imports every module under `dir` (sorted by path, so the result is deterministic) and collects
 * the entities they export, then discovers their metadata.
 *
 * @param diagnostics collects the problems: every module that fails to import is reported
 *   before the run fails
 * @throws GenerateError when the directory has no entity, modules fail to import (all named),
 *   or MikroORM's discovery rejects the model (naming the entity's file)
 */
export async function loadModel(
  dir: string,
  diagnostics = new Diagnostics(),
): Promise<LoadedModel> {
  const files: string[] = [];
  try {
    for await (
      const entry of walk(dir, {
        includeDirs: false,
        match: [MODULE],
        skip: [NOT_MODULE],
      })
    ) {
      files.push(entry.path);
    }
  } catch (error) {
    throw new GenerateError(
      `cannot read entity directory ${dir}: ${(error as Error).message}`,
    );
  }
  files.sort();
  const entities: LoadedEntity[] = [];
  const seen = new Set<unknown>();
  for (const file of files) {
    let exports: Record<string, unknown>;
    try {
      exports = await import(toFileUrl(file).href);
    } catch (error) {
      diagnostics.error({
        file: relative(Deno.cwd(), file),
        message: `cannot import: ${(error as Error).message}`,
      });
      continue;
    }
    const decorated = new Set<unknown>(
      Object.values(MetadataStorage.getMetadata()).map((m) => m.class),
    );
    for (const [exportName, value] of Object.entries(exports)) {
      if (seen.has(value)) continue;
      if (value instanceof EntitySchema) {
        seen.add(value);
        entities.push({
          entity: value,
          exportName,
          file,
          className: value.meta.className,
        });
      } else if (typeof value === "function" && decorated.has(value)) {
        seen.add(value);
        entities.push({
          entity: value as LoadedEntity["entity"],
          exportName,
          file,
          className: value.name,
        });
      }
    }
  }
  diagnostics.throwIfErrors();
  if (entities.length === 0) {
    throw new GenerateError(`no MikroORM entity exported under ${dir}`);
  }
  return { entities, metadata: discover(entities) };
}

function discover(entities: LoadedEntity[]): Map<string, EntityMetadata> {
  let orm: MikroORM;
  try {
    orm = new MikroORM({
      driver: DiscoveryDriver,
      dbName: ":memory:",
      driverOptions: new NodeSqliteDialect(":memory:"),
      entities: entities.map((e) => e.entity),
      discovery: { warnWhenNoEntities: false },
    });
  } catch (error) {
    const message = (error as Error).message;
    const culprit = entities.find((e) => new RegExp(`\\b${e.className}\\b`).test(message));
    throw new GenerateError(
      `${
        culprit ? `${relative(Deno.cwd(), culprit.file)}: ${culprit.className}: ` : ""
      }MikroORM metadata discovery failed: ${message}`,
    );
  }
  const metadata = new Map<string, EntityMetadata>();
  for (const meta of orm.getMetadata().getAll().values()) {
    metadata.set(meta.className, meta);
  }
  return metadata;
}

/**
 * SQLite without its implicit foreign-key indexes, so that discovered metadata has `index` only
 * where the model declares one (read by the index check of `indexes.ts`).
 */
class DiscoveryPlatform extends SqlitePlatform {
  override indexForeignKeys(): boolean {
    return false;
  }
}

class DiscoveryDriver extends AbstractSqlDriver {
  constructor(config: Configuration) {
    super(config, new DiscoveryPlatform(), BaseSqliteConnection, ["kysely"]);
  }
}
