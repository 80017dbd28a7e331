/**
 * The problems of one generator run, collected instead of thrown one at a time, so a user sees
 * every broken entity and property of a model in one run. Errors stop the run before anything is written; warnings (an edge into a type that is
 * not generated, ...) are printed and the run goes on.
 *
 * @module
 */
import { type Diagnostic, GenerateError } from "./generate_error.ts";

/** A diagnostic before its severity is given. */
export type DiagnosticInput = Omit<Diagnostic, "severity">;

/** Formats `file: Entity.prop: message` (the parts that are known). */
export function formatDiagnostic(d: DiagnosticInput): string {
  const at = d.entity ? (d.prop ? `${d.entity}.${d.prop}` : d.entity) : d.prop;
  return [d.file, at, d.message].filter((part) => part).join(": ");
}

/** Thrown by {@linkcode Diagnostics.fail} to abandon the unit of work that found the problem. */
class Abandon extends Error {
  override name = "Abandon";
}

/** The collected diagnostics of one run. */
export class Diagnostics {
  /** Every diagnostic, in the order found. */
  readonly items: Diagnostic[] = [];

  /** The errors. */
  get errors(): Diagnostic[] {
    return this.items.filter((d) => d.severity === "error");
  }

  /** The warnings. */
  get warnings(): Diagnostic[] {
    return this.items.filter((d) => d.severity === "warning");
  }

  /** Records an error; the run goes on to find more, and fails at {@linkcode throwIfErrors}. */
  error(d: DiagnosticInput): void {
    this.items.push({ severity: "error", ...d });
  }

  /** Records a warning. */
  warn(d: DiagnosticInput): void {
    this.items.push({ severity: "warning", ...d });
  }

  /**
   * Records an error and abandons the current unit of work (the property, entity or check run
   * by {@linkcode attempt}, {@linkcode map} or {@linkcode forEach}).
   */
  fail(d: DiagnosticInput): never {
    this.error(d);
    throw new Abandon(formatDiagnostic(d));
  }

  /**
   * Runs `fn`; a {@linkcode fail} (or a `GenerateError`) inside it is recorded and abandons only
   * `fn`.
   *
   * @returns `fn`'s result, or `undefined` when it failed
   */
  attempt<R>(fn: () => R): R | undefined {
    try {
      return fn();
    } catch (error) {
      if (error instanceof Abandon) return undefined;
      if (error instanceof GenerateError) {
        if (error.diagnostics.length) this.items.push(...error.diagnostics);
        else this.error({ message: error.message });
        return undefined;
      }
      throw error;
    }
  }

  /** `items.map(fn)` where an item whose `fn` fails is recorded and left out of the result. */
  map<T, R>(items: readonly T[], fn: (item: T) => R): R[] {
    const result: R[] = [];
    for (const item of items) {
      const ok = this.attempt(() => ({ value: fn(item) }));
      if (ok) result.push(ok.value);
    }
    return result;
  }

  /** `items.forEach(fn)` where an item whose `fn` fails is recorded and the others still run. */
  forEach<T>(items: readonly T[], fn: (item: T) => void): void {
    for (const item of items) this.attempt(() => fn(item));
  }

  /**
   * @throws GenerateError carrying every diagnostic (warnings too) when an error was recorded
   */
  throwIfErrors(): void {
    const errors = this.errors.length;
    if (errors === 0) return;
    throw new GenerateError(
      errors === 1
        ? formatDiagnostic(this.errors[0])
        : `${errors} problems in the model:\n${
          this.errors.map((d) => `  ${formatDiagnostic(d)}`).join("\n")
        }`,
      this.items,
    );
  }
}
