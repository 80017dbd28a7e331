/**
 * The error the generator raises for an invalid model or bad options, and the diagnostics (one
 * problem each) it carries.
 *
 * @module
 */
/** One problem, naming where it is. */
export interface Diagnostic {
  /** An `error` stops the run before anything is written; a `warning` is reported only. */
  severity: "error" | "warning";
  /** Entity module, relative to the working directory when inside it. */
  file?: string;
  /** MikroORM class name of the entity. */
  entity?: string;
  /** Entity property (or properties, comma-separated). */
  prop?: string;
  /** What is wrong, and how to fix it. */
  message: string;
}

/**
 * An invalid model or option. The message names the entity file and property, e.g.
 * `entities/user.ts: User.meta: OrderField "META" on a non-comparable property (json)`; when a
 * run finds several problems, the message lists them all, one a line, and `diagnostics` holds
 * each (and the warnings of the run).
 */
export class GenerateError extends Error {
  /** `"GenerateError"`. */
  override name = "GenerateError";
  /** Every problem of the run, each naming file, entity and property where known. */
  readonly diagnostics: readonly Diagnostic[];

  /**
   * Makes the error.
   *
   * @param message the problem, or the list of problems
   * @param diagnostics the structured problems; empty for a single problem given as `message`
   */
  constructor(message: string, diagnostics: readonly Diagnostic[] = []) {
    super(message);
    this.diagnostics = diagnostics;
  }
}
