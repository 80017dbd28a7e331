/**
 * An example's server as its own process (`examples/<name>/server.ts`, `NODE_ENV=production`:
 * `serve` with every plugin of `mikrogqlPreset`, as a user runs it), and what `/proc` tells of a
 * process: resident memory and CPU time, figures that the test process's own work and the
 * machine's load do not change.
 *
 * @module
 */
import { TextLineStream } from "@std/streams";

/**
 * A process's figures from `/proc`: resident memory now (VmRSS) and its peak (VmHWM) in bytes, and
 * the CPU time it has used (user + system, every thread) in milliseconds (10 ms resolution).
 */
export async function figuresOf(
  pid: number,
): Promise<{ rss: number; peak: number; cpuMs: number }> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
  // The fields after the command name (in parentheses): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const cpuMs = (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
  const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
  const kb = (key: string) =>
    Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") * 1024, peak: kb("VmHWM") * 1024, cpuMs };
}

/**
 * An example's server process, started on `url`'s database (and `env`: `REDIS_URL`, ...);
 * resolves once it listens.
 */
export async function startExample(
  name: string,
  databaseUrl: string,
  env: Record<string, string> = {},
) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(`../../examples/${name}/server.ts`, import.meta.url).pathname],
    env: {
      DATABASE_URL: databaseUrl,
      PORT: "0",
      NODE_ENV: "production",
      NO_COLOR: "1",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output: string[] = [];
  const keep = (stream: typeof child.stdout) =>
    (async () => {
      const lines = stream.pipeThrough(new TextDecoderStream()).pipeThrough(new TextLineStream());
      for await (const line of lines) {
        output.push(line.slice(0, 500));
        if (output.length > 200) output.shift();
      }
    })();
  const drained = Promise.all([keep(child.stdout), keep(child.stderr)]);
  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  while (!url) {
    url = output.map((l) => / at (http:\/\/\S+)/.exec(l)?.[1]).find(Boolean);
    if (Date.now() > deadline) throw new Error(`${name} did not start:\n${output.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    pid: child.pid,
    output,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* it has exited */ }
      await child.status;
      await drained;
    },
  };
}
