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
  /** The process id (for its `/proc/<pid>` figures). */
  pid: number;
  /** Stops the process and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Runs `deno run -A [...flags] <script> ...args` and resolves once it prints `listening <port>`.
 *
 * @param flags extra `deno run` flags, e.g. `--inspect=127.0.0.1:0`
 * @throws Error when the process exits before printing its port
 */
export function startServerProcess(
  script: URL,
  args: string[],
  flags: string[] = [],
): Promise<ServerProcess> {
  return startProcess(Deno.execPath(), ["run", "-A", ...flags, script.pathname, ...args]);
}

/**
 * Runs `command ...args` and resolves once it prints `listening <port>` on stdout.
 *
 * @param env extra environment variables
 * @throws Error when the process exits before printing its port
 */
export async function startProcess(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const child = new Deno.Command(command, {
    args,
    env,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(new TextLineStream());
  for await (const line of lines) {
    const match = line.match(/^listening (\d+)/);
    if (match) {
      return {
        port: Number(match[1]),
        pid: child.pid,
        stop: async () => {
          child.kill();
          await child.status;
        },
      };
    }
  }
  throw new Error(`${command} ${args.join(" ")} exited before printing "listening <port>"`);
}
