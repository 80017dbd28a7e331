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
  /** Stops the process and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Runs `deno run -A <script> ...args` and resolves once it prints `listening <port>`.
 *
 * @throws Error when the process exits before printing its port
 */
export async function startServerProcess(script: URL, args: string[]): Promise<ServerProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script.pathname, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(new TextLineStream());
  for await (const line of lines) {
    const match = line.match(/^listening (\d+)/);
    if (match) {
      return {
        port: Number(match[1]),
        stop: async () => {
          child.kill();
          await child.status;
        },
      };
    }
  }
  throw new Error(`${script.pathname} exited before printing "listening <port>"`);
}
