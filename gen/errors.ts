/**
 * The error the generator raises for an invalid model or bad options.
 *
 * @module
 */

/**
 * An invalid model or option. The message names the entity file and property, e.g.
 * `entities/user.ts: User.meta: OrderField "META" on a non-comparable property (json)`.
 */
export class GenerateError extends Error {
  override name = "GenerateError";
}
