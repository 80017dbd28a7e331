/**
 * What the generator's command line prints, and how: on a terminal, colours (errors red,
 * warnings yellow, the place of a diagnostic dimmed) and one progress line that each step
 * overwrites and that is cleared before anything else is printed; into a pipe or a file, or with
 * `NO_COLOR` set, plain text with no escape sequence. Diagnostics and the progress line go to
 * stderr, the run's report lines to stdout.
 *
 * @module
 */
import { bold, dim, green, red, yellow } from "@std/fmt/colors";
import type { GenerateReporter } from "./mod.ts";
import { formatDiagnostic } from "./diagnostics.ts";
import type { Diagnostic } from "./generate_error.ts";

const CLEAR_LINE = "\r\x1b[2K";

/** Where the CLI's output goes, and whether each stream is a terminal that takes colours. */
export interface OutputStreams {
  /** Standard output is a terminal. */
  outTerminal: boolean;
  /** Standard error is a terminal. */
  errTerminal: boolean;
  /** `NO_COLOR` is set. */
  noColor: boolean;
}

/** The streams of this process. */
export function processStreams(): OutputStreams {
  return {
    outTerminal: Deno.stdout.isTerminal(),
    errTerminal: Deno.stderr.isTerminal(),
    noColor: Deno.noColor,
  };
}

/** The CLI's printer for one run. */
export class CliOutput implements GenerateReporter {
  readonly #streams: OutputStreams;
  readonly #progress: boolean;
  #progressShown = false;
  readonly #encoder = new TextEncoder();

  /** @param progress show the progress line (not with `--quiet`) when stderr is a terminal */
  constructor(streams: OutputStreams = processStreams(), progress = true) {
    this.#streams = streams;
    this.#progress = progress && streams.errTerminal;
  }

  #color(terminal: boolean, paint: (s: string) => string, text: string): string {
    return terminal && !this.#streams.noColor ? paint(text) : text;
  }

  #clearProgress(): void {
    if (!this.#progressShown) return;
    Deno.stderr.writeSync(this.#encoder.encode(CLEAR_LINE));
    this.#progressShown = false;
  }

  /** Shows `name` on the progress line (a terminal only). */
  step(name: string): void {
    if (!this.#progress) return;
    const text = this.#color(true, dim, `${name}…`);
    Deno.stderr.writeSync(this.#encoder.encode(CLEAR_LINE + text));
    this.#progressShown = true;
  }

  /** A report line on stdout (entities found, files written, time taken). */
  info(line: string): void {
    this.#clearProgress();
    console.log(line);
  }

  /** A line of success on stdout. */
  done(line: string): void {
    this.info(this.#color(this.#streams.outTerminal, green, line));
  }

  /** Each diagnostic on stderr: `error: file: Entity.prop: message`. */
  diagnostics(items: readonly Diagnostic[]): void {
    this.#clearProgress();
    const terminal = this.#streams.errTerminal;
    for (const d of items) {
      const severity = this.#color(
        terminal,
        d.severity === "error" ? (s) => bold(red(s)) : (s) => bold(yellow(s)),
        d.severity,
      );
      const place = formatDiagnostic({ ...d, message: "" });
      const where = place ? `${this.#color(terminal, dim, place)}: ` : "";
      console.error(`${severity}: ${where}${d.message}`);
    }
  }

  /** A usage error on stderr, with the pointer to `--help`. */
  usage(message: string): void {
    this.#clearProgress();
    const label = this.#color(this.#streams.errTerminal, (s) => bold(red(s)), "error");
    console.error(`${label}: ${message}\n(see --help)`);
  }

  /** A plain line on stderr. */
  note(line: string): void {
    this.#clearProgress();
    console.error(line);
  }
}
