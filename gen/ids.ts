/**
 * The global id format of a generated schema (`GenerateOptions.globalIds`), checked against the
 * model: `universal` ids are integer keys, `raw` ids are string keys (UUIDs, prefixed ULIDs),
 * and `IdPrefix` only means something for `raw` ids.
 *
 * @module
 */
import type { GlobalIdFormat } from "../runtime/graph.ts";
import { Diagnostics } from "./diagnostics.ts";
import { GenerateError } from "./generate_error.ts";
import type { Model } from "./model.ts";

const FORMATS: GlobalIdFormat[] = ["opaque", "universal", "raw"];

/**
 * Sets `model.ids` to `format`.
 *
 * @param diagnostics collects the problems; every type is checked before the run fails
 * @throws GenerateError naming each entity whose primary key or `IdPrefix` does not fit the
 *   format or whose prefix another type shares, or when the format is unknown
 */
export function applyGlobalIds(
  model: Model,
  format: GlobalIdFormat,
  diagnostics = new Diagnostics(),
): void {
  if (!FORMATS.includes(format)) {
    throw new GenerateError(
      `globalIds must be one of ${FORMATS.join(", ")}, got ${JSON.stringify(format)}`,
    );
  }
  const prefixes = new Map<string, string>();
  for (const type of model.types) {
    const at = { file: type.file, entity: type.meta.className };
    if (format === "universal" && type.id.kind === "string") {
      diagnostics.error({
        ...at,
        message: `universal global ids need integer primary keys, ${type.id.prop} is a string`,
      });
      continue;
    }
    if (format === "raw" && type.id.kind !== "string") {
      diagnostics.error({
        ...at,
        message:
          `raw global ids need string primary keys (UUIDs, prefixed ULIDs), ${type.id.prop} is an integer`,
      });
      continue;
    }
    if (type.prefix === undefined) continue;
    if (format !== "raw") {
      diagnostics.error({ ...at, message: `IdPrefix("${type.prefix}") needs globalIds: "raw"` });
      continue;
    }
    const other = prefixes.get(type.prefix);
    if (other) {
      diagnostics.error({ ...at, message: `IdPrefix("${type.prefix}") is also used by ${other}` });
      continue;
    }
    prefixes.set(type.prefix, type.name);
  }
  diagnostics.throwIfErrors();
  model.ids = format;
}
