/**
 * The global id format of a generated schema (`GenerateOptions.globalIds`), checked against the
 * model: `universal` ids are integer keys, `raw` ids are string keys (UUIDs, prefixed ULIDs),
 * and `IdPrefix` only means something for `raw` ids.
 *
 * @module
 */
import type { GlobalIdFormat } from "../runtime/graph.ts";
import { GenerateError } from "./errors.ts";
import type { Graph } from "./graph.ts";

const FORMATS: GlobalIdFormat[] = ["opaque", "universal", "raw"];

/**
 * Sets `graph.ids` to `format`.
 *
 * @throws GenerateError naming the entity when its primary key or `IdPrefix` does not fit the
 *   format, two types share a prefix, or the format is unknown
 */
export function applyGlobalIds(graph: Graph, format: GlobalIdFormat): void {
  if (!FORMATS.includes(format)) {
    throw new GenerateError(
      `globalIds must be one of ${FORMATS.join(", ")}, got ${JSON.stringify(format)}`,
    );
  }
  const prefixes = new Map<string, string>();
  for (const type of graph.types) {
    const where = `${type.entity.file}: ${type.meta.className}`;
    if (format === "universal" && type.id.kind === "string") {
      throw new GenerateError(
        `${where}: universal global ids need integer primary keys, ${type.id.prop} is a string`,
      );
    }
    if (format === "raw" && type.id.kind !== "string") {
      throw new GenerateError(
        `${where}: raw global ids need string primary keys (UUIDs, prefixed ULIDs), ${type.id.prop} is an integer`,
      );
    }
    if (type.prefix === undefined) continue;
    if (format !== "raw") {
      throw new GenerateError(`${where}: IdPrefix("${type.prefix}") needs globalIds: "raw"`);
    }
    const other = prefixes.get(type.prefix);
    if (other) {
      throw new GenerateError(`${where}: IdPrefix("${type.prefix}") is also used by ${other}`);
    }
    prefixes.set(type.prefix, type.name);
  }
  graph.ids = format;
}
