/**
 * Starts a benchmark server in its own process and waits for the `listening <port>` line it
 * prints, so its CPU and memory are measured apart from the load generator's.
 *
 * @module
 */
import { TextLineStream } from "@std/streams/text-line-stream";

/** A running server process. */
export interface ServerProcess {
  /** The port the server listens on, on 127.0.0.1. */
  port: number;
  /**
   * The port of its `/stats` (`{ statements, rss, ... }`): the ready line's second number
   * (`listening <port> stats <stats port>`), else `port`.
   */
  statsPort: number;
  /** The process id (for its `/proc/<pid>` figures). */
  pid: number;
  /** Stops the process and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * The `deno run` flags of README's `start` task and of `deno task example`: V8's memory reducer
 * off. With it, an idle V8 process shrinks its heap and the next 10-15 s of load cost 40-80% more
 * CPU per request (`BENCH_PAUSE=20 deno task bench:idle`); every server the benchmarks start runs
 * as a user's does.
 */
export const SERVER_FLAGS: readonly string[] = ["--v8-flags=--no-memory-reducer"];

/**
 * The flags the benchmarks' servers run with: {@linkcode SERVER_FLAGS}, or those of
 * `BENCH_SERVER_FLAGS` (space-separated; empty for none) to measure without them.
 */
function serverFlags(): readonly string[] {
  const given = Deno.env.get("BENCH_SERVER_FLAGS");
  return given === undefined ? SERVER_FLAGS : given.split(" ").filter(Boolean);
}

/**
 * Runs `deno run -A [...SERVER_FLAGS, ...flags] <script> ...args` (`BENCH_SERVER_FLAGS` in
 * place of `SERVER_FLAGS` when set) with `NODE_ENV=production` (graphql-js then skips its
 * development checks, as in a production deployment and as the peer benchmark runs PostGraphile)
 * and resolves once it prints `listening <port>`.
 *
 * @param flags extra `deno run` flags, e.g. `--inspect=127.0.0.1:0`
 * @param env more environment variables
 * @throws Error when the process exits before printing its port
 */
export function startServerProcess(
  script: URL,
  args: string[],
  flags: string[] = [],
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  return startProcess(
    Deno.execPath(),
    ["run", "-A", ...serverFlags(), ...flags, script.pathname, ...args],
    {
      env: { NODE_ENV: "production", ...env },
    },
  );
}

/** How {@linkcode startProcess} runs a process and knows it is ready. */
export interface ProcessOptions {
  /** Extra environment variables. */
  env?: Record<string, string>;
  /**
   * The stdout line that says the process listens, its first group the port (a second group:
   * the stats port); default `listening <port>` or `listening <port> stats <stats port>`.
   */
  ready?: RegExp;
}

/**
 * Runs `command ...args` and resolves once it prints its ready line (`listening <port>` unless
 * `options.ready` says otherwise) on stdout; the rest of its stdout is read and dropped, so the
 * process never blocks on a full pipe.
 *
 * @throws Error when the process exits before printing its ready line
 */
export async function startProcess(
  command: string,
  args: string[],
  options: ProcessOptions = {},
): Promise<ServerProcess> {
  const ready = options.ready ?? /^listening (\d+)(?: stats (\d+))?/;
  const child = new Deno.Command(command, {
    args,
    env: options.env,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(new TextLineStream())
    .getReader();
  for (let line = await lines.read(); !line.done; line = await lines.read()) {
    const match = line.value.match(ready);
    if (!match) continue;
    (async () => {
      while (!(await lines.read()).done) { /* discard */ }
    })();
    return {
      port: Number(match[1]),
      statsPort: Number(match[2] ?? match[1]),
      pid: child.pid,
      stop: async () => {
        child.kill();
        await child.status;
      },
    };
  }
  throw new Error(`${command} ${args.join(" ")} exited before printing a line matching ${ready}`);
}
