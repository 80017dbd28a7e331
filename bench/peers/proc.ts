/**
 * CPU time and memory of a process from Linux `/proc/<pid>` (`proc(5)`), for the server
 * benchmarks: the servers run in their own processes, so their figures exclude the load
 * generator's.
 *
 * @module
 */

const TICKS_PER_SECOND = Number(
  new TextDecoder().decode(new Deno.Command("getconf", { args: ["CLK_TCK"] }).outputSync().stdout),
) || 100;

/** User + system CPU time the process has used, in ms (`utime` + `stime` of `/proc/<pid>/stat`). */
export function cpuMs(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/** User and system CPU time the process has used, in ms (`utime`, `stime` of `/proc/<pid>/stat`). */
export function cpuTimes(pid: number): { user: number; system: number } {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  // Fields after the parenthesised command name start at field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return {
    user: Number(fields[11]) * 1000 / TICKS_PER_SECOND,
    system: Number(fields[12]) * 1000 / TICKS_PER_SECOND,
  };
}

/**
 * Resident set size of the process, in bytes (`VmRSS` of `/proc/<pid>/status`), or `undefined`
 * when the status holds none (a process that has exited; at a load average of 15 a sample came
 * back without it in the second round of `deno task bench:peers`, on main too, while ps still
 * listed the three servers, and the benchmark stopped there).
 */
export function rssBytes(pid: number): number | undefined {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kB = status.match(/^VmRSS:\s+(\d+) kB/m)?.[1];
  return kB === undefined ? undefined : Number(kB) * 1024;
}

/**
 * Samples the process's RSS every `intervalMs` until the returned function is called.
 *
 * @returns a function that stops sampling and returns the highest RSS seen, in bytes
 */
export function sampleRss(pid: number, intervalMs = 100): () => number {
  let peak = 0;
  const sample = () => peak = Math.max(peak, rssBytes(pid) ?? 0);
  sample();
  const timer = setInterval(sample, intervalMs);
  return () => {
    clearInterval(timer);
    return sample();
  };
}

/**
 * Starts measuring the CPU time of every process named `postgres` (the server and its backends):
 * the returned function gives the user + system ms they used since, in ms. A backend that exits
 * meanwhile is not subtracted (another server's pool closing its idle connections during the
 * run): a process counts its CPU since the start, or all of it when it started later; one that
 * started and exited between the two readings is missed. On a machine whose PostgreSQL serves
 * only the benchmark, the database's share of a run's CPU.
 *
 * @example
 * ```ts ignore
 * const used = postgresCpu();
 * await runLoad();
 * console.log(`${used()} ms of PostgreSQL CPU`);
 * ```
 */
export function postgresCpu(): () => number {
  const before = postgresProcesses();
  return () => {
    let total = 0;
    for (const [pid, ms] of postgresProcesses()) total += ms - (before.get(pid) ?? 0);
    return total;
  };
}

function postgresProcesses(): Map<number, number> {
  const processes = new Map<number, number>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const command = Deno.readTextFileSync(`/proc/${entry.name}/comm`).trim();
      if (command === "postgres") processes.set(Number(entry.name), cpuMs(Number(entry.name)));
    } catch {
      // exited meanwhile
    }
  }
  return processes;
}
