/**
 * Step 1 and 2 of generation: import every module of the entity directory (or of the paths a
 * MikroORM config lists), collect the MikroORM entities they export, and run MikroORM's own
 * metadata discovery on them (no database connection) with the project's metadata provider and
 * discovery options.
 *
 * @module
 */
import {
  type Configuration,
  type EntityMetadata,
  EntitySchema,
  MetadataStorage,
  MikroORM,
  type Options,
} from "@mikro-orm/core";
import {
  AbstractSqlDriver,
  BaseSqliteConnection,
  NodeSqliteDialect,
  SqlitePlatform,
} from "@mikro-orm/sql";
import { stripAnsiCode } from "@std/fmt/colors";
import { expandGlob } from "@std/fs/expand-glob";
import { walk } from "@std/fs/walk";
import { fromFileUrl, isGlob, relative, resolve, toFileUrl } from "@std/path";
import type { OrmDiscoveryOptions } from "./config.ts";
import { type DiagnosticInput, Diagnostics } from "./diagnostics.ts";
import { GenerateError } from "./generate_error.ts";

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

/** A TypeScript enum (or enum-like object) an enum property names, found among the exports. */
export interface LoadedEnum {
  /** The export's name: the GraphQL enum's name. */
  name: string;
  /** Member name -> value, without the reverse mappings of numeric enums. */
  members: [string, string | number][];
}

/** The loaded entities with MikroORM's discovered metadata. */
export interface LoadedModel {
  entities: LoadedEntity[];
  /** Class name -> discovered metadata, for every entity MikroORM discovered. */
  metadata: Map<string, EntityMetadata>;
  /**
   * `<class name>.<property>` -> the exported enum object its `items` names (`p.enum(() => Tier)`,
   * `@Enum(() => Tier)`), read before discovery replaces `items` by the enum's values.
   */
  enums: Map<string, LoadedEnum>;
}

/** Where the entities come from. */
export interface ModelSource {
  /** Directory of entity modules, walked recursively. */
  dir?: string;
  /** MikroORM discovery options; its `entitiesTs` or `entities` are used when `dir` is absent. */
  orm?: OrmDiscoveryOptions;
  /**
   * The MikroORM config module `orm` came from: the file named for the entities it lists as
   * class references.
   */
  ormFile?: string;
}

const MODULE = /\.(ts|mts|js|mjs)$/;
const NOT_MODULE = /(\.d\.ts|_test\.ts|\.test\.ts)$/;
/** The options of `orm` passed to MikroORM's discovery. */
const DISCOVERY_OPTIONS = [
  "metadataProvider",
  "discovery",
  "namingStrategy",
  "embeddables",
] as const;

/**
 * Imports every entity module (sorted by path, so the result is deterministic) and collects the
 * entities they export, then discovers their metadata.
 *
 * @param diagnostics collects the problems: every module that fails to import is reported
 *   before the run fails
 * @throws GenerateError when there is no entity, modules fail to import (all named), or
 *   MikroORM's discovery rejects the model (naming the entity's file)
 */
export async function loadModel(
  source: ModelSource,
  diagnostics = new Diagnostics(),
): Promise<LoadedModel> {
  const refs: unknown[] = [];
  const paths: string[] = [];
  if (source.dir) paths.push(source.dir);
  else {
    for (const entry of source.orm?.entitiesTs ?? source.orm?.entities ?? []) {
      if (typeof entry === "string") paths.push(resolve(source.orm?.baseDir ?? Deno.cwd(), entry));
      else refs.push(entry);
    }
  }
  const files = await modules(paths);
  const entities: LoadedEntity[] = [];
  const seen = new Set<unknown>();
  const exported = new Map<object, string>();
  // One import failure is reported once, at the place Deno names, however many modules import it.
  const failures = new Set<string>();
  for (const file of files) {
    let exports: Record<string, unknown>;
    try {
      exports = await import(toFileUrl(file).href);
    } catch (error) {
      const failure = importFailure(error, file);
      const key = `${failure.file}: ${failure.message}`;
      if (!failures.has(key)) diagnostics.error(failure);
      failures.add(key);
      continue;
    }
    for (const [exportName, value] of Object.entries(exports)) {
      if (isEnumObject(value) && !exported.has(value)) exported.set(value, exportName);
    }
    collect(Object.entries(exports), file, entities, seen);
  }
  await definingFiles(entities, files);
  await importedEnums(files, exported);
  collect(
    refs.map((r) => [(r as { name?: string }).name ?? "", r]),
    source.ormFile ?? "(orm options)",
    entities,
    seen,
  );
  diagnostics.throwIfErrors();
  if (entities.length === 0) {
    throw new GenerateError(
      `no MikroORM entity exported under ${
        paths.map((p) => relative(Deno.cwd(), p)).join(", ") || source.ormFile ||
        "the orm options"
      }`,
    );
  }
  const enums = enumsOf(entities, exported);
  return { entities, metadata: discover(entities, source.orm), enums };
}

const LOCATION = /(file:\/\/\/[^\s)]+?):(\d+):(\d+)/;

/**
 * The diagnostic of a module that failed to import (a syntax error, a missing import, an error
 * thrown while it initialises): the first line of the error, without colour codes, at the file,
 * line and column Deno names (in the message, else the error's first stack frame in a file), else
 * at the module imported.
 */
function importFailure(error: unknown, file: string): DiagnosticInput {
  const text = stripAnsiCode(String((error as Error)?.message ?? error));
  const stack = stripAnsiCode(String((error as Error)?.stack ?? ""));
  const found = LOCATION.exec(text) ?? LOCATION.exec(stack);
  const at = found
    ? `${relative(Deno.cwd(), fromFileUrl(found[1]))}:${found[2]}:${found[3]}`
    : relative(Deno.cwd(), file);
  const message = text.split("\n")[0].trim();
  return { file: at, message: `cannot import: ${message}` };
}

/**
 * Gives each entity the module that declares it (`export class Sandwich`, `export const Sandwich
 * =`) rather than the first that exports it (a barrel `index.ts` sorts before `sandwich.ts`), so
 * diagnostics name the file to edit.
 */
async function definingFiles(entities: LoadedEntity[], files: string[]): Promise<void> {
  const sources = new Map<string, string>();
  const source = async (file: string) => {
    if (!sources.has(file)) sources.set(file, await Deno.readTextFile(file).catch(() => ""));
    return sources.get(file)!;
  };
  for (const loaded of entities) {
    const name = loaded.exportName.replace(/\$/g, "\\$");
    const declares = new RegExp(`\\b(?:class|const|let|var|function)\\s+${name}\\b`);
    if (declares.test(await source(loaded.file))) continue;
    for (const file of files) {
      if (file !== loaded.file && declares.test(await source(file))) {
        loaded.file = file;
        break;
      }
    }
  }
}

/** The entity modules of `paths` (directories, globs or files), sorted. */
async function modules(paths: string[]): Promise<string[]> {
  const files = new Set<string>();
  for (const path of paths) {
    try {
      if (isGlob(path)) {
        for await (const entry of expandGlob(path, { includeDirs: false })) {
          if (MODULE.test(entry.path) && !NOT_MODULE.test(entry.path)) files.add(entry.path);
        }
        continue;
      }
      if ((await Deno.stat(path)).isFile) {
        files.add(path);
        continue;
      }
      for await (
        const entry of walk(path, { includeDirs: false, match: [MODULE], skip: [NOT_MODULE] })
      ) {
        files.add(entry.path);
      }
    } catch (error) {
      throw new GenerateError(
        `cannot read entities at ${path}: ${(error as Error).message}`,
      );
    }
  }
  return [...files].sort();
}

/** Adds the MikroORM entities among `exports` (name, value) of `file` to `entities`. */
function collect(
  exports: [string, unknown][],
  file: string,
  entities: LoadedEntity[],
  seen: Set<unknown>,
): void {
  const decorated = new Set<unknown>(
    Object.values(MetadataStorage.getMetadata()).map((m) => m.class),
  );
  for (const [exportName, value] of exports) {
    if (seen.has(value)) continue;
    if (value instanceof EntitySchema) {
      seen.add(value);
      entities.push({ entity: value, exportName, file, className: value.meta.className });
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

/** A plain object whose values are all strings or numbers: a TypeScript enum or a const map. */
function isEnumObject(value: unknown): value is Record<string, string | number> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  const values = Object.values(value);
  return values.length > 0 && values.every((v) => typeof v === "string" || typeof v === "number");
}

/** The members of an enum object, leaving out the reverse mappings TypeScript adds (`1: "Low"`). */
function members(object: Record<string, string | number>): [string, string | number][] {
  return Object.entries(object).filter(([key, value]) =>
    !(typeof value === "string" && /^-?\d+(\.\d+)?$/.test(key) && object[value] === Number(key))
  );
}

/**
 * Adds the TypeScript enums the entity modules import from modules outside the entity directory
 * (a shared `enums.ts`, another package's file) to `exported`, so an enum is recognised by its
 * value wherever it is exported from (otherwise its numeric members `-1` and `1` would both be
 * named `_1`). Only relative and `file:` imports are followed, one level deep.
 */
async function importedEnums(files: string[], exported: Map<object, string>): Promise<void> {
  const seen = new Set(files.map((f) => toFileUrl(f).href));
  for (const file of files) {
    let source: string;
    try {
      source = await Deno.readTextFile(file);
    } catch {
      continue;
    }
    for (const [, specifier] of source.matchAll(/\bfrom\s+["']((?:\.{1,2}\/|file:)[^"']+)["']/g)) {
      const url = new URL(specifier, toFileUrl(file)).href;
      if (seen.has(url)) continue;
      seen.add(url);
      try {
        const exports: Record<string, unknown> = await import(url);
        for (const [name, value] of Object.entries(exports)) {
          if (isEnumObject(value) && !exported.has(value)) exported.set(value, name);
        }
      } catch {
        // a module that does not load on its own: its enums stay unrecognised, as before
      }
    }
  }
}

function enumsOf(
  entities: LoadedEntity[],
  exported: Map<object, string>,
): Map<string, LoadedEnum> {
  const found = new Map<string, LoadedEnum>();
  const decorated = Object.values(MetadataStorage.getMetadata());
  for (const loaded of entities) {
    const properties = loaded.entity instanceof EntitySchema
      ? loaded.entity.meta.properties
      : decorated.find((m) => m.class === loaded.entity)?.properties ?? {};
    for (const [name, prop] of Object.entries(properties)) {
      const items = (prop as { items?: unknown }).items;
      let object: unknown = items;
      try {
        if (typeof items === "function") object = (items as () => unknown)();
      } catch {
        continue;
      }
      const exportName = isEnumObject(object) ? exported.get(object) : undefined;
      if (exportName) {
        found.set(`${loaded.className}.${name}`, {
          name: exportName,
          members: members(object as Record<string, string | number>),
        });
      }
    }
  }
  return found;
}

function discover(
  entities: LoadedEntity[],
  orm: OrmDiscoveryOptions = {},
): Map<string, EntityMetadata> {
  const options: Partial<Pick<Options, typeof DISCOVERY_OPTIONS[number]>> = {};
  for (const key of DISCOVERY_OPTIONS) {
    if (orm[key] !== undefined) Object.assign(options, { [key]: orm[key] });
  }
  let discovered: MikroORM;
  try {
    discovered = new MikroORM({
      ...options,
      driver: DiscoveryDriver,
      dbName: ":memory:",
      driverOptions: new NodeSqliteDialect(":memory:"),
      entities: entities.map((e) => e.entity),
      discovery: { warnWhenNoEntities: false, ...options.discovery },
    });
  } catch (error) {
    const message = (error as Error).message;
    // The entity whose property the message names (`... given instead for Book2.author`), else
    // the first entity it names.
    const named = (e: LoadedEntity, after = "\\b") =>
      new RegExp(`\\b${e.className.replace(/\$/g, "\\$")}${after}`).test(message);
    const culprit = entities.find((e) => named(e, "\\.\\w")) ?? entities.find((e) => named(e));
    throw new GenerateError(
      `${
        culprit ? `${relative(Deno.cwd(), culprit.file)}: ${culprit.className}: ` : ""
      }MikroORM metadata discovery failed: ${message}`,
    );
  }
  const metadata = new Map<string, EntityMetadata>();
  for (const meta of discovered.getMetadata().getAll().values()) {
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
